// A local stand-in for Open-Meteo's forecast and archive APIs, for tests and e2e runs (this
// machine never reaches the internet): it answers in the provider's documented format (one
// object for one point, an array for several; hourly parallel arrays; `wind_speed_unit`,
// `timeformat`, `start_date`/`end_date`; HTTP 400 `{error: true, reason}`), and can be told to
// misbehave (nulls, 429, slow answers, a short time array, a body that is not JSON).
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export type StandInMode =
  | { kind: 'ok' }
  | { kind: 'nulls' } // every third hour's temperature is null
  | { kind: 'rate-limited'; times: number } // 429 for the next `times` requests, then ok
  | { kind: 'server-error' }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'not-json' }
  | { kind: 'short' } // the time array stops halfway
  | { kind: 'wrong-count' } // one object fewer than points asked

const KNOWN = new Set([
  'wind_speed_10m',
  'wind_direction_10m',
  'wind_gusts_10m',
  'temperature_2m',
  'relative_humidity_2m',
  'surface_pressure',
  'pressure_msl',
  'dew_point_2m',
])

/**
 * The stand-in's weather, a smooth function of place and time: 10 m wind speed (m/s),
 * direction (° from), temperature (°C), humidity (%), cell elevation (m), surface pressure (hPa).
 */
export function standInWeather(lat: number, lon: number, timeS: number) {
  const h = timeS / 3600
  const elevation = Math.round(200 + 100 * Math.sin(lat) + 50 * Math.cos(lon))
  return {
    windSpeedMps: 4 + 2 * Math.sin(h / 5 + lon),
    windFromDeg: (((200 + 40 * Math.sin(h / 7 + lat)) % 360) + 360) % 360,
    gustMps: 7 + 3 * Math.sin(h / 5 + lon),
    temperatureC: 15 + 5 * Math.sin((2 * Math.PI * (h - 9)) / 24),
    humidityPct: 60 + 20 * Math.cos(h / 3),
    elevationM: elevation,
    surfacePressureHpa: 1013.25 * Math.pow(1 - (0.0065 * elevation) / 288.15, 5.2559),
  }
}

export interface StandIn {
  url: string
  /** Every request's path and query, in order. */
  requests: URL[]
  mode: StandInMode
  close(): Promise<void>
}

const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d

/** Starts the stand-in on 127.0.0.1 (`port` 0: any free port). */
export async function startOpenMeteoStandIn(port = 0): Promise<StandIn> {
  const state: StandIn = { url: '', requests: [], mode: { kind: 'ok' }, close: async () => {} }
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in')
    state.requests.push(url)
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' })
      res.end(JSON.stringify(body))
    }
    const mode = state.mode
    if (mode.kind === 'rate-limited' && mode.times > 0) {
      mode.times--
      return send(429, {
        error: true,
        reason: 'Hourly API request limit exceeded. Please try again in the next hour.',
      })
    }
    if (mode.kind === 'server-error') return send(502, { error: true, reason: 'Bad gateway' })
    if (mode.kind === 'not-json') {
      res.writeHead(200, { 'content-type': 'text/html' })
      return res.end('<html><body>Service temporarily unavailable</body></html>')
    }
    if (url.pathname !== '/v1/forecast' && url.pathname !== '/v1/archive') {
      return send(404, { error: true, reason: 'Not Found' })
    }
    const lats = (url.searchParams.get('latitude') ?? '').split(',').map(Number)
    const lons = (url.searchParams.get('longitude') ?? '').split(',').map(Number)
    if (lats.length !== lons.length) {
      return send(400, {
        error: true,
        reason: "Parameter 'latitude' and 'longitude' must have the same number of elements",
      })
    }
    if (
      lats.some((v) => !Number.isFinite(v) || Math.abs(v) > 90) ||
      lons.some((v) => !Number.isFinite(v) || Math.abs(v) > 180)
    ) {
      return send(400, {
        error: true,
        reason: 'Latitude must be in range of -90 to 90°. Given: ' + lats.join(',') + '.',
      })
    }
    const hourly = (url.searchParams.get('hourly') ?? '').split(',').filter(Boolean)
    const unknown = hourly.find((v) => !KNOWN.has(v))
    if (unknown) {
      return send(400, {
        error: true,
        reason: `Cannot initialize WeatherVariable from invalid String value ${unknown} for key hourly`,
      })
    }
    const unit = url.searchParams.get('wind_speed_unit') ?? 'kmh'
    if (!['kmh', 'ms', 'mph', 'kn'].includes(unit)) {
      return send(400, {
        error: true,
        reason: `Cannot initialize WindSpeedUnit from invalid String value ${unit} for key wind_speed_unit`,
      })
    }
    const unix = url.searchParams.get('timeformat') === 'unixtime'
    const start = url.searchParams.get('start_date')
    const end = url.searchParams.get('end_date')
    if (!start || !end) {
      return send(400, {
        error: true,
        reason: 'Parameter start_date and end_date must both be set',
      })
    }
    // timezone=auto: the place's zone (here whole hours from the longitude); dates are local.
    const zone = url.searchParams.get('timezone') ?? 'GMT'
    const offsetOf = (lon: number) => (zone === 'auto' ? Math.round(lon / 15) * 3600 : 0)
    const offset0 = offsetOf(lons[0]!)
    const t0 = Date.parse(`${start}T00:00:00Z`) / 1000 - offset0
    const t1 = Date.parse(`${end}T23:00:00Z`) / 1000 - offset0
    if (!Number.isFinite(t0) || !Number.isFinite(t1) || t1 < t0) {
      return send(400, { error: true, reason: `Invalid date range ${start} to ${end}` })
    }
    const times: number[] = []
    for (let t = t0; t <= t1; t += 3600) times.push(t)
    if (mode.kind === 'short') times.length = Math.floor(times.length / 2)
    const speedFactor = { kmh: 3.6, ms: 1, mph: 2.236936, kn: 1.943844 }[unit as 'kmh']
    const speedUnit = { kmh: 'km/h', ms: 'm/s', mph: 'mp/h', kn: 'kn' }[unit as 'kmh']
    const points = lats.map((lat, j) => {
      // The model's grid cell (0.1° here), not the asked position.
      const cellLat = round(Math.round(lat * 10) / 10, 4)
      const cellLon = round(Math.round(lons[j]! * 10) / 10, 4)
      const w = times.map((t) => standInWeather(cellLat, cellLon, t))
      const cols: Record<string, (number | string | null)[]> = {
        time: unix ? times : times.map((t) => new Date(t * 1000).toISOString().slice(0, 16)),
      }
      const units: Record<string, string> = { time: unix ? 'unixtime' : 'iso8601' }
      for (const v of hourly) {
        const value = (x: ReturnType<typeof standInWeather>): number => {
          switch (v) {
            case 'wind_speed_10m':
              return round(x.windSpeedMps * speedFactor, 1)
            case 'wind_gusts_10m':
              return round(x.gustMps * speedFactor, 1)
            case 'wind_direction_10m':
              return Math.round(x.windFromDeg)
            case 'temperature_2m':
              return round(x.temperatureC, 1)
            case 'relative_humidity_2m':
              return Math.round(x.humidityPct)
            case 'surface_pressure':
              return round(x.surfacePressureHpa, 1)
            case 'pressure_msl':
              return 1013.2
            default:
              return round(x.temperatureC - 5, 1)
          }
        }
        cols[v] = w.map((x, k) =>
          mode.kind === 'nulls' && v === 'temperature_2m' && k % 3 === 2 ? null : value(x),
        )
        units[v] =
          v.startsWith('wind_speed') || v.startsWith('wind_gusts')
            ? speedUnit
            : v === 'wind_direction_10m'
              ? '°'
              : v.startsWith('temp') || v.startsWith('dew')
                ? '°C'
                : v.startsWith('relative')
                  ? '%'
                  : 'hPa'
      }
      return {
        latitude: cellLat,
        longitude: cellLon,
        generationtime_ms: 0.1,
        utc_offset_seconds: offsetOf(cellLon),
        timezone: zone === 'auto' ? 'Etc/Stand-in' : 'GMT',
        timezone_abbreviation: zone === 'auto' ? 'LOC' : 'GMT',
        elevation: w[0]?.elevationM ?? standInWeather(cellLat, cellLon, t0).elevationM,
        hourly_units: units,
        hourly: cols,
      }
    })
    const body =
      points.length === 1 ? points[0] : mode.kind === 'wrong-count' ? points.slice(1) : points
    if (mode.kind === 'slow') setTimeout(() => send(200, body), mode.delayMs)
    else send(200, body)
  })
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()))
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  state.close = () =>
    new Promise<void>((r) => {
      server.closeAllConnections()
      server.close(() => r())
    })
  return state
}
