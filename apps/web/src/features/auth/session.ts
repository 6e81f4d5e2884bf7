import type { Auth0Client } from '@auth0/auth0-spa-js'
import type { LoggedInUser } from '../../lib/auth.ts'
import {
  AuthApiError,
  exchangeAccessToken,
  fetchPublicConfig,
  type CustomTokenResponse,
} from './api.ts'
import { backoffDelay, hasProviderTraces, isCallback, isFresh, refreshDelay } from './timing.ts'

export type SessionSnapshot = {
  isLoading: boolean
  user: LoggedInUser | undefined
  claims: Record<string, boolean>
  loggingIn: boolean
}

export type SessionOptions = {
  /** Moves the app to a path (default: history + popstate, which react-router follows). */
  navigate: (path: string) => void
  /** Where a failed callback lands (§2: default root path). */
  errorPath: string
  /** Shows the login error notification (§8). */
  notifyLoginError: (text: string) => void
}

/** Codes after which the user is signed out (§8). */
const SIGN_OUT_CODES = new Set(['user-disabled', 'user-token-expired'])
/** Provider errors after which only the local session ends (§4: silent login-required). */
const LOCAL_LOGOUT_CODES = new Set(['login_required', 'missing_refresh_token', 'invalid_grant'])

const codeOf = (error: unknown) =>
  error instanceof AuthApiError
    ? error.code
    : ((error as { error?: string } | undefined)?.error ?? '')

/**
 * The sign-in state machine of docs/specification.md §4, around @auth0/auth0-spa-js: callback
 * handling, already-authenticated start, the active-session check, the custom-token exchange,
 * session-token refresh with backoff, and sign-out from both sessions.
 */
export class Session {
  private snapshot: SessionSnapshot = {
    isLoading: true,
    user: undefined,
    claims: {},
    loggingIn: false,
  }
  private readonly listeners = new Set<() => void>()
  private client: Auth0Client | undefined
  private started: Promise<void> | undefined
  private token: { value: string; expiresAt: number } | undefined
  private refreshing: Promise<void> | undefined
  private signingIn: Promise<void> | undefined
  private timer: ReturnType<typeof setTimeout> | undefined
  private attempt = 0
  private loginError = false
  private config: ReturnType<typeof fetchPublicConfig> | undefined
  /** The provider client, created once: at start when needed, else on the first sign-in. */
  private loading: Promise<Auth0Client> | undefined

  constructor(private readonly options: SessionOptions) {}

  get state(): SessionSnapshot {
    return this.snapshot
  }

  subscribe = (listener: () => void) => {
    this.listeners.add(listener)
    return () => void this.listeners.delete(listener)
  }

  private set(patch: Partial<SessionSnapshot>) {
    this.snapshot = { ...this.snapshot, ...patch }
    const root = document.documentElement
    // A stable hook for end-to-end tests and styling: loading, signed-in or signed-out.
    root.dataset.auth = this.snapshot.isLoading
      ? 'loading'
      : this.snapshot.user
        ? 'signed-in'
        : 'signed-out'
    root.dataset.authBusy = String(this.snapshot.loggingIn)
    for (const listener of this.listeners) listener()
  }

  /** Runs once: configuration, callback, then sign-in or the active-session check. */
  start(): Promise<void> {
    this.started ??= this.run()
    return this.started
  }

  private publicConfig() {
    this.config ??= fetchPublicConfig()
    return this.config
  }

  /**
   * The identity SDK is its own chunk (about a fifth of the first page's script): loaded here,
   * at start only for a callback or a browser with provider traces, else when signing in.
   */
  private loadClient(): Promise<Auth0Client> {
    this.loading ??= (async () => {
      const config = await this.publicConfig()
      const { Auth0Client } = await import('@auth0/auth0-spa-js')
      this.client = new Auth0Client({
        domain: config.auth.domain,
        clientId: config.auth.client_id,
        authorizationParams: {
          redirect_uri: `${window.location.origin}/`,
          audience: config.auth.audience,
          scope: 'openid profile email',
        },
        useRefreshTokens: true,
        // Without a usable refresh token, ask the provider session in a hidden frame (§4).
        useRefreshTokensFallback: true,
        // Kept across reloads: a reload stays signed in through the refresh token.
        cacheLocation: 'localstorage',
      })
      return this.client
    })()
    return this.loading
  }

  private async run() {
    this.set({ isLoading: true })
    let client: Auth0Client
    try {
      const config = await this.publicConfig()
      const callback = isCallback(window.location.search)
      const traces = hasProviderTraces(
        config.auth.client_id,
        document.cookie,
        Object.keys(window.localStorage),
      )
      if (!callback && !traces) {
        // Signed out, and no provider session to check (the SDK's checkSession would not ask
        // the provider either): the SDK loads when the visitor signs in.
        this.set({ isLoading: false })
        return
      }
      client = await this.loadClient()
    } catch (error) {
      console.error('Sign-in is unavailable: the configuration could not be loaded.', error)
      this.set({ isLoading: false })
      return
    }
    if (isCallback(window.location.search)) await this.handleCallback(client)
    if (await client.isAuthenticated()) {
      await this.signIn()
    } else {
      // §4: check for an active provider session while the spinner shows.
      this.set({ loggingIn: true })
      try {
        await client.checkSession()
      } catch (error) {
        console.warn('No active identity provider session.', error)
      }
      if (await client.isAuthenticated()) await this.signIn()
      else this.set({ loggingIn: false })
    }
    this.set({ isLoading: false })
  }

  private async handleCallback(client: Auth0Client) {
    let target = this.options.errorPath
    try {
      const result = await client.handleRedirectCallback<{ target?: string }>()
      target = result.appState?.target ?? '/'
    } catch (error) {
      this.loginError = true
      const e = error as { error_description?: string; message?: string }
      this.options.notifyLoginError(e.error_description || e.message || String(error))
    }
    // §2: clear the query to the root path, then go to the stored target.
    window.history.replaceState(window.history.state, '', '/')
    this.options.navigate(target)
  }

  /** §4 steps 2–5: access token → custom token → user, claims and team. */
  private signIn(): Promise<void> {
    this.signingIn ??= this.runSignIn().finally(() => {
      this.signingIn = undefined
    })
    return this.signingIn
  }

  private async runSignIn() {
    this.set({ loggingIn: true })
    try {
      const accessToken = await this.requireClient().getTokenSilently()
      if (!accessToken) throw new Error('the provider returned no access token')
      this.accept(await exchangeAccessToken(accessToken))
    } catch (error) {
      // §8: a failed exchange or team lookup is only logged; the state is reset.
      console.error('Sign-in failed.', error)
      this.clearSession()
      const code = codeOf(error)
      if (SIGN_OUT_CODES.has(code)) await this.logout()
      else if (LOCAL_LOGOUT_CODES.has(code)) await this.localLogout()
    } finally {
      this.set({ loggingIn: false })
    }
  }

  private accept(result: CustomTokenResponse) {
    const expiresAt = Date.parse(result.expires_at)
    this.token = { value: result.firebaseToken, expiresAt }
    this.attempt = 0
    this.set({
      user: {
        uid: result.user.uid,
        email: result.user.email,
        displayName: result.user.displayName,
        photoUrl: result.user.photoUrl ?? undefined,
      },
      claims: result.claims,
    })
    this.schedule(refreshDelay(expiresAt, Date.now()))
  }

  private schedule(delay: number) {
    clearTimeout(this.timer)
    this.timer = setTimeout(() => void this.refresh().catch(() => undefined), delay)
  }

  /** A new session token (and fresh claims); retried with backoff when it fails. */
  refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        const accessToken = await this.requireClient().getTokenSilently()
        if (!accessToken) throw new Error('the provider returned no access token')
        this.accept(await exchangeAccessToken(accessToken))
      } catch (error) {
        const code = codeOf(error)
        console.error('Session refresh failed.', error)
        if (SIGN_OUT_CODES.has(code)) {
          this.clearSession()
          await this.logout()
        } else if (LOCAL_LOGOUT_CODES.has(code)) {
          this.clearSession()
          await this.localLogout()
        } else {
          this.schedule(backoffDelay(this.attempt++))
        }
        throw error
      } finally {
        this.refreshing = undefined
      }
    })()
    return this.refreshing
  }

  /** The session token when fresh; refreshed first when it is about to expire. */
  getSessionToken = async (): Promise<string | undefined> => {
    // Calls made while the start-up sign-in runs wait for it instead of going out bare.
    if (this.snapshot.isLoading && this.started) await this.started
    if (this.signingIn) await this.signingIn
    if (!this.token) return undefined
    if (!isFresh(this.token.expiresAt, Date.now())) {
      await this.refresh().catch(() => undefined)
    }
    return this.token?.value
  }

  refreshClaims = async (): Promise<void> => {
    if (this.token) await this.refresh()
  }

  /** Starts the provider redirect; returns to `targetPath` (default: the current page). */
  login = async (targetPath?: string): Promise<void> => {
    const target =
      targetPath ?? `${window.location.pathname}${window.location.search}${window.location.hash}`
    if (this.loginError) {
      // §4: after an earlier login error, the next attempt first signs out.
      this.loginError = false
      await this.localLogout()
    }
    this.set({ loggingIn: true })
    try {
      const client = await this.loadClient()
      await client.loginWithRedirect({ appState: { target } })
    } catch (error) {
      this.set({ loggingIn: false })
      throw error
    }
  }

  /** Signs out of the app session and the provider, back to the site origin. */
  logout = async (): Promise<void> => {
    this.clearSession()
    await this.requireClient().logout({ logoutParams: { returnTo: `${window.location.origin}/` } })
  }

  private async localLogout() {
    this.clearSession()
    await this.client?.logout({ openUrl: false })
  }

  private clearSession() {
    clearTimeout(this.timer)
    this.token = undefined
    this.set({ user: undefined, claims: {} })
  }

  private requireClient(): Auth0Client {
    if (!this.client) throw new Error('Sign-in is not ready yet.')
    return this.client
  }
}
