// The forecast wind along a course for a start date and time (the wheel tool's "use the forecast
// for my course and date"): per stretch between the forecast points, the wind at rider height
// and its direction, at the hour a steady rider reaches the stretch; or `unavailable` with the
// reason, and the caller keeps the typed wind.
import type { FastifyInstance } from 'fastify'
import type { CourseTrack } from '@veloptima/db'
import { conditionsAt, windHeightFactor } from '@veloptima/engine'
import { badRequest } from '../../errors.ts'
import { courseSpec } from '../../services/collection-specs.ts'
import { CollectionService } from '../../services/collections.ts'
import { WeatherUnavailable } from '../../weather/errors.ts'
import { NO_POSITIONS, positionedTrack } from '../../weather/race-day.ts'
import { pointsAlong, positionAt } from '../../weather/track-points.ts'
import { WeatherSource } from '../../weather/source.ts'
import { user } from '../../plugins/policy.ts'
import { param, uidOf } from '../platform-context.ts'

/** The steady speed that places the rider on each stretch in time (m/s, 36 km/h). */
export const ASSUMED_SPEED_MPS = 10
const START = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/

const round = (v: number, d = 2) => Math.round(v * 10 ** d) / 10 ** d

function altitudeAt(track: CourseTrack, distanceM: number): number {
  const d = track.distance
  let k = 0
  while (k < d.length - 1 && d[k + 1]! <= distanceM) k++
  return track.ele?.[k] ?? 0
}

/** The forecast wind along `track` for a local start `start` (YYYY-MM-DDTHH:mm at the course). */
export async function courseWind(source: WeatherSource, track: CourseTrack, start: string) {
  const local = Date.parse(`${start}:00Z`) / 1000
  const points = pointsAlong(track)
  const total = track.distance[track.distance.length - 1]!
  const rideS = total / ASSUMED_SPEED_MPS
  // The local start ± the widest zone offsets, plus the ride and an hour.
  const weather = await source.alongCourse(
    points,
    local - 14 * 3600,
    local + 14 * 3600 + rideS + 3600,
  )
  const startS = local - weather.utcOffsetS
  const factor = windHeightFactor()
  const stretches = []
  let east = 0
  let north = 0
  let speed10 = 0
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i]!.distanceM
    const b = points[i + 1]!.distanceM
    if (!(b > a)) continue
    const mid = (a + b) / 2
    const timeS = startS + mid / ASSUMED_SPEED_MPS
    const c = conditionsAt(weather.forecast, mid, timeS, altitudeAt(track, mid))
    const w = (b - a) / total
    speed10 += w * c.windSpeedMps
    east += w * c.windSpeedMps * Math.sin((c.windFromDeg * Math.PI) / 180)
    north += w * c.windSpeedMps * Math.cos((c.windFromDeg * Math.PI) / 180)
    const at = positionAt(track, mid)
    stretches.push({
      start_m: round(a, 0),
      end_m: round(b, 0),
      // Where the stretch's middle is (for a map arrow).
      lat: round(at.latDeg, 5),
      lon: round(at.lonDeg, 5),
      time: new Date(timeS * 1000).toISOString(),
      wind_speed_mps: round(c.windSpeedMps * factor),
      wind_speed_10m_mps: round(c.windSpeedMps),
      wind_from_deg: round(c.windFromDeg, 0) % 360,
      gust_mps: Number.isFinite(c.gustMps) ? round(c.gustMps) : null,
    })
  }
  return {
    status: 'used' as const,
    start,
    start_utc: new Date(startS * 1000).toISOString(),
    issued_at: new Date(weather.fetchedAtS * 1000).toISOString(),
    source: weather.forecast.source ?? 'open-meteo',
    kind: weather.kind,
    wind_height_factor: round(factor, 3),
    assumed_speed_mps: ASSUMED_SPEED_MPS,
    stretches,
    mean: {
      wind_speed_10m_mps: round(speed10),
      wind_speed_mps: round(speed10 * factor),
      wind_from_deg: round(((Math.atan2(east, north) * 180) / Math.PI + 360) % 360, 0) % 360,
    },
  }
}

export async function weatherRoutes(app: FastifyInstance) {
  const db = app.deps.database.db
  // WEATHER_PROVIDER and WEATHER_URL from the app's parsed config (read once at startup).
  const source = new WeatherSource(db, app.deps.config)
  const courseService = new CollectionService(db, courseSpec)
  app.get('/weather/course/:courseId', user(), async (request) => {
    const id = param(request, 'courseId')
    // Visibility as GET /api/courses/:id: 404 for a course the caller cannot see.
    await courseService.get(uidOf(request), id)
    const start = (request.query as { start?: unknown }).start
    if (
      typeof start !== 'string' ||
      !START.test(start) ||
      !Number.isFinite(Date.parse(`${start}:00Z`))
    ) {
      throw badRequest(
        `start: expected a local date and time YYYY-MM-DDTHH:mm, got ${String(start)}`,
      )
    }
    const unavailable = (reason: string, message: string) => ({
      status: 'unavailable' as const,
      reason,
      message,
      start,
    })
    const track = await positionedTrack(db, id)
    if (!track) return unavailable(NO_POSITIONS.reason, NO_POSITIONS.message)
    try {
      return await courseWind(source, track, start)
    } catch (error) {
      const e = error as Error
      if (error instanceof WeatherUnavailable) return unavailable(error.reason, error.message)
      if (e.name === 'EngineInputError') return unavailable('not_covered', e.message)
      request.log.warn({ err: e }, 'course weather failed')
      return unavailable('error', `the weather could not be had (${e.message.slice(0, 200)})`)
    }
  })
}
