import { describe, expect, it } from 'vitest'
import { backoffDelay, hasProviderTraces, isCallback, isFresh, refreshDelay } from './timing.ts'

// Specification §9: "Auth token refresh 5 minutes before expiry, with retry backoff starting at
// 30 s, doubling up to 16 minutes." and "Token treated as expired 30 s early."
describe('session-token refresh timing', () => {
  it('is due 5 minutes before expiry, and at once when that moment has passed', () => {
    expect(refreshDelay(60 * 60_000, 0)).toBe(55 * 60_000)
    expect(refreshDelay(60_000, 0)).toBe(0)
  })

  it('backs off 30 s, 60 s, 2, 4, 8, 16 minutes and then stays at 16 minutes', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 12].map(backoffDelay)).toEqual([
      30_000, 60_000, 120_000, 240_000, 480_000, 960_000, 960_000, 960_000,
    ])
  })

  it('treats a token as expired 30 s early', () => {
    expect(isFresh(100_000, 69_999)).toBe(true)
    expect(isFresh(100_000, 70_000)).toBe(false)
  })
})

// §2 "Other behaviour": a callback carries code and state, or error and state.
describe('sign-in callback detection', () => {
  it('needs a state with a code or an error', () => {
    expect(isCallback('?code=abc&state=xyz')).toBe(true)
    expect(isCallback('?error=access_denied&state=xyz')).toBe(true)
    expect(isCallback('?code=abc')).toBe(false)
    expect(isCallback('?state=xyz')).toBe(false)
    expect(isCallback('')).toBe(false)
  })
})

// The names @auth0/auth0-spa-js 2.x writes (auth0-spa-js.production.esm.js: "auth0." + clientId
// + ".is.authenticated", the "_legacy_" twin of each cookie, the "@@auth0spajs@@" cache prefix).
describe('provider traces (whether the identity SDK must load at start)', () => {
  it('finds the SDK’s cookies, its legacy twins and its localStorage cache', () => {
    const none: string[] = []
    expect(hasProviderTraces('web', 'auth0.web.is.authenticated=true', none)).toBe(true)
    expect(hasProviderTraces('web', 'a=1; _legacy_auth0.web.is.authenticated=true', none)).toBe(
      true,
    )
    expect(hasProviderTraces('web', 'auth0.is.authenticated=true', none)).toBe(true)
    expect(
      hasProviderTraces('web', '', ['theme', '@@auth0spajs@@::web::https://api::openid']),
    ).toBe(true)
  })

  it('a first visit, or another client’s cookie, has none', () => {
    expect(hasProviderTraces('web', '', [])).toBe(false)
    expect(hasProviderTraces('web', 'auth0.other.is.authenticated=true; units=si', ['x'])).toBe(
      false,
    )
  })
})
