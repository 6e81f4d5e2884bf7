import type { FastifyPluginAsync } from 'fastify'
import { authSettings } from '../../idp/settings.ts'
import { open } from '../../plugins/policy.ts'

/** `GET /api/public-config` (public): what the SPA needs before anyone signs in. */
export const publicConfigRoutes: FastifyPluginAsync = async (app) => {
  const { config } = app.deps
  const auth = authSettings(config)
  const body = {
    auth: { domain: auth.domain, client_id: auth.clientId, audience: auth.audience },
    support_url: config.SUPPORT_URL,
    feedback_survey_url: config.FEEDBACK_SURVEY_URL ?? null,
    map_tile_url: config.MAP_TILE_URL,
    terms_url: config.TERMS_URL,
    privacy_url: config.PRIVACY_URL,
  }
  app.get(
    '/public-config',
    open('what the web app needs before sign-in'),
    async (_request, reply) => {
      reply.header('cache-control', 'no-cache')
      return body
    },
  )
}
