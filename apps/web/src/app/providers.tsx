// Only TanStack Query's context (a few hundred bytes) is imported here: the query client and
// everything that needs it load with the signed-in app (query-layer-store.ts), so the landing page stays small.
import { QueryClientContext } from '@tanstack/react-query'
import { useEffect, useMemo, type CSSProperties, type ReactNode } from 'react'
import { AuthProvider } from '../features/auth/auth-provider.tsx'
import { AuthContext, useAuth, type AuthState } from '../lib/auth.ts'
import { ToastHost } from '../lib/toast.tsx'
import { loadQueryLayer, useQueryLayer, type QueryLayer } from './query-layer-store.ts'
import { LocalUnitsProvider } from './units-provider.tsx'

/** Notices other than notifications close after 3000 ms (docs/specification.md §9), 300 px wide. */
const NOTICE_MS = 3000

/** Query data, session, live stream, units and the notices at the bottom right. */
export function Providers({ children }: { children: ReactNode }) {
  const layer = useQueryLayer()
  // Always this provider, its value undefined until the data layer has loaded: the tree keeps its
  // shape (nothing remounts) when the client arrives.
  return (
    <QueryClientContext.Provider value={layer?.queryClient}>
      <AuthProvider>
        <SessionLayer layer={layer}>{children}</SessionLayer>
      </AuthProvider>
      <ToastHost
        position="bottom-right"
        duration={NOTICE_MS}
        closeButton
        richColors
        style={{ '--width': '300px' } as CSSProperties}
      />
    </QueryClientContext.Provider>
  )
}

/**
 * A signed-in user's pages need the data layer: it starts loading as soon as a session shows
 * (sign-in or its check under way), and until it is there the session still reads as loading
 * (pages show their spinners instead of querying without a client).
 */
function SessionLayer({ layer, children }: { layer: QueryLayer | undefined; children: ReactNode }) {
  const auth = useAuth()
  const session = Boolean(auth.user) || auth.loggingIn
  useEffect(() => {
    if (session) {
      loadQueryLayer().catch((error: unknown) =>
        console.error('The signed-in app could not be loaded.', error),
      )
    }
  }, [session])
  const waiting = Boolean(auth.user) && !layer
  const value = useMemo<AuthState>(
    () => (waiting ? { ...auth, isLoading: true, user: undefined, claims: {} } : auth),
    [auth, waiting],
  )
  return (
    <AuthContext.Provider value={value}>
      {auth.user && layer ? (
        <layer.SignedInProviders>{children}</layer.SignedInProviders>
      ) : (
        <LocalUnitsProvider>{children}</LocalUnitsProvider>
      )}
    </AuthContext.Provider>
  )
}
