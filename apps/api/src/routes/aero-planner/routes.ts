// GET /api/aero/planner: the aero test planner before a test (docs/engine/aero.md, "Test
// planner"): runs per configuration from the caller's sessions, the day's calmest hours.
import type { FastifyInstance } from 'fastify'
import { AeroPlannerService } from '../../services/aero-planner.ts'
import { WeatherSource } from '../../weather/source.ts'
import { CLAIMS, user } from '../../plugins/policy.ts'
import { uidOf } from '../platform-context.ts'

export async function aeroPlannerRoutes(app: FastifyInstance) {
  const db = app.deps.database.db
  // WEATHER_PROVIDER and WEATHER_URL from the app's parsed config (read once at startup).
  const config = app.deps.config
  const weather = config.WEATHER_PROVIDER === 'none' ? null : new WeatherSource(db, config)
  const planner = new AeroPlannerService(db, weather, app.log)
  app.get('/aero/planner', user({ claims: [CLAIMS.aero] }), async (request) =>
    planner.plan(uidOf(request), request.query),
  )
}
