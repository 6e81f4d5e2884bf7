// Session-token refresh timing (docs/specification.md §9).

/** Refresh this long before the session token expires. */
export const REFRESH_BEFORE_MS = 5 * 60_000
/** A token is treated as expired this long before its expiry. */
export const EXPIRY_MARGIN_MS = 30_000
const BACKOFF_START_MS = 30_000
const BACKOFF_MAX_MS = 16 * 60_000

/** Milliseconds from `now` until the refresh of a token expiring at `expiresAt` is due. */
export function refreshDelay(expiresAt: number, now: number): number {
  return Math.max(0, expiresAt - REFRESH_BEFORE_MS - now)
}

/** Wait before retry number `attempt` (0-based): 30 s, doubling, at most 16 minutes. */
export function backoffDelay(attempt: number): number {
  return Math.min(BACKOFF_START_MS * 2 ** Math.max(0, attempt), BACKOFF_MAX_MS)
}

/** True when a token expiring at `expiresAt` can still be sent at `now`. */
export function isFresh(expiresAt: number, now: number): boolean {
  return expiresAt - EXPIRY_MARGIN_MS > now
}

/** True when the URL's query is a sign-in callback: code and state, or error and state. */
export function isCallback(search: string): boolean {
  const q = new URLSearchParams(search)
  return q.has('state') && (q.has('code') || q.has('error'))
}

/**
 * True when this browser may have a session with the identity provider, judged by what
 * @auth0/auth0-spa-js leaves behind: its "is authenticated" cookie (also under its legacy and
 * client-less names; the SDK's own checkSession asks the provider only when it finds one) or a
 * token cache entry in localStorage. Without either, the visitor is signed out and the SDK need
 * not be loaded until they sign in.
 */
export function hasProviderTraces(
  clientId: string,
  cookie: string,
  storageKeys: Iterable<string>,
): boolean {
  const names = new Set(cookie.split(';').map((c) => c.split('=')[0]!.trim()))
  for (const name of [`auth0.${clientId}.is.authenticated`, 'auth0.is.authenticated']) {
    if (names.has(name) || names.has(`_legacy_${name}`)) return true
  }
  for (const key of storageKeys) if (key.startsWith('@@auth0spajs@@')) return true
  return false
}
