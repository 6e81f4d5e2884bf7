// Security headers of the identity provider's pages (sign-in, sign-up, password, sign-out and
// oidc-provider's own responses), set by helmet, the library @fastify/helmet wraps, as Koa
// middleware in front of oidc-provider. The pages' inline <style> and the sign-out page's
// one-line script are allowed by hash; oidc-provider adds the hash of its own inline scripts
// (form_post, web_message) to this policy, and lifts frame-ancestors for the web_message
// response only, the hidden frame of the SDK's silent sign-in.
import type { IncomingMessage, ServerResponse } from 'node:http'
import helmet from 'helmet'
import type { Context, Next } from 'koa'
import { PERMISSIONS_POLICY, sha256Source, sharedHelmetOptions } from '../plugins/security.ts'
import { AUTO_SUBMIT, STYLE } from './pages.ts'

export function idpCsp(appOrigins: string[]) {
  return {
    defaultSrc: ["'none'"],
    scriptSrc: [sha256Source(AUTO_SUBMIT)],
    scriptSrcAttr: ["'none'"],
    styleSrc: [sha256Source(STYLE)],
    imgSrc: ["'self'", 'data:'],
    // Forms post to the provider, whose answers redirect to the app (sign-in, sign-out).
    formAction: ["'self'", ...appOrigins],
    baseUri: ["'none'"],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
  }
}

/** Koa middleware: helmet's headers plus Permissions-Policy on every provider response. */
export function idpSecurityHeaders(options: { issuer: string; appOrigins: string[] }) {
  const https = options.issuer.startsWith('https:')
  const headers = helmet({
    ...sharedHelmetOptions(https),
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        ...idpCsp(options.appOrigins),
        ...(https ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    // The app reads the provider's token endpoint and key set from its own origin.
    crossOriginResourcePolicy: { policy: 'cross-origin' },
  })
  return async (ctx: Context, next: Next) => {
    await new Promise<void>((resolve, reject) =>
      headers(ctx.req as IncomingMessage, ctx.res as ServerResponse, (error?: unknown) =>
        error ? reject(error as Error) : resolve(),
      ),
    )
    ctx.set('permissions-policy', PERMISSIONS_POLICY)
    await next()
  }
}
