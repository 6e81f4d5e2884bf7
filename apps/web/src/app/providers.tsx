import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useState, type CSSProperties, type ReactNode } from 'react'
import { AuthProvider } from '../features/auth/auth-provider.tsx'
import { LiveProvider } from '../lib/live.tsx'
import { ToastHost } from '../lib/toast.tsx'
import { UnitsProvider } from './units-provider.tsx'

/** Notices other than notifications close after 3000 ms (specification §9), 300 px wide. */
const NOTICE_MS = 3000

/** Query data, session, live stream, units and the notices at the bottom right. */
export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
      }),
  )
  return (
    <QueryClientProvider client={client}>
      <AuthProvider>
        <LiveProvider>
          <UnitsProvider>{children}</UnitsProvider>
        </LiveProvider>
      </AuthProvider>
      <ToastHost
        position="bottom-right"
        duration={NOTICE_MS}
        closeButton
        richColors
        style={{ '--width': '300px' } as CSSProperties}
      />
    </QueryClientProvider>
  )
}
