import type { FastifyInstance } from 'fastify'
import { CLAIMS, user } from '../../plugins/policy.ts'
import { param, uidOf } from '../platform-context.ts'

/** A service of the caller's items, each read, changed and deleted by its id. */
type ItemService = {
  get(uid: string, id: string): Promise<unknown>
  patch(uid: string, id: string, body: unknown): Promise<unknown>
  remove(uid: string, id: string): Promise<void>
}

/** GET, PATCH and DELETE (204) of one item at `path`, whose last segment is `:id`. */
function itemRoutes(
  app: FastifyInstance,
  path: string,
  policy: ReturnType<typeof user>,
  items: ItemService,
) {
  app.get(path, policy, async (request) => items.get(uidOf(request), param(request, 'id')))
  app.patch(path, policy, async (request) =>
    items.patch(uidOf(request), param(request, 'id'), request.body ?? {}),
  )
  app.delete(path, policy, async (request, reply) => {
    await items.remove(uidOf(request), param(request, 'id'))
    return reply.status(204).send()
  })
}

/** The caller's notifications; results of optimizations (read, label, delete). */
export async function notificationsRoutes(app: FastifyInstance) {
  const auth = user()
  const simulation = user({ claims: [CLAIMS.simulations] })
  const { notifications, results } = app.platform
  app.get('/notifications', auth, async (request) =>
    notifications.list(uidOf(request), request.query),
  )
  itemRoutes(app, '/notifications/:id', auth, notifications)

  app.get('/optimizations/:id/results', simulation, async (request) =>
    results.list(uidOf(request), param(request, 'id'), request.query),
  )
  itemRoutes(app, '/optimization-results/:id', simulation, results)
}
