import type { FastifyInstance } from 'fastify'
import { CLAIMS, user } from '../../plugins/policy.ts'
import { param, uidOf } from '../platform-context.ts'

/** The caller's notifications; results of optimizations (read, label, delete). */
export async function notificationsRoutes(app: FastifyInstance) {
  const auth = user()
  const simulation = user({ claims: [CLAIMS.simulations] })
  const { notifications, results } = app.platform
  app.get('/notifications', auth, async (request) =>
    notifications.list(uidOf(request), request.query),
  )
  app.get('/notifications/:id', auth, async (request) =>
    notifications.get(uidOf(request), param(request, 'id')),
  )
  app.patch('/notifications/:id', auth, async (request) =>
    notifications.patch(uidOf(request), param(request, 'id'), request.body ?? {}),
  )
  app.delete('/notifications/:id', auth, async (request, reply) => {
    await notifications.remove(uidOf(request), param(request, 'id'))
    return reply.status(204).send()
  })

  app.get('/optimizations/:id/results', simulation, async (request) =>
    results.list(uidOf(request), param(request, 'id'), request.query),
  )
  app.get('/optimization-results/:id', simulation, async (request) =>
    results.get(uidOf(request), param(request, 'id')),
  )
  app.patch('/optimization-results/:id', simulation, async (request) =>
    results.patch(uidOf(request), param(request, 'id'), request.body ?? {}),
  )
  app.delete('/optimization-results/:id', simulation, async (request, reply) => {
    await results.remove(uidOf(request), param(request, 'id'))
    return reply.status(204).send()
  })
}
