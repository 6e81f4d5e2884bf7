import type { Config } from '../config.ts'

export type AuthSettings = {
  /** True when the embedded provider runs (no AUTH_DOMAIN). */
  embedded: boolean
  /** What the SPA gives the Auth0 SDK as `domain` (scheme kept: http in embedded mode). */
  domain: string
  /** The exact `iss` of the provider's tokens (with the trailing slash). */
  issuer: string
  clientId: string
  audience: string
  jwksUrl: string
  /**
   * Origins of the SPA: the app, and in development (NODE_ENV=development) Vite's dev server on
   * the same host. They are the provider's redirect and sign-out return addresses, its CORS
   * origins and its pages' form-action.
   */
  appOrigins: string[]
}

/** Vite's dev server (apps/web/vite.config.ts), trusted by the provider in development only. */
export const VITE_DEV_PORT = 5173

/** Identity settings from the configuration; the defaults give the embedded provider. */
export function authSettings(config: Config): AuthSettings {
  const embedded = !config.AUTH_DOMAIN
  // The embedded provider is reached at its issuer when one is set (behind a balancer,
  // docs/deployment.md), else at this process's own IDP_PORT.
  const domain = (
    config.AUTH_DOMAIN ??
    config.AUTH_ISSUER ??
    `http://${config.HOST}:${config.IDP_PORT}`
  ).replace(/\/$/, '')
  const issuer = config.AUTH_ISSUER ?? `${domain}/`
  const origin = new URL(config.publicUrl).origin
  return {
    embedded,
    domain,
    issuer,
    clientId: config.AUTH_CLIENT_ID,
    audience: config.AUTH_AUDIENCE ?? `${config.publicUrl}/api`,
    jwksUrl: config.AUTH_JWKS_URL ?? `${issuer.replace(/\/?$/, '/')}.well-known/jwks.json`,
    appOrigins: [
      ...new Set([
        origin,
        ...(config.NODE_ENV === 'development' ? [`http://${config.HOST}:${VITE_DEV_PORT}`] : []),
      ]),
    ],
  }
}
