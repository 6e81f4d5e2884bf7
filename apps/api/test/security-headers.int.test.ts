// Browser lockdown: the app's and the identity provider's security headers, the
// provider's inline blocks allowed by their exact hash, and its cookies.
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { tileSource } from '../src/plugins/security.ts'
import { authorize, Browser, startIdentity } from './idp-flow.ts'
import { forSuite, suiteApp } from './helpers.ts'

/** Directive name → its sources, from a Content-Security-Policy header. */
function csp(header: string | undefined): Record<string, string[]> {
  expect(header, 'Content-Security-Policy header').toBeTruthy()
  return Object.fromEntries(
    header!
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name!, sources]),
  )
}

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`

describe('the app’s security headers (http)', () => {
  const t = suiteApp({
    HOST: 'localhost',
    PORT: '3000',
    IDP_PORT: '4000',
    MAP_TILE_URL: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png',
  })

  it('sends a strict CSP on API answers and on the SPA fallback alike', async () => {
    for (const url of ['/api/health', '/some/page/of/the/app']) {
      const res = await t.app.inject({ method: 'GET', url })
      const policy = csp(res.headers['content-security-policy'] as string)
      expect(policy['script-src']).toEqual(["'self'"])
      expect(policy['script-src-attr']).toEqual(["'none'"])
      expect(policy['frame-ancestors']).toEqual(["'none'"])
      expect(policy['object-src']).toEqual(["'none'"])
      // The app, the embedded provider (http://localhost:4000) and the configured tiles only.
      expect(policy['connect-src']).toEqual([
        "'self'",
        'http://localhost:4000',
        'https://*.tiles.example.org',
      ])
      expect(policy['img-src']).toContain('https://*.tiles.example.org')
      expect(policy['upgrade-insecure-requests']).toBeUndefined()
      expect(res.headers['x-content-type-options']).toBe('nosniff')
      expect(res.headers['x-frame-options']).toBe('DENY')
      expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
      expect(res.headers['permissions-policy']).toMatch(/camera=\(\).*geolocation=\(\)/)
      expect(res.headers['strict-transport-security']).toBeUndefined()
      // The app keeps no cookies (the session is a bearer token).
      expect(res.headers['set-cookie']).toBeUndefined()
    }
  })

  it('reads the tile origin from MAP_TILE_URL templates', () => {
    expect(tileSource('https://tile.openstreetmap.org/{z}/{x}/{y}.png')).toBe(
      'https://tile.openstreetmap.org',
    )
    expect(tileSource('https://{s}.tile.example.org/{z}/{x}/{y}.png')).toBe(
      'https://*.tile.example.org',
    )
    expect(tileSource('/tiles/{z}/{x}/{y}.png')).toBe("'self'")
  })
})

describe('the app’s security headers (https)', () => {
  const t = suiteApp({ PUBLIC_URL: 'https://veloptima.example.org' })

  it('adds HSTS and upgrade-insecure-requests only when served over https', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' })
    expect(res.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
    expect(csp(res.headers['content-security-policy'] as string)).toHaveProperty(
      'upgrade-insecure-requests',
    )
  })
})

describe('the identity provider’s pages', () => {
  const id = forSuite(() => startIdentity())

  it('the sign-in page: a CSP allowing exactly its own inline style, no framing, lax http-only cookies', async () => {
    const browser = new Browser()
    const { page } = await authorize(browser, id.settings)
    expect(page.status).toBe(200)
    const html = await page.text()
    const policy = csp(page.headers.get('content-security-policy') ?? undefined)
    expect(policy['default-src']).toEqual(["'none'"])
    expect(policy['frame-ancestors']).toEqual(["'none'"])
    // The hash of the <style> block the page really has (computed here from the page).
    const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1]
    expect(policy['style-src']).toEqual([hash(style!)])
    expect(policy['script-src']).not.toContain("'unsafe-inline'")
    expect(html).not.toMatch(/<script>/)
    expect(policy['form-action']).toContain("'self'")
    expect(policy['form-action']).toContain(new URL(id.settings.redirectUri).origin)
    expect(page.headers.get('x-content-type-options')).toBe('nosniff')
    expect(page.headers.get('x-frame-options')).toBe('DENY')
    expect(page.headers.get('permissions-policy')).toMatch(/camera=\(\)/)
    expect(page.headers.get('strict-transport-security')).toBeNull()

    // The interaction cookies of the /authorize answer: HttpOnly and SameSite=Lax (Secure
    // is added by oidc-provider when the request itself is https).
    const first = await fetch(
      `${id.settings.issuer}authorize?${new URLSearchParams({
        client_id: id.settings.clientId,
        response_type: 'code',
        redirect_uri: id.settings.redirectUri,
        scope: 'openid',
        code_challenge: 'x'.repeat(43),
        code_challenge_method: 'S256',
      })}`,
      { redirect: 'manual' },
    )
    const cookies = first.headers.getSetCookie()
    expect(cookies.length).toBeGreaterThan(0)
    for (const cookie of cookies) {
      expect(cookie).toMatch(/;\s*httponly/i)
      expect(cookie).toMatch(/;\s*samesite=lax/i)
    }
  })

  it('the sign-out page runs its one script by hash', async () => {
    const res = await fetch(
      `${id.settings.issuer}v2/logout?${new URLSearchParams({ client_id: id.settings.clientId })}`,
      { redirect: 'manual' },
    )
    const html = await res.text()
    const script = /<script>([\s\S]*?)<\/script>/.exec(html)?.[1]
    expect(script, html.slice(0, 300)).toBeTruthy()
    const policy = csp(res.headers.get('content-security-policy') ?? undefined)
    expect(policy['script-src']).toContain(hash(script!))
    expect(policy['script-src']).not.toContain("'unsafe-inline'")
  })
})
