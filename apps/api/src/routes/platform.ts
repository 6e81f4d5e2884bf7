import type { FastifyInstance } from 'fastify'
import { adminRoutes } from '../admin/endpoint.ts'
import { aeroRoutes } from './aero/routes.ts'
import { aeroPlannerRoutes } from './aero-planner/routes.ts'
import { billingRoutes } from './billing/routes.ts'
import { collectionsRoutes } from './collections/routes.ts'
import { feedbackRoutes } from './feedback/routes.ts'
import { liveRoutes } from './live/routes.ts'
import { notificationsRoutes } from './notifications/routes.ts'
import { createPlatformServices } from './platform-context.ts'
import { teamsRoutes } from './teams/routes.ts'
import { usersRoutes } from './users/routes.ts'
import { weatherHistoryRoutes } from './weather/history.ts'
import { weatherRoutes } from './weather/routes.ts'

/**
 * The data API (register with prefix /api): users, teams, rider profiles, the owned
 * collections, notifications, results, aero runs and blocks, feedback, live updates, admin.
 */
async function platformRoutes(app: FastifyInstance, options: { prefix?: string }) {
  // On the root instance (like fastify-plugin): tests and the admin endpoint reach the services.
  app.decorate('platform', createPlatformServices(app.deps.database.db, app.deps.config.TRIAL_DAYS))
  await app.register(
    async (api) => {
      await api.register(usersRoutes)
      await api.register(teamsRoutes)
      await api.register(collectionsRoutes)
      await api.register(notificationsRoutes)
      await api.register(aeroRoutes)
      await api.register(aeroPlannerRoutes)
      await api.register(feedbackRoutes)
      await api.register(billingRoutes)
      await api.register(liveRoutes)
      await api.register(adminRoutes)
      await api.register(weatherRoutes)
      await api.register(weatherHistoryRoutes)
    },
    { prefix: options.prefix ?? '/api' },
  )
}
;(platformRoutes as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true

export { platformRoutes }
