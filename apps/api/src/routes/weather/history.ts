// POST /api/weather/history {points: [{lat, lon, distance_m}], from, to}: the hourly wind and air
// a recorded ride was ridden in, at a few places along it (Open-Meteo's archive through the
// cached WeatherSource), for the calibration from a ride. Signed-in users only, like the course
// forecast. A bad body is 400 naming the field; weather that cannot be had is 200
// `{status: 'unavailable', reason, message}` and the caller keeps its manual air.
import type { FastifyInstance } from 'fastify'
import { badRequest } from '../../errors.ts'
import { WeatherUnavailable } from '../../weather/errors.ts'
import { historyAnswer, parseHistoryRequest } from '../../weather/history.ts'
import type { HistoryRequest } from '../../weather/history.ts'
import { WeatherSource } from '../../weather/source.ts'
import { user } from '../../plugins/policy.ts'

export async function weatherHistoryRoutes(app: FastifyInstance) {
  const source = new WeatherSource(app.deps.database.db, app.deps.config)
  app.post('/weather/history', user(), async (request) => {
    let req: HistoryRequest
    try {
      req = parseHistoryRequest(request.body, Date.now() / 1000)
    } catch (e) {
      throw badRequest((e as Error).message)
    }
    const unavailable = (reason: string, message: string) => ({
      status: 'unavailable' as const,
      reason,
      message,
    })
    try {
      return historyAnswer(req, await source.alongCourse(req.points, req.fromS, req.toS))
    } catch (error) {
      if (error instanceof WeatherUnavailable) return unavailable(error.reason, error.message)
      const e = error as Error
      request.log.warn({ err: e }, 'ride weather failed')
      return unavailable('error', `the weather could not be had (${e.message.slice(0, 200)})`)
    }
  })
}
