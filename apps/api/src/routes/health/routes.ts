import type { FastifyPluginAsync } from 'fastify'
import { authSettings } from '../../idp/settings.ts'
import { open } from '../../plugins/policy.ts'
import { checkReadiness } from './readiness.ts'

export const healthRoutes: FastifyPluginAsync = async (app) => {
  /** Liveness: the process answers. */
  app.get('/health', open('liveness for load balancers'), async () => ({ status: 'ok' }))

  /**
   * Readiness: what a request needs is there — the database reachable and migrated, the file
   * storage (the S3 bucket or the local directory) usable, the identity provider's key set
   * reachable. 503 names what is missing (`missing`) and says why (`problems`).
   */
  app.get('/ready', open('readiness for load balancers'), async (_request, reply) => {
    const { ready, body } = await checkReadiness({
      database: app.deps.database,
      storage: app.files.storage,
      jwksUrl: authSettings(app.deps.config).jwksUrl,
    })
    return reply.status(ready ? 200 : 503).send(body)
  })
}
