import { useEffect, useMemo, useState, useSyncExternalStore, type ReactNode } from 'react'
import { toast } from '../../lib/toast.tsx'
import { AuthContext, type AuthState } from '../../lib/auth.ts'
import { setSessionTokenSource } from '../../lib/api-client.ts'
import { Session } from './session.ts'

/**
 * Moves to `path` in place of the sign-in callback entry; react-router's browser router
 * follows the popstate event.
 */
function historyNavigate(path: string) {
  const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0
  window.history.replaceState(
    { usr: null, key: Math.random().toString(36).slice(2, 10), idx },
    '',
    path,
  )
  window.dispatchEvent(new PopStateEvent('popstate', { state: window.history.state }))
}

export type AuthProviderProps = {
  children: ReactNode
  /** How to navigate after a sign-in callback (default: browser history + popstate). */
  navigate?: (path: string) => void
  /** Where a failed sign-in callback lands (default: the root path). */
  errorPath?: string
}

/**
 * Provides the session state (`useAuth()`) of docs/specification.md §3–§4: reads
 * /api/public-config, runs the identity provider sign-in, exchanges the access token for the
 * session token and registers it as the API client's token source.
 */
export function AuthProvider({ children, navigate, errorPath = '/' }: AuthProviderProps) {
  const [session] = useState(
    () =>
      new Session({
        navigate: navigate ?? historyNavigate,
        errorPath,
        notifyLoginError: (text) => toast.error('Error during login', { description: text }),
      }),
  )
  const snapshot = useSyncExternalStore(session.subscribe, () => session.state)

  useEffect(() => {
    setSessionTokenSource(session.getSessionToken)
    void session.start()
    return () => setSessionTokenSource(async () => undefined)
  }, [session])

  const value = useMemo<AuthState>(
    () => ({
      ...snapshot,
      login: session.login,
      logout: session.logout,
      getSessionToken: session.getSessionToken,
      refreshClaims: session.refreshClaims,
    }),
    [snapshot, session],
  )
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>
}
