// Drives the embedded identity provider over HTTP as a browser would (cookies, redirects,
// forms) through the authorization code flow with PKCE, the way @auth0/auth0-spa-js does.
import { createHash, randomBytes } from 'node:crypto'

export class Browser {
  private readonly cookies = new Map<string, string>()

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers)
    if (this.cookies.size) {
      headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '))
    }
    const response = await fetch(url, { ...init, headers, redirect: 'manual' })
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';')
      const eq = pair.indexOf('=')
      const name = pair.slice(0, eq).trim()
      const value = pair.slice(eq + 1).trim()
      const expired = attributes.some(
        (a) => /^\s*expires=/i.test(a) && Date.parse(a.split('=')[1] ?? '') < Date.now(),
      )
      if (!value || expired) this.cookies.delete(name)
      else this.cookies.set(name, value)
    }
    return response
  }

  /** Follows redirects while they stay on `origin`; returns the last response and its URL. */
  async follow(url: string, init: RequestInit, origin: string) {
    let response = await this.fetch(url, init)
    let current = url
    while (response.status >= 300 && response.status < 400) {
      const next = new URL(response.headers.get('location') ?? '', current).toString()
      current = next
      if (!next.startsWith(origin)) return { response, url: next }
      response = await this.fetch(next)
    }
    return { response, url: current }
  }
}

export const form = (fields: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body: new URLSearchParams(fields).toString(),
})

export type FlowSettings = {
  issuer: string
  clientId: string
  audience: string
  redirectUri: string
}

export type Tokens = {
  access_token: string
  id_token: string
  refresh_token: string
  expires_in: number
  scope: string
}

/** Starts an authorization request; returns the login page and what the callback needs. */
export async function authorize(browser: Browser, s: FlowSettings) {
  const verifier = randomBytes(32).toString('base64url')
  const state = randomBytes(12).toString('base64url')
  const nonce = randomBytes(12).toString('base64url')
  const url = new URL('authorize', s.issuer)
  url.search = new URLSearchParams({
    client_id: s.clientId,
    response_type: 'code',
    response_mode: 'query',
    redirect_uri: s.redirectUri,
    scope: 'openid profile email offline_access',
    audience: s.audience,
    state,
    nonce,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  }).toString()
  const { response, url: pageUrl } = await browser.follow(url.toString(), {}, s.issuer)
  return { page: response, pageUrl, verifier, state, nonce }
}

/** Posts a form on the provider; follows to the app's callback and redeems the code. */
export async function finishAtCallback(
  browser: Browser,
  s: FlowSettings,
  postUrl: string,
  fields: Record<string, string>,
  verifier: string,
) {
  const { response, url } = await browser.follow(postUrl, form(fields), s.issuer)
  if (!url.startsWith(s.redirectUri)) return { response, url, tokens: undefined }
  const callback = new URL(url)
  const code = callback.searchParams.get('code')
  if (!code) return { response, url, tokens: undefined }
  const tokenResponse = await fetch(new URL('oauth/token', s.issuer), {
    ...form({
      grant_type: 'authorization_code',
      client_id: s.clientId,
      code,
      code_verifier: verifier,
      redirect_uri: s.redirectUri,
    }),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: new URL(s.redirectUri).origin,
    },
  })
  const tokens = (await tokenResponse.json()) as Tokens
  return { response, url, callback, tokens }
}

/** The whole sign-in with e-mail and password; returns the provider's tokens. */
export async function signInWithPassword(
  s: FlowSettings,
  email: string,
  password: string,
  browser = new Browser(),
) {
  const { pageUrl, verifier, state, nonce } = await authorize(browser, s)
  const result = await finishAtCallback(
    browser,
    s,
    `${pageUrl}/login`,
    { email, password },
    verifier,
  )
  return { ...result, state, nonce, browser }
}

export async function refresh(s: FlowSettings, refreshToken: string) {
  const response = await fetch(new URL('oauth/token', s.issuer), {
    ...form({ grant_type: 'refresh_token', client_id: s.clientId, refresh_token: refreshToken }),
  })
  return { status: response.status, body: (await response.json()) as Tokens & { error?: string } }
}

/** What startIdentity starts. */
export type Identity = Awaited<ReturnType<typeof startIdentity>>

/**
 * A test app plus the embedded provider on free ports in 5100–5999, sharing one database;
 * `idpOptions` go to the provider (its clock).
 */
export async function startIdentity(
  env: Record<string, string> = {},
  idpOptions: { now?: () => number } = {},
) {
  const { startTestApp } = await import('./helpers.ts')
  const { loadConfig } = await import('../src/config.ts')
  const { startEmbeddedIdp } = await import('../src/idp/index.ts')
  const port = 5100 + Math.floor(Math.random() * 440) * 2
  const fullEnv = {
    HOST: 'localhost',
    PORT: String(port),
    IDP_PORT: String(port + 1),
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/veloptima-test',
    ...env,
  }
  const t = await startTestApp(fullEnv)
  const config = loadConfig(fullEnv)
  const logs: string[] = []
  const start = () => startEmbeddedIdp(config, t.database, (line) => logs.push(line), idpOptions)
  let idp = await start()
  if (!idp) throw new Error('the embedded provider did not start')
  const settings: FlowSettings = {
    issuer: idp.issuer,
    clientId: config.AUTH_CLIENT_ID,
    audience: `${config.publicUrl}/api`,
    redirectUri: `${config.publicUrl}/`,
  }
  return {
    t,
    config,
    settings,
    logs,
    /** Stops and starts the provider again on the same database (a server restart). */
    async restartIdp() {
      await idp?.close()
      idp = await start()
    },
    async close() {
      await idp?.close()
      await t.close()
    },
  }
}
