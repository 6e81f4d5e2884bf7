// The weather a ride was ridden in (docs/engine/calibration.md): the request (a few places along a recorded ride
// and its hours), checked with messages naming the field, and the answer: the hourly wind and air
// at those places as the engine's Forecast (what `CalibrationInput.weather` takes), with a label
// saying which weather it is, or `unavailable` with the reason (the caller keeps its manual air).
import type { CourseWeather, CoursePoint } from './source.ts'

/** At most this many places per request (one batched provider request). */
export const MAX_HISTORY_POINTS = 12
/** Longest span of hours asked at once (s): a ride of two days is two requests. */
export const MAX_HISTORY_SPAN_S = 48 * 3600

export interface HistoryRequest {
  points: CoursePoint[]
  fromS: number
  toS: number
}

/** Checks the body `{points: [{lat, lon, distance_m}], from, to}`; throws Error(message). */
export function parseHistoryRequest(body: unknown, nowS: number): HistoryRequest {
  const fail = (field: string, expected: string, got: unknown): never => {
    throw new Error(`${field}: expected ${expected}, got ${JSON.stringify(got) ?? 'nothing'}`)
  }
  if (!body || typeof body !== 'object' || Array.isArray(body))
    fail('body', '{points, from, to}', body)
  const b = body as Record<string, unknown>
  const list = b.points
  if (!Array.isArray(list) || list.length < 1 || list.length > MAX_HISTORY_POINTS)
    fail('points', `1 to ${MAX_HISTORY_POINTS} places {lat, lon, distance_m}`, list)
  const points: CoursePoint[] = []
  ;(list as unknown[]).forEach((p, i) => {
    const o = (p ?? {}) as Record<string, unknown>
    const num = (k: string, lo: number, hi: number) => {
      const v = o[k]
      if (typeof v !== 'number' || !Number.isFinite(v) || v < lo || v > hi)
        fail(`points[${i}].${k}`, `a number from ${lo} to ${hi}`, v)
      return v as number
    }
    const q = {
      latDeg: num('lat', -90, 90),
      lonDeg: num('lon', -180, 180),
      distanceM: num('distance_m', 0, 2_000_000),
    }
    if (i > 0 && !(q.distanceM > points[i - 1]!.distanceM))
      fail(
        `points[${i}].distance_m`,
        `more than the place before (${points[i - 1]!.distanceM})`,
        q.distanceM,
      )
    points.push(q)
  })
  const time = (k: 'from' | 'to') => {
    const v = b[k]
    const s = typeof v === 'string' ? Date.parse(v) / 1000 : NaN
    if (!Number.isFinite(s)) fail(k, 'a date and time (ISO 8601, e.g. 2019-02-17T06:26:44Z)', v)
    return s
  }
  const fromS = time('from')
  const toS = time('to')
  if (!(toS > fromS)) fail('to', `a time after from (${b.from as string})`, b.to)
  if (toS - fromS > MAX_HISTORY_SPAN_S) fail('to', 'at most 48 hours after from', b.to)
  if (toS > nowS) fail('to', 'a time in the past (the ride is over)', b.to)
  return { points, fromS, toS }
}

const hourUtc = (s: number) => new Date(s * 1000).toISOString().slice(0, 16).replace('T', ' ')
const place = (p: CoursePoint) =>
  `${Math.abs(p.latDeg).toFixed(2)}° ${p.latDeg >= 0 ? 'N' : 'S'} ${Math.abs(p.lonDeg).toFixed(2)}° ${p.lonDeg >= 0 ? 'E' : 'W'}`

/** "Open-Meteo archive, 31.25° N 121.42° E, 2019-02-17 06:00 – 13:00 UTC". */
export function historyLabel(req: HistoryRequest, w: CourseWeather): string {
  const kind = w.kind === 'archive' ? 'archive' : 'recent forecast'
  const first = Math.floor(req.fromS / 3600) * 3600
  const last = Math.ceil(req.toS / 3600) * 3600
  return `Open-Meteo ${kind}, ${place(req.points[0]!)}, ${hourUtc(first)} – ${hourUtc(last).slice(11)} UTC`
}

/** The answer of POST /api/weather/history when the weather was had. */
export function historyAnswer(req: HistoryRequest, w: CourseWeather) {
  return {
    status: 'used' as const,
    kind: w.kind,
    source: w.forecast.source ?? 'open-meteo',
    label: historyLabel(req, w),
    fetched_at: new Date(w.fetchedAtS * 1000).toISOString(),
    cached_points: w.cachedPoints,
    fetched_points: w.fetchedPoints,
    /** The engine's Forecast (camelCase, SI, 10 m wind): `CalibrationInput.weather.forecast`. */
    forecast: {
      source: w.forecast.source,
      points: w.forecast.points.map((p) => ({
        distanceM: p.distanceM,
        elevationM: p.elevationM,
        timeS: Array.from(p.timeS),
        windSpeedMps: Array.from(p.windSpeedMps),
        windFromDeg: Array.from(p.windFromDeg),
        ...(p.gustMps ? { gustMps: Array.from(p.gustMps) } : {}),
        temperatureC: Array.from(p.temperatureC),
        relativeHumidity: Array.from(p.relativeHumidity),
        surfacePressurePa: Array.from(p.surfacePressurePa),
      })),
    },
  }
}
