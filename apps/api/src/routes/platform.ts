import type { FastifyInstance } from 'fastify'
import { adminRoutes } from '../admin/endpoint.ts'
import { aeroRoutes } from './aero/routes.ts'
import { collectionsRoutes } from './collections/routes.ts'
import { feedbackRoutes } from './feedback/routes.ts'
import { liveRoutes } from './live/routes.ts'
import { notificationsRoutes } from './notifications/routes.ts'
import { createPlatformServices } from './platform-context.ts'
import { teamsRoutes } from './teams/routes.ts'
import { usersRoutes } from './users/routes.ts'

/**
 * The data API (register with prefix /api): users, teams, rider profiles, the owned
 * collections, notifications, results, aero runs and blocks, feedback, live updates, admin.
 */
export async function platformRoutes(app: FastifyInstance) {
  app.decorate('platform', createPlatformServices(app.deps.database.db))
  await app.register(usersRoutes)
  await app.register(teamsRoutes)
  await app.register(collectionsRoutes)
  await app.register(notificationsRoutes)
  await app.register(aeroRoutes)
  await app.register(feedbackRoutes)
  await app.register(liveRoutes)
  await app.register(adminRoutes)
}
