// The signed-in app's data layer, loaded apart from the landing page (query-layer-store.ts): the
// TanStack Query client every page's queries use, and the providers that need a signed-in user.
import { QueryClient } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { LiveProvider } from '../lib/live.tsx'
import { UserUnitsProvider } from './user-units-provider.tsx'

export const queryClient = new QueryClient({
  defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
})
// What QueryClientProvider does on mount: follow window focus and the network state. The client
// lives as long as the page.
queryClient.mount()

/** The live stream (GET /api/live) and the units saved with the user (users.use_imperial_units). */
export function SignedInProviders({ children }: { children: ReactNode }) {
  return (
    <LiveProvider>
      <UserUnitsProvider>{children}</UserUnitsProvider>
    </LiveProvider>
  )
}
