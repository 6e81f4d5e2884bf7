// The weather source behind one interface: hourly conditions at points along a course for the
// hours of a ride, from the PostgreSQL cache (shared by every process) when fresh, else from the
// provider in one batched request, then cached by (source, position rounded to 0.01°, hour).
import type { Db, WeatherCacheValues } from '@veloptima/db'
import type { Forecast, ForecastPoint } from '@veloptima/engine'
import { WeatherUnavailable } from './errors.ts'
import {
  fetchHourly,
  type HourlySeries,
  type OpenMeteoOptions,
  type WeatherKind,
} from './open-meteo.ts'
import { deleteExpiredCacheRows, freshCacheRows, upsertCacheRows } from './repository.ts'

export interface CoursePoint {
  latDeg: number
  lonDeg: number
  /** Distance along the course (m). */
  distanceM: number
}

export interface WeatherSourceConfig {
  WEATHER_PROVIDER: 'open-meteo' | 'none'
  WEATHER_URL?: string | undefined
}

export interface CourseWeather {
  forecast: Forecast
  kind: WeatherKind
  /** Oldest fetch among the hours used (unix s): the forecast is as issued then. */
  fetchedAtS: number
  /** The course start's offset from UTC (s), as the provider knows its zone. */
  utcOffsetS: number
  /** Points served from the cache and fetched. */
  cachedPoints: number
  fetchedPoints: number
}

const HOUR = 3600
/** A forecast is served from the cache for an hour; archive data for 30 days (5 days' delay aside). */
export const FORECAST_TTL_S = HOUR
export const ARCHIVE_TTL_S = 30 * 86_400
/** Open-Meteo's archive lags about 5 days: older rides are read there, newer ones in the forecast. */
const ARCHIVE_AFTER_S = 6 * 86_400
const FORECAST_HORIZON_S = 16 * 86_400

export const roundE2 = (deg: number) => Math.round(deg * 100)
const isoDate = (s: number) => new Date(s * 1000).toISOString().slice(0, 10)

export class WeatherSource {
  constructor(
    private readonly db: Db,
    private readonly config: WeatherSourceConfig,
    private readonly options: OpenMeteoOptions & { now?: () => number } = {},
  ) {}

  private nowS(): number {
    return (this.options.now ?? Date.now)() / 1000
  }

  /**
   * Hourly weather at `points` covering [fromS, toS] (unix s), as the engine's `Forecast`.
   * Throws `WeatherUnavailable` (disabled, offline, refused, malformed, not covered…).
   */
  async alongCourse(
    points: readonly CoursePoint[],
    fromS: number,
    toS: number,
  ): Promise<CourseWeather> {
    if (this.config.WEATHER_PROVIDER === 'none') {
      throw new WeatherUnavailable('disabled', 'weather fetching is off (WEATHER_PROVIDER=none)')
    }
    if (points.length === 0 || !(toS >= fromS)) {
      throw new WeatherUnavailable('not_covered', 'no course points or an empty time range')
    }
    const now = this.nowS()
    if (fromS > now + FORECAST_HORIZON_S) {
      throw new WeatherUnavailable(
        'not_covered',
        `the ride starts ${new Date(fromS * 1000).toISOString()}, beyond the 16-day forecast`,
      )
    }
    const kind: WeatherKind = toS < now - ARCHIVE_AFTER_S ? 'archive' : 'forecast'
    const source = `open-meteo:${kind}`
    const first = Math.floor(fromS / HOUR) * HOUR
    const last = Math.ceil(toS / HOUR) * HOUR
    const wanted: number[] = []
    for (let h = first; h <= last; h += HOUR) wanted.push(h)

    const keys = points.map((p) => ({ lat: roundE2(p.latDeg), lon: roundE2(p.lonDeg) }))
    const cached = await this.readCache(source, keys, first, last, now)
    const series: (HourlySeries | null)[] = keys.map((k) => {
      const hours = cached.get(`${k.lat},${k.lon}`)
      return hours && wanted.every((h) => hours.has(h))
        ? {
            elevationM: hours.values().next().value!.elevationM,
            utcOffsetS: hours.values().next().value!.utcOffsetS ?? 0,
            hours,
          }
        : null
    })
    const missing = series.flatMap((s, j) => (s ? [] : [j]))
    if (missing.length > 0) {
      // One request for the cells not in the cache, each cell once (a loop's start and finish,
      // or two points within 0.01°, share a cell).
      const cells = [
        ...new Map(missing.map((j) => [`${keys[j]!.lat},${keys[j]!.lon}`, keys[j]!])).entries(),
      ]
      const fetched = await fetchHourly(
        kind,
        cells.map(([, k]) => ({ latDeg: k.lat / 100, lonDeg: k.lon / 100 })),
        // The dates are the place's local dates: a day more on each side covers any zone.
        isoDate(first - 86_400),
        isoDate(last + 86_400),
        { ...this.options, baseUrl: this.config.WEATHER_URL },
      )
      await this.writeCache(
        source,
        cells.map(([, k]) => k),
        fetched,
        now,
        kind,
      )
      const byCell = new Map(cells.map(([key], m) => [key, fetched[m]!]))
      for (const j of missing) series[j] = byCell.get(`${keys[j]!.lat},${keys[j]!.lon}`)!
    }
    let fetchedAtS = now
    const forecastPoints: ForecastPoint[] = []
    let prevDistance = -Infinity
    points.forEach((p, j) => {
      const s = series[j]!
      const gap = wanted.find((h) => !s.hours.has(h))
      if (gap !== undefined) {
        throw new WeatherUnavailable(
          'not_covered',
          `no usable weather for ${new Date(gap * 1000).toISOString()} at ${p.latDeg.toFixed(3)}, ${p.lonDeg.toFixed(3)}`,
        )
      }
      if (!(p.distanceM > prevDistance)) return // two points in one rounded cell: keep the first
      prevDistance = p.distanceM
      const rows = wanted.map((h) => s.hours.get(h)!)
      for (const r of rows) {
        const at = (r as { fetchedAtS?: number }).fetchedAtS
        if (at !== undefined && at < fetchedAtS) fetchedAtS = at
      }
      const gusts = rows.every((r) => r.gustMps !== null)
      forecastPoints.push({
        distanceM: p.distanceM,
        elevationM: s.elevationM,
        timeS: wanted,
        windSpeedMps: rows.map((r) => r.windSpeedMps),
        windFromDeg: rows.map((r) => r.windFromDeg),
        ...(gusts ? { gustMps: rows.map((r) => r.gustMps!) } : {}),
        temperatureC: rows.map((r) => r.temperatureC),
        relativeHumidity: rows.map((r) => r.relativeHumidity),
        surfacePressurePa: rows.map((r) => r.surfacePressurePa),
      })
    })
    return {
      forecast: { points: forecastPoints, issuedAtS: fetchedAtS, source },
      kind,
      fetchedAtS,
      utcOffsetS: series[0]!.utcOffsetS,
      cachedPoints: points.length - missing.length,
      fetchedPoints: missing.length,
    }
  }

  private async readCache(
    source: string,
    keys: { lat: number; lon: number }[],
    first: number,
    last: number,
    now: number,
  ): Promise<Map<string, Map<number, WeatherCacheValues & { fetchedAtS: number }>>> {
    const rows = await freshCacheRows(
      this.db,
      source,
      keys,
      { from: new Date(first * 1000), to: new Date(last * 1000) },
      new Date(now * 1000),
    )
    const out = new Map<string, Map<number, WeatherCacheValues & { fetchedAtS: number }>>()
    for (const r of rows) {
      const key = `${r.latE2},${r.lonE2}`
      let m = out.get(key)
      if (!m) out.set(key, (m = new Map()))
      m.set(r.hour.getTime() / 1000, { ...r.values, fetchedAtS: r.fetchedAt.getTime() / 1000 })
    }
    return out
  }

  private async writeCache(
    source: string,
    keys: { lat: number; lon: number }[],
    series: HourlySeries[],
    now: number,
    kind: WeatherKind,
  ): Promise<void> {
    const rows = keys.flatMap((k, j) =>
      [...series[j]!.hours].map(([hour, values]) => ({
        source,
        latE2: k.lat,
        lonE2: k.lon,
        hour: new Date(hour * 1000),
        values,
        fetchedAt: new Date(now * 1000),
        // Archive hours younger than the archive's delay may still change: keep them a day.
        expiresAt: new Date(
          (now +
            (kind === 'forecast'
              ? FORECAST_TTL_S
              : hour < now - 10 * 86_400
                ? ARCHIVE_TTL_S
                : 86_400)) *
            1000,
        ),
      })),
    )
    await upsertCacheRows(this.db, rows)
  }

  /** Removes expired rows; returns how many. */
  async purgeExpired(): Promise<number> {
    return deleteExpiredCacheRows(this.db, new Date(this.nowS() * 1000))
  }
}
