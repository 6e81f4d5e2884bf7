import rateLimit from '@fastify/rate-limit'
import type { FastifyPluginAsync } from 'fastify'
import type { JWTVerifyGetKey } from 'jose'
import { z } from 'zod'
import { AppError, badRequest } from '../../errors.ts'
import { authSettings } from '../../idp/settings.ts'
import { createAccessTokenVerifier, remoteKeys } from '../../services/provider-tokens.ts'
import { exchangeAccessToken } from './exchange.ts'
import { storedRateLimitStore } from './rate-limit-store.ts'

const body = z.object({ accessToken: z.string().min(1).max(16_384) })

export type AuthRoutesOptions = { keys?: JWTVerifyGetKey }

/** `POST /api/auth/custom-token` (§7): the provider's access token → the app's session token. */
export const authRoutes: FastifyPluginAsync<AuthRoutesOptions> = async (app, options) => {
  const { config, database, sessionTokens } = app.deps
  const settings = authSettings(config)
  const verifyAccessToken = createAccessTokenVerifier({
    issuer: settings.issuer,
    audience: settings.audience,
    keys: options.keys ?? remoteKeys(settings.jwksUrl),
  })
  const userinfo = async (accessToken: string) => {
    try {
      const response = await fetch(`${settings.domain}/userinfo`, {
        headers: { authorization: `Bearer ${accessToken}` },
        signal: AbortSignal.timeout(10_000),
      })
      if (!response.ok) return {}
      return (await response.json()) as { email?: string; name?: string; picture?: string }
    } catch {
      return {}
    }
  }

  // Counted in the database, so that every API process behind the balancer counts the same
  // requests of an address (docs/deployment.md).
  await app.register(rateLimit, {
    global: false,
    store: storedRateLimitStore(database.db),
    errorResponseBuilder: (_request, context) =>
      new AppError(
        'too-many-requests',
        `Too many sign-in attempts. Try again in ${Math.ceil(context.ttl / 1000)} seconds.`,
      ),
  })

  app.post(
    '/auth/custom-token',
    {
      config: {
        rateLimit: { max: 60, timeWindow: '1 minute' },
        policy: { access: 'public', why: 'the identity provider’s access token in the body' },
      },
    },
    async (request) => {
      const parsed = body.safeParse(request.body)
      if (!parsed.success) {
        throw badRequest('Send {"accessToken": "…"}: the access token of the identity provider.')
      }
      return exchangeAccessToken(
        {
          db: database.db,
          verifyAccessToken,
          sessionTokens,
          ttlSeconds: config.SESSION_TOKEN_TTL_SECONDS,
          userinfo,
        },
        parsed.data.accessToken,
      )
    },
  )
}
