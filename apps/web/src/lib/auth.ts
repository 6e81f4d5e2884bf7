import { createContext, useContext } from 'react'

/** The signed-in user as the specification's session state knows it (§3). */
export type LoggedInUser = {
  uid: string
  email: string
  displayName: string
  photoUrl?: string | undefined
}

/**
 * The session state every feature reads (docs/specification.md §3, §4). features/auth provides it
 * (AuthProvider, composed in src/app); other features only read it through `useAuth`.
 */
export type AuthState = {
  /** True until the first identity state refresh has finished. */
  isLoading: boolean
  /** The logged-in user, or undefined when signed out. */
  user: LoggedInUser | undefined
  /** The map of permission flags from the session token. */
  claims: Record<string, boolean>
  /** True while signing in (the Sign in button shows a spinner). */
  loggingIn: boolean
  /** Starts a login redirect; returns to `targetPath` (default: the current page). */
  login(targetPath?: string): Promise<void>
  /** Signs out of the app session and the identity provider, back to the origin. */
  logout(): Promise<void>
  /** A valid session token for API calls (refreshed when close to expiry), or undefined. */
  getSessionToken(): Promise<string | undefined>
  /** Re-reads claims (e.g. after starting a trial). */
  refreshClaims(): Promise<void>
}

const signedOut: AuthState = {
  isLoading: false,
  user: undefined,
  claims: {},
  loggingIn: false,
  login: async () => undefined,
  logout: async () => undefined,
  getSessionToken: async () => undefined,
  refreshClaims: async () => undefined,
}

export const AuthContext = createContext<AuthState>(signedOut)

export function useAuth(): AuthState {
  return useContext(AuthContext)
}

export function hasClaims(state: Pick<AuthState, 'claims'>, ...claims: string[]): boolean {
  return claims.every((c) => state.claims[c] === true)
}
