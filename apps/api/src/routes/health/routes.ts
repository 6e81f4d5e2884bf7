import type { FastifyPluginAsync } from 'fastify'
import { open } from '../../plugins/policy.ts'

export const healthRoutes: FastifyPluginAsync = async (app) => {
  /** Liveness: the process answers. */
  app.get('/health', open('liveness for load balancers'), async () => ({ status: 'ok' }))

  /** Readiness: the database is reachable and every migration is applied. */
  app.get('/ready', open('readiness for load balancers'), async (_request, reply) => {
    const { reachable, migrated } = await app.deps.database.check()
    const ready = reachable && migrated
    return reply.status(ready ? 200 : 503).send({
      status: ready ? 'ready' : 'not-ready',
      database: { driver: app.deps.database.driver, reachable, migrated },
    })
  })
}
