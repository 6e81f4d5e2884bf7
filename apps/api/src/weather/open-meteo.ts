// Open-Meteo's forecast and historical (archive) APIs: several points per request (comma-separated
// latitude/longitude lists; the answer is then an array in the same order), hourly variables in
// SI-friendly units (wind_speed_unit=ms, timeformat=unixtime, timezone=GMT), retried with backoff
// on network errors, timeouts, 429 and 5xx. Everything the provider sends is checked: a malformed
// answer is an error, an hour with a missing required value is left out (never cached).
import type { WeatherCacheValues } from '@veloptima/db'
import { WeatherUnavailable } from './errors.ts'

export type WeatherKind = 'forecast' | 'archive'

export const OPEN_METEO_HOSTS: Record<WeatherKind, string> = {
  forecast: 'https://api.open-meteo.com',
  archive: 'https://archive-api.open-meteo.com',
}

export const HOURLY_VARIABLES = [
  'wind_speed_10m',
  'wind_direction_10m',
  'wind_gusts_10m',
  'temperature_2m',
  'relative_humidity_2m',
  'surface_pressure',
] as const

export interface LatLon {
  latDeg: number
  lonDeg: number
}

export interface HourlySeries {
  /** Terrain height of the model's grid cell (m). */
  elevationM: number
  /** The place's offset from UTC (s). */
  utcOffsetS: number
  /** Hour start (unix s) → values in SI units; hours with a missing required value are absent. */
  hours: Map<number, WeatherCacheValues>
}

export interface OpenMeteoOptions {
  /** Base URL serving /v1/forecast and /v1/archive (WEATHER_URL); default Open-Meteo's hosts. */
  baseUrl?: string | undefined
  /** Per-request time limit (ms), default 10,000. */
  timeoutMs?: number
  /** Attempts in all (first + retries), default 3. */
  attempts?: number
  /** First backoff (ms), doubled each retry; default 500. */
  backoffMs?: number
  fetch?: typeof fetch
}

export function requestUrl(
  kind: WeatherKind,
  points: readonly LatLon[],
  startDate: string,
  endDate: string,
  baseUrl?: string,
): string {
  const base = (baseUrl ?? OPEN_METEO_HOSTS[kind]).replace(/\/$/, '')
  const q = new URLSearchParams({
    latitude: points.map((p) => p.latDeg.toFixed(4)).join(','),
    longitude: points.map((p) => p.lonDeg.toFixed(4)).join(','),
    hourly: HOURLY_VARIABLES.join(','),
    wind_speed_unit: 'ms',
    timeformat: 'unixtime',
    // The place's own zone: dates are local there and the answer says its offset from UTC (times
    // stay unix seconds, so nothing is ambiguous).
    timezone: 'auto',
    start_date: startDate,
    end_date: endDate,
  })
  return `${base}/v1/${kind}?${q.toString()}`
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** One hourly request for all `points`; the series come back in the same order. */
export async function fetchHourly(
  kind: WeatherKind,
  points: readonly LatLon[],
  startDate: string,
  endDate: string,
  options: OpenMeteoOptions = {},
): Promise<HourlySeries[]> {
  const url = requestUrl(kind, points, startDate, endDate, options.baseUrl)
  const attempts = options.attempts ?? 3
  const doFetch = options.fetch ?? fetch
  let last: WeatherUnavailable | null = null
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (attempt > 0) await sleep((options.backoffMs ?? 500) * 2 ** (attempt - 1))
    let res: Response
    let text: string
    try {
      res = await doFetch(url, { signal: AbortSignal.timeout(options.timeoutMs ?? 10_000) })
      text = await res.text()
    } catch (err) {
      const e = err as Error
      const timedOut = e.name === 'TimeoutError' || e.name === 'AbortError'
      last = new WeatherUnavailable(
        'offline',
        timedOut
          ? `weather provider did not answer within ${options.timeoutMs ?? 10_000} ms`
          : `weather provider unreachable (${e.message}${(e.cause as Error | undefined)?.message ? `: ${(e.cause as Error).message}` : ''})`,
      )
      continue
    }
    if (res.status === 429) {
      last = new WeatherUnavailable(
        'rate_limited',
        'weather provider rate limit reached (HTTP 429)',
      )
      continue
    }
    if (res.status >= 500) {
      last = new WeatherUnavailable(
        'provider_error',
        `weather provider failed (HTTP ${res.status})`,
      )
      continue
    }
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      throw new WeatherUnavailable(
        'malformed',
        `weather provider answered HTTP ${res.status} with a body that is not JSON: ${JSON.stringify(text.slice(0, 80))}`,
      )
    }
    if (res.status !== 200) {
      const reason =
        body &&
        typeof body === 'object' &&
        typeof (body as { reason?: unknown }).reason === 'string'
          ? (body as { reason: string }).reason
          : JSON.stringify(body).slice(0, 120)
      throw new WeatherUnavailable(
        'refused',
        `weather provider refused the request (HTTP ${res.status}): ${reason}`,
      )
    }
    return parseAnswer(body, points.length)
  }
  throw new WeatherUnavailable(
    last!.reason,
    `${last!.message}; gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}`,
  )
}

function malformed(where: string, what: string): never {
  throw new WeatherUnavailable('malformed', `weather provider answer malformed: ${where}: ${what}`)
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

/** Unit each variable must come in (the request asks for these); conversion to SI. */
const UNITS: Record<(typeof HOURLY_VARIABLES)[number], [string[], (v: number) => number]> = {
  wind_speed_10m: [['m/s'], (v) => v],
  wind_direction_10m: [['°'], (v) => v],
  wind_gusts_10m: [['m/s'], (v) => v],
  temperature_2m: [['°C'], (v) => v],
  relative_humidity_2m: [['%'], (v) => v / 100],
  surface_pressure: [['hPa'], (v) => v * 100],
}

/** The provider's JSON (one object, or an array for several points) → one series per point. */
export function parseAnswer(body: unknown, count: number): HourlySeries[] {
  const list = Array.isArray(body) ? body : [body]
  if (list.length !== count) malformed('answer', `expected ${count} point(s), got ${list.length}`)
  return list.map((item, j) => {
    const at = `point ${j}`
    if (!item || typeof item !== 'object') malformed(at, 'expected an object')
    const o = item as Record<string, unknown>
    if (!isNum(o.elevation))
      malformed(`${at}.elevation`, `expected a number, got ${JSON.stringify(o.elevation)}`)
    const offset = o.utc_offset_seconds ?? 0
    if (!isNum(offset) || Math.abs(offset) > 15 * 3600) {
      malformed(
        `${at}.utc_offset_seconds`,
        `expected seconds within ±15 h, got ${JSON.stringify(offset)}`,
      )
    }
    const hourly = o.hourly as Record<string, unknown> | undefined
    if (!hourly || typeof hourly !== 'object') malformed(`${at}.hourly`, 'missing')
    const units = (o.hourly_units ?? {}) as Record<string, unknown>
    const time = hourly.time
    if (!Array.isArray(time) || !time.every(isNum)) {
      malformed(`${at}.hourly.time`, 'expected an array of unix seconds (timeformat=unixtime)')
    }
    const cols: Record<string, (number | null)[]> = {}
    for (const name of HOURLY_VARIABLES) {
      const col = hourly[name]
      if (!Array.isArray(col) || col.length !== time.length) {
        malformed(
          `${at}.hourly.${name}`,
          `expected ${time.length} values, got ${Array.isArray(col) ? col.length : 'none'}`,
        )
      }
      const unit = units[name]
      if (unit !== undefined && !UNITS[name][0].includes(String(unit))) {
        malformed(
          `${at}.hourly_units.${name}`,
          `expected ${UNITS[name][0].join(' or ')}, got ${JSON.stringify(unit)}`,
        )
      }
      cols[name] = col.map((v: unknown) => (isNum(v) ? UNITS[name][1](v) : null))
    }
    const hours = new Map<number, WeatherCacheValues>()
    for (let k = 0; k < time.length; k++) {
      const ws = cols.wind_speed_10m![k]
      const wd = cols.wind_direction_10m![k]
      const t = cols.temperature_2m![k]
      const rh = cols.relative_humidity_2m![k]
      const p = cols.surface_pressure![k]
      // A missing required value: the hour is unusable (and is not cached).
      if (ws == null || wd == null || t == null || rh == null || p == null) continue
      if (
        ws < 0 ||
        ws > 100 ||
        wd < 0 ||
        wd > 360 ||
        rh < 0 ||
        rh > 1 ||
        p < 30_000 ||
        p > 110_000
      ) {
        malformed(
          `${at} hour ${new Date(time[k]! * 1000).toISOString()}`,
          'a value outside the physical range',
        )
      }
      hours.set(time[k]!, {
        windSpeedMps: ws,
        windFromDeg: wd % 360,
        gustMps: cols.wind_gusts_10m![k] ?? null,
        temperatureC: t,
        relativeHumidity: rh,
        surfacePressurePa: p,
        elevationM: o.elevation,
        utcOffsetS: offset,
      })
    }
    return { elevationM: o.elevation, utcOffsetS: offset, hours }
  })
}
