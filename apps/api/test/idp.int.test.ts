import { describe, expect, it } from 'vitest'
import { createRemoteJWKSet } from 'jose'
import { verifyIdToken } from '../src/services/provider-tokens.ts'
import { DEMO_PASSWORD } from '../src/idp/index.ts'
import {
  authorize,
  Browser,
  finishAtCallback,
  form,
  refresh,
  signInWithPassword,
  startIdentity,
} from './idp-flow.ts'
import { forSuite } from './helpers.ts'

describe('embedded identity provider', () => {
  const id = forSuite(() => startIdentity())

  it('publishes Auth0-compatible endpoints under an issuer with a trailing slash', async () => {
    const discovery = (await (
      await fetch(new URL('.well-known/openid-configuration', id.settings.issuer))
    ).json()) as Record<string, unknown>
    expect(discovery.issuer).toBe(id.settings.issuer)
    expect(discovery.issuer).toMatch(/\/$/)
    expect(discovery.authorization_endpoint).toBe(`${id.settings.issuer}authorize`)
    expect(discovery.token_endpoint).toBe(`${id.settings.issuer}oauth/token`)
    expect(discovery.end_session_endpoint).toBe(`${id.settings.issuer}v2/logout`)
    expect(discovery.code_challenge_methods_supported).toEqual(['S256'])
  })

  it('signs in a demo account: RS256 JWT access token for the API with permissions, ID token with profile', async () => {
    const { tokens, callback, state, nonce } = await signInWithPassword(
      id.settings,
      'coach@example.com',
      DEMO_PASSWORD,
    )
    expect(callback?.searchParams.get('state')).toBe(state)
    expect(tokens?.refresh_token).toBeTruthy()
    const [header, payload] = tokens!.access_token
      .split('.')
      .slice(0, 2)
      .map((p) => JSON.parse(Buffer.from(p, 'base64url').toString()))
    expect(header.alg).toBe('RS256')
    expect(payload).toMatchObject({
      iss: id.settings.issuer,
      aud: id.settings.audience,
      email: 'coach@example.com',
      org_id: 'org_veloptima_demo',
      permissions: [
        'create:simulations',
        'access:aerooptimization',
        'use:multipleRiderProfiles',
        'access:betaFeedback',
      ],
    })
    const keys = createRemoteJWKSet(new URL('.well-known/jwks.json', id.settings.issuer))
    const claims = await verifyIdToken(tokens!.id_token, keys, {
      issuer: id.settings.issuer,
      clientId: id.settings.clientId,
      nonce,
      organization: 'org_veloptima_demo',
    })
    expect(claims).toMatchObject({
      email: 'coach@example.com',
      name: 'Demo Coach',
      org_name: 'Veloptima Demo Team',
    })
  })

  it('requires PKCE: an authorization request without a code challenge is refused', async () => {
    const url = new URL('authorize', id.settings.issuer)
    url.search = new URLSearchParams({
      client_id: id.settings.clientId,
      response_type: 'code',
      redirect_uri: id.settings.redirectUri,
      scope: 'openid',
      state: 's',
    }).toString()
    const response = await fetch(url, { redirect: 'manual' })
    const location = new URL(response.headers.get('location') ?? '')
    expect(location.searchParams.get('error')).toBe('invalid_request')
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/)
  })

  it('rotates refresh tokens; reusing a spent one is refused and revokes the family', async () => {
    const { tokens } = await signInWithPassword(id.settings, 'rider@example.com', DEMO_PASSWORD)
    const first = await refresh(id.settings, tokens!.refresh_token)
    expect(first.status).toBe(200)
    expect(first.body.refresh_token).not.toBe(tokens!.refresh_token)
    expect(first.body.access_token).toBeTruthy()
    const second = await refresh(id.settings, first.body.refresh_token)
    expect(second.status).toBe(200)
    const reused = await refresh(id.settings, tokens!.refresh_token)
    expect(reused.body.error).toBe('invalid_grant')
    // Reuse detection: a stolen token's replay also ends the legitimate holder's grant.
    const latest = await refresh(id.settings, second.body.refresh_token)
    expect(latest.body.error).toBe('invalid_grant')
  })

  it('keeps its signing keys and refresh tokens across a restart (database-backed)', async () => {
    const { tokens } = await signInWithPassword(id.settings, 'rider@example.com', DEMO_PASSWORD)
    const jwks = async () =>
      (await (await fetch(new URL('.well-known/jwks.json', id.settings.issuer))).json()) as {
        keys: { kid: string }[]
      }
    const before = await jwks()
    await id.restartIdp()
    // Let the client notice that the old server closed its kept-alive sockets.
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(await jwks()).toEqual(before)
    const after = await refresh(id.settings, tokens!.refresh_token)
    expect(after.status).toBe(200)
  })

  it('shows an error for a wrong password and stays on the login page', async () => {
    const browser = new Browser()
    const { pageUrl } = await authorize(browser, id.settings)
    const response = await browser.fetch(
      `${pageUrl}/login`,
      form({ email: 'rider@example.com', password: 'not-the-password' }),
    )
    expect(response.status).toBe(401)
    expect(response.headers.get('x-frame-options')).toBe('DENY')
    expect(response.headers.get('content-security-policy')).toContain("frame-ancestors 'none'")
    const html = await response.text()
    expect(html).toContain('data-code="invalid-credential">Wrong e-mail or password.')
    expect(html).toContain('value="rider@example.com"')
  })

  it('blocks an e-mail from an address after 5 failed attempts, even with the right password', async () => {
    const browser = new Browser()
    const { pageUrl } = await authorize(browser, id.settings)
    const attempt = (password: string) =>
      browser.fetch(`${pageUrl}/login`, form({ email: 'new@example.com', password }))
    for (let i = 0; i < 5; i++) expect((await attempt(`wrong-${i}`)).status).toBe(401)
    const blocked = await attempt(DEMO_PASSWORD)
    expect(blocked.status).toBe(429)
    expect(blocked.headers.get('retry-after')).toMatch(/^(59|60)$/)
    expect(await blocked.text()).toMatch(
      /data-code="too-many-requests">Too many failed attempts\. Try again in (1 minute|\d+ seconds)\./,
    )
  })

  it('signs up a new account, which is then signed in, and refuses a taken e-mail', async () => {
    const browser = new Browser()
    const { pageUrl, verifier } = await authorize(browser, id.settings)
    const signupPage = await browser.fetch(`${pageUrl}/signup`)
    expect(await signupPage.text()).toContain('Create your account')
    const { tokens } = await finishAtCallback(
      browser,
      id.settings,
      `${pageUrl}/signup`,
      { name: 'Fresh Rider', email: 'Fresh@Example.com', password: 'a-good-password' },
      verifier,
    )
    const payload = JSON.parse(
      Buffer.from(tokens!.access_token.split('.')[1]!, 'base64url').toString(),
    )
    expect(payload).toMatchObject({
      email: 'fresh@example.com',
      name: 'Fresh Rider',
      permissions: [],
    })

    const again = new Browser()
    const second = await authorize(again, id.settings)
    const taken = await again.fetch(
      `${second.pageUrl}/signup`,
      form({ name: 'Other', email: 'fresh@example.com', password: 'another-password' }),
    )
    expect(taken.status).toBe(409)
    expect(await taken.text()).toContain(
      'data-code="email-already-in-use">An account with this e-mail already exists.',
    )
    const short = await again.fetch(
      `${second.pageUrl}/signup`,
      form({ name: 'Other', email: 'other@example.com', password: 'short' }),
    )
    expect(await short.text()).toContain('Use at least 8 characters for the password.')
  })

  it('resets a forgotten password through the link written to the log', async () => {
    await signInWithPassword(id.settings, 'fresh@example.com', 'a-good-password')
    const browser = new Browser()
    const { pageUrl } = await authorize(browser, id.settings)
    const sent = await browser.fetch(`${pageUrl}/forgot`, form({ email: 'fresh@example.com' }))
    expect(await sent.text()).toContain('a link to reset the password is on its way')
    const line = id.logs.find((l) => l.includes('E-mail to fresh@example.com'))
    const link = /(http:\/\/\S+\/reset\?token=\S+)/.exec(line ?? '')?.[1]
    expect(link).toBeTruthy()
    const page = await fetch(link!)
    expect(await page.text()).toContain('Choose a new password')
    const token = new URL(link!).searchParams.get('token')!
    const done = await fetch(new URL('reset', id.settings.issuer), {
      ...form({ token, password: 'a-new-password' }),
    })
    expect(await done.text()).toContain('Password changed')
    // The link works once.
    const reused = await fetch(new URL('reset', id.settings.issuer), {
      ...form({ token, password: 'yet-another-one' }),
    })
    expect(await reused.text()).toContain('no longer valid')
    const old = await signInWithPassword(id.settings, 'fresh@example.com', 'a-good-password')
    expect(old.tokens).toBeUndefined()
    const fresh = await signInWithPassword(id.settings, 'fresh@example.com', 'a-new-password')
    expect(fresh.tokens?.access_token).toBeTruthy()
  })

  it('answers a reset request for an unknown e-mail the same way, and sends nothing', async () => {
    const browser = new Browser()
    const { pageUrl } = await authorize(browser, id.settings)
    const sent = await browser.fetch(`${pageUrl}/forgot`, form({ email: 'nobody@example.com' }))
    expect(await sent.text()).toContain('a link to reset the password is on its way')
    expect(id.logs.some((l) => l.includes('nobody@example.com'))).toBe(false)
  })

  it('signs out through Auth0’s /v2/logout with returnTo, ending the provider session', async () => {
    const { browser } = await signInWithPassword(id.settings, 'rider@example.com', DEMO_PASSWORD)
    // While the provider session lives, a new authorization skips the login page.
    const silent = await authorize(browser, id.settings)
    expect(silent.pageUrl.startsWith(id.settings.redirectUri)).toBe(true)
    const logout = new URL('v2/logout', id.settings.issuer)
    logout.search = new URLSearchParams({
      client_id: id.settings.clientId,
      returnTo: id.settings.redirectUri,
      auth0Client: 'eyJuYW1lIjoidGVzdCJ9',
    }).toString()
    const page = await browser.fetch(logout.toString())
    const html = await page.text()
    expect(html).toContain('Signing out')
    // The page submits its form at once (Auth0 does not ask); submit it as the browser does.
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? ''
    const fields = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [
        m[1]!,
        m[2]!,
      ]),
    )
    const done = await browser.fetch(new URL(action, id.settings.issuer).toString(), form(fields))
    expect(done.status).toBe(303)
    expect(done.headers.get('location')).toBe(id.settings.redirectUri)
    const after = await authorize(browser, id.settings)
    expect(after.pageUrl).toMatch(/\/interaction\//)
    expect(html).toContain('<script>')
  })

  it('asks before signing out when /v2/logout lacks the client id or a registered returnTo', async () => {
    const { browser } = await signInWithPassword(id.settings, 'rider@example.com', DEMO_PASSWORD)
    const signedIn = async () =>
      (await authorize(browser, id.settings)).pageUrl.startsWith(id.settings.redirectUri)
    const logout = (query: Record<string, string>) => {
      const url = new URL('v2/logout', id.settings.issuer)
      url.search = new URLSearchParams(query).toString()
      return browser.fetch(url.toString())
    }
    // A bare link (any site can make one), a returnTo without the client, the client alone.
    const queries: Record<string, string>[] = [
      {},
      { returnTo: id.settings.redirectUri },
      { client_id: id.settings.clientId },
    ]
    for (const query of queries) {
      const page = await logout(query)
      expect(page.status).toBe(200)
      const html = await page.text()
      expect(html).toContain('Sign out of Veloptima?')
      expect(html).toContain('<button type="submit">Sign out</button>')
      expect(html).not.toContain('<script')
      expect(await signedIn()).toBe(true)
    }
    // The user confirms: the form signs out.
    const html = await (await logout({})).text()
    const action = /action="([^"]+)"/.exec(html)?.[1] ?? ''
    const fields = Object.fromEntries(
      [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)].map((m) => [
        m[1]!,
        m[2]!,
      ]),
    )
    const done = await browser.follow(
      new URL(action, id.settings.issuer).toString(),
      form(fields),
      id.settings.issuer,
    )
    expect(done.response.status).toBe(200)
    expect(await done.response.text()).toContain('You are signed out of Veloptima.')
    expect(await signedIn()).toBe(false)
  })

  it("does not trust Vite's dev origin (port 5173) in production", async () => {
    const dev = 'http://localhost:5173'
    expect(id.config.NODE_ENV).toBe('production')
    // Not a redirect address …
    const url = new URL('authorize', id.settings.issuer)
    url.search = new URLSearchParams({
      client_id: id.settings.clientId,
      response_type: 'code',
      redirect_uri: `${dev}/`,
      scope: 'openid',
      state: 's',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }).toString()
    const authorizeDev = await fetch(url, { redirect: 'manual' })
    expect(authorizeDev.status).toBe(400)
    expect(await authorizeDev.text()).toContain('data-error="invalid_redirect_uri"')
    // … nor a sign-out return address …
    const logout = new URL('v2/logout', id.settings.issuer)
    logout.search = new URLSearchParams({
      client_id: id.settings.clientId,
      returnTo: `${dev}/`,
    }).toString()
    const logoutDev = await fetch(logout)
    expect(logoutDev.status).toBe(400)
    // … nor a CORS origin of the token endpoint (the app's own origin is) …
    const preflight = (origin: string) =>
      fetch(new URL('oauth/token', id.settings.issuer), {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST' },
      })
    const appOrigin = new URL(id.settings.redirectUri).origin
    expect((await preflight(appOrigin)).headers.get('access-control-allow-origin')).toBe(appOrigin)
    const token = await fetch(new URL('oauth/token', id.settings.issuer), {
      ...form({ grant_type: 'refresh_token', client_id: id.settings.clientId, refresh_token: 'x' }),
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: dev },
    })
    expect(token.headers.get('access-control-allow-origin')).toBeNull()
    // … nor a form-action of the provider's pages.
    const page = await authorize(new Browser(), id.settings)
    const csp = page.page.headers.get('content-security-policy') ?? ''
    expect(csp).toMatch(/form-action 'self' http:\/\/localhost:\d+/)
    expect(csp).not.toContain(':5173')
  })
})

describe('sign-up limit', () => {
  const id = forSuite(() => startIdentity())

  it('lets one address create 10 accounts an hour, then answers too-many-requests', async () => {
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) {
      const browser = new Browser()
      const { pageUrl } = await authorize(browser, id.settings)
      const response = await browser.fetch(
        `${pageUrl}/signup`,
        form({ name: `Rider ${i}`, email: `rider${i}@example.net`, password: 'a-good-password' }),
      )
      statuses.push(response.status)
      if (response.status === 429) {
        expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(3000)
        expect(await response.text()).toMatch(
          /data-code="too-many-requests">Too many new accounts from this address\. Try again in \d+ minutes\./,
        )
      }
    }
    expect(statuses).toEqual([...Array<number>(10).fill(303), 429])
  })
})
