import type { Server } from 'node:http'
import { idpSecurityHeaders } from './security.ts'
import Provider, { type Configuration, type KoaContextWithOIDC } from 'oidc-provider'
import type { Db } from '@veloptima/db'
import { Accounts } from './accounts.ts'
import { postgresAdapter, sweepExpired } from './adapter.ts'
import { interactionRoutes } from './interactions.ts'
import { loadCookieKeys, loadSigningKeys } from './keys.ts'
import type { Mailer } from './mail.ts'
import { escapeHtml, logoutPage, messagePage } from './pages.ts'

export type IdpSettings = {
  /** `http://HOST:IDP_PORT/`, with the trailing slash the Auth0 SDK expects of `iss`. */
  issuer: string
  clientId: string
  /** The API's identifier: Auth0's `audience`, a resource indicator here. */
  audience: string
  /** Origins of the SPA: its root is the redirect and post-logout URI, and CORS allows it. */
  appOrigins: string[]
  accessTokenTtl?: number
}

export type IdpDeps = {
  db: Db
  mailer: Mailer
  log: (line: string) => void
  /** The sign-in limits' clock (tests move it); Date.now by default. */
  now?: () => number
}

const OIDC_SCOPES = 'openid offline_access profile email'
const ID_TOKEN_CLAIMS = [
  'sub',
  'name',
  'nickname',
  'picture',
  'email',
  'email_verified',
  'org_id',
  'org_name',
]

/** The app's page, where the provider's pages link back to. */
const appUrl = (settings: IdpSettings) => settings.appOrigins[0] ?? '/'

/** The one client (the SPA), and Auth0's routes. */
function clientAndRoutes(settings: IdpSettings): Pick<Configuration, 'clients' | 'routes'> {
  const appRoots = settings.appOrigins.map((o) => `${o}/`)
  return {
    clients: [
      {
        client_id: settings.clientId,
        token_endpoint_auth_method: 'none',
        application_type: 'web',
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        redirect_uris: appRoots,
        post_logout_redirect_uris: appRoots,
      },
    ],
    routes: {
      authorization: '/authorize',
      token: '/oauth/token',
      end_session: '/v2/logout',
      jwks: '/.well-known/jwks.json',
      userinfo: '/userinfo',
      revocation: '/oauth/revoke',
    },
  }
}

/** The claims of an account: in the ID token and userinfo, and in the access token. */
function accountClaims(
  accounts: Accounts,
): Pick<Configuration, 'findAccount' | 'extraTokenClaims'> {
  return {
    async findAccount(_ctx, sub) {
      const account = await accounts.findBySub(sub)
      if (!account) return undefined
      return {
        accountId: sub,
        claims: () => ({
          sub,
          name: account.name || account.email,
          nickname: account.email.split('@')[0],
          picture: account.picture ?? undefined,
          email: account.email,
          email_verified: false,
          org_id: account.orgId ?? undefined,
          org_name: account.orgName ?? undefined,
          updated_at: Math.floor(account.createdAt.getTime() / 1000),
        }),
      }
    },
    async extraTokenClaims(_ctx, token) {
      if (token.kind !== 'AccessToken' || !token.accountId) return undefined
      const account = await accounts.findBySub(token.accountId)
      if (!account) return undefined
      // The API reads the profile from the access token (an Auth0 rule would add it there).
      return {
        permissions: account.permissions,
        email: account.email,
        name: account.name,
        ...(account.picture ? { picture: account.picture } : {}),
        ...(account.orgId ? { org_id: account.orgId, org_name: account.orgName } : {}),
      }
    },
  }
}

/** First-party app: the user never sees a consent screen. */
function implicitGrant(settings: IdpSettings): Configuration['loadExistingGrant'] {
  return async (ctx: KoaContextWithOIDC) => {
    const { client, session } = ctx.oidc
    if (!client || !session?.accountId) return undefined
    const grantId = ctx.oidc.result?.consent?.grantId ?? session.grantIdFor(client.clientId)
    let grant = grantId ? await ctx.oidc.provider.Grant.find(grantId) : undefined
    grant ??= new ctx.oidc.provider.Grant({
      clientId: client.clientId,
      accountId: session.accountId,
    })
    grant.addOIDCScope(OIDC_SCOPES)
    grant.addOIDCClaims(ID_TOKEN_CLAIMS)
    grant.addResourceScope(settings.audience, 'api')
    await grant.save()
    return grant
  }
}

/** `audience` as a resource indicator: RS256 JWT access tokens for the API. */
function resourceIndicators(
  settings: IdpSettings,
  accessTokenTTL: number,
): NonNullable<Configuration['features']>['resourceIndicators'] {
  return {
    enabled: true,
    defaultResource: (ctx, _client, oneOf) => {
      const audience = ctx.oidc.params?.audience
      return typeof audience === 'string' ? audience : (oneOf ?? settings.audience)
    },
    useGrantedResource: () => true,
    getResourceServerInfo: (_ctx, resource) => {
      if (resource !== settings.audience) {
        throw new Error(`unknown audience ${resource}`)
      }
      return {
        scope: 'api',
        audience: settings.audience,
        accessTokenFormat: 'jwt',
        accessTokenTTL,
        jwt: { sign: { alg: 'RS256' } },
      }
    },
  }
}

/** Auth0's `/v2/logout`: the pages asking to sign out and saying it is done. */
function rpInitiatedLogout(
  settings: IdpSettings,
): NonNullable<Configuration['features']>['rpInitiatedLogout'] {
  return {
    enabled: true,
    logoutSource: (ctx, form) => {
      // Auth0 signs out without asking when the app sends its client id and a return
      // address registered for it (oidc-provider refused the request if it is not);
      // anything else, e.g. a bare link on another site, asks first.
      const { client, params } = ctx.oidc
      const fromApp = !!client && typeof params?.post_logout_redirect_uri === 'string'
      ctx.type = 'text/html; charset=utf-8'
      ctx.body = logoutPage(form, { confirm: !fromApp, appUrl: appUrl(settings) })
    },
    postLogoutSuccessSource: (ctx) => {
      ctx.type = 'text/html; charset=utf-8'
      ctx.body = messagePage('Signed out', 'You are signed out of Veloptima.', {
        href: appUrl(settings),
        label: 'Back to Veloptima',
      })
    },
  }
}

/** An error page naming the error (in `data-error`) and linking back to the app. */
function renderError(settings: IdpSettings): Configuration['renderError'] {
  return (ctx, out) => {
    ctx.type = 'text/html; charset=utf-8'
    ctx.body = messagePage(
      'Sign-in problem',
      `${out.error}: ${out.error_description ?? 'the request could not be completed'}`,
      { href: appUrl(settings), label: 'Back to Veloptima' },
    ).replace('<h1>', `<h1 data-error="${escapeHtml(String(out.error))}">`)
  }
}

/**
 * An Auth0-compatible OpenID provider (ARCHITECTURE.md, "Choices and why"): Auth0's routes, PKCE required,
 * `audience` as a resource indicator giving RS256 JWT access tokens with `permissions`,
 * refresh-token rotation, profile claims in the ID token, accounts from `idp_accounts`.
 */
export async function createProvider(settings: IdpSettings, deps: IdpDeps): Promise<Provider> {
  const { db } = deps
  const accounts = new Accounts(db)
  const origins = new Set(settings.appOrigins)
  const accessTokenTTL = settings.accessTokenTtl ?? 600

  const configuration: Configuration = {
    adapter: postgresAdapter(db),
    jwks: await loadSigningKeys(db),
    cookies: { keys: await loadCookieKeys(db) },
    ...clientAndRoutes(settings),
    pkce: { required: () => true },
    clientBasedCORS: (_ctx, origin) => origins.has(origin),
    extraParams: ['audience', 'organization'],
    conformIdTokenClaims: false,
    claims: {
      openid: ['sub', 'org_id', 'org_name'],
      profile: ['name', 'nickname', 'picture', 'updated_at'],
      email: ['email', 'email_verified'],
    },
    ...accountClaims(accounts),
    loadExistingGrant: implicitGrant(settings),
    issueRefreshToken: async (_ctx, client) => client.grantTypeAllowed('refresh_token'),
    rotateRefreshToken: true,
    features: {
      devInteractions: { enabled: false },
      revocation: { enabled: true },
      // The SDK's hidden-frame fallback (prompt=none, response_mode=web_message) when no refresh
      // token is at hand but the provider session lives.
      webMessageResponseMode: { enabled: true, ack: 'individual-draft-01' },
      userinfo: { enabled: true },
      resourceIndicators: resourceIndicators(settings, accessTokenTTL),
      rpInitiatedLogout: rpInitiatedLogout(settings),
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    ttl: {
      AccessToken: accessTokenTTL,
      AuthorizationCode: 60,
      IdToken: 3600,
      Interaction: 3600,
      Session: 14 * 24 * 3600,
      Grant: 14 * 24 * 3600,
      RefreshToken: 14 * 24 * 3600,
    },
    renderError: renderError(settings),
  }

  const provider = new Provider(settings.issuer, configuration)
  provider.use(idpSecurityHeaders(settings))
  provider.use(
    interactionRoutes({
      provider,
      accounts,
      mailer: deps.mailer,
      issuer: settings.issuer,
      appUrl: appUrl(settings),
      log: deps.log,
      db: deps.db,
      ...(deps.now ? { now: deps.now } : {}),
    }),
  )
  return provider
}

/** Starts the provider on its own port; returns its stop function. */
export async function listenIdp(
  provider: Provider,
  port: number,
  host: string,
  db: Db,
): Promise<{ server: Server; close(): Promise<void> }> {
  const server = await new Promise<Server>((resolve, reject) => {
    const s = provider.listen(port, host, () => resolve(s))
    s.once('error', reject)
  })
  const sweep = setInterval(() => void sweepExpired(db).catch(() => undefined), 3600_000)
  sweep.unref()
  return {
    server,
    close: () =>
      new Promise<void>((resolve) => {
        clearInterval(sweep)
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
