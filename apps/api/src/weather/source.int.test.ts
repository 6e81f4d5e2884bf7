// The weather source with its PostgreSQL cache (PGlite by default, DB_DRIVER=pg for PostgreSQL),
// against the local Open-Meteo stand-in: batched requests, the second call served from the cache,
// expiry, the archive for old rides, and failures that say so and cache nothing wrong.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { weatherCache, type Database } from '@veloptima/db'
import { openTestDatabase } from '@veloptima/db/testing'
import { failure } from './test-failure.ts'
import { FORECAST_TTL_S, WeatherSource } from './source.ts'
import { standInWeather, startOpenMeteoStandIn, type StandIn } from './stand-in.ts'

let database: Database
let standIn: StandIn
beforeAll(async () => {
  database = await openTestDatabase()
  standIn = await startOpenMeteoStandIn()
})
afterAll(async () => {
  await standIn.close()
  await database.close()
})
beforeEach(async () => {
  standIn.mode = { kind: 'ok' }
  standIn.requests.length = 0
  await database.db.delete(weatherCache)
})

const NOW = Date.UTC(2026, 6, 1, 6) / 1000 // "now": 2026-07-01 06:00 UTC
const START = Date.UTC(2026, 6, 2, 9, 30) / 1000 // the race: tomorrow 09:30–13:10
const END = START + 3 * 3600 + 40 * 60
const course = [
  { latDeg: 45.1, lonDeg: 6.0, distanceM: 0 },
  { latDeg: 45.2, lonDeg: 6.05, distanceM: 30_000 },
  { latDeg: 45.31, lonDeg: 6.12, distanceM: 60_000 },
  { latDeg: 45.4, lonDeg: 6.2, distanceM: 95_000 },
]
const rows = async () =>
  Number((await database.db.select({ n: sql<number>`count(*)` }).from(weatherCache))[0]!.n)

function source(now = NOW, provider: 'open-meteo' | 'none' = 'open-meteo') {
  return new WeatherSource(
    database.db,
    { WEATHER_PROVIDER: provider, WEATHER_URL: standIn.url },
    { now: () => now * 1000, backoffMs: 1, timeoutMs: 300 },
  )
}

describe('weather source and cache', () => {
  it('one batched request, then served from the cache (also to another process)', async () => {
    const first = await source().alongCourse(course, START, END)
    expect(standIn.requests).toHaveLength(1)
    expect(standIn.requests[0]!.searchParams.get('latitude')).toBe(
      '45.1000,45.2000,45.3100,45.4000',
    )
    expect(first.fetchedPoints).toBe(4)
    expect(first.kind).toBe('forecast')
    const f = first.forecast
    expect(f.points.map((p) => p.distanceM)).toEqual([0, 30_000, 60_000, 95_000])
    // Hours 09:00 … 14:00 cover the ride; values are the stand-in's at the point's cell.
    expect(f.points[0]!.timeS).toHaveLength(6)
    expect(f.points[0]!.timeS[0]).toBe(START - 30 * 60)
    const w = standInWeather(45.1, 6.0, START - 30 * 60)
    expect(f.points[0]!.windSpeedMps[0]).toBeCloseTo(w.windSpeedMps, 1)
    expect(f.points[0]!.elevationM).toBe(w.elevationM)
    expect(f.issuedAtS).toBe(NOW)
    // Three local days of hours per point cached (the ride's date and a day either side: the
    // request's dates are the place's own).
    expect(await rows()).toBe(4 * 72)
    expect(standIn.requests[0]!.searchParams.get('start_date')).toBe('2026-07-01')
    expect(standIn.requests[0]!.searchParams.get('timezone')).toBe('auto')
    expect(first.utcOffsetS).toBe(0)

    const again = await source(NOW + 600).alongCourse(course, START, END)
    expect(standIn.requests).toHaveLength(1)
    expect(again.cachedPoints).toBe(4)
    expect(again.fetchedAtS).toBe(NOW)
    expect(again.forecast.points).toEqual(first.forecast.points)
  })

  it('expires forecasts after an hour: fetched again, cache refreshed', async () => {
    await source().alongCourse(course, START, END)
    await source(NOW + FORECAST_TTL_S - 1).alongCourse(course, START, END)
    expect(standIn.requests).toHaveLength(1)
    const later = await source(NOW + FORECAST_TTL_S + 1).alongCourse(course, START, END)
    expect(standIn.requests).toHaveLength(2)
    expect(later.fetchedAtS).toBe(NOW + FORECAST_TTL_S + 1)
    expect(await rows()).toBe(4 * 72)
    expect(await source(NOW + 2 * FORECAST_TTL_S + 2).purgeExpired()).toBe(4 * 72)
  })

  it('only the points missing from the cache are fetched', async () => {
    await source().alongCourse(course.slice(0, 2), START, END)
    standIn.requests.length = 0
    const r = await source().alongCourse(course, START, END)
    expect(r.cachedPoints).toBe(2)
    expect(standIn.requests[0]!.searchParams.get('latitude')).toBe('45.3100,45.4000')
  })

  it('a loop: start and finish in one cell are fetched once and cached once', async () => {
    const loop = [course[0]!, course[1]!, { ...course[0]!, latDeg: 45.1004, distanceM: 40_000 }]
    const r = await source().alongCourse(loop, START, END)
    expect(standIn.requests[0]!.searchParams.get('latitude')).toBe('45.1000,45.2000')
    expect(r.forecast.points.map((p) => p.distanceM)).toEqual([0, 30_000, 40_000])
    expect(r.forecast.points[2]!.windSpeedMps).toEqual(r.forecast.points[0]!.windSpeedMps)
    expect(await rows()).toBe(2 * 72)
  })

  it('an old ride is read in the archive and cached for long', async () => {
    const old = Date.UTC(2026, 4, 10, 8) / 1000
    const r = await source().alongCourse(course.slice(0, 1), old, old + 3600)
    expect(r.kind).toBe('archive')
    expect(standIn.requests[0]!.pathname).toBe('/v1/archive')
    await source(NOW + 20 * 86_400).alongCourse(course.slice(0, 1), old, old + 3600)
    expect(standIn.requests).toHaveLength(1)
  })

  it('errors say so and cache nothing; null hours are never cached', async () => {
    for (const mode of [
      { kind: 'not-json' as const },
      { kind: 'server-error' as const },
      { kind: 'slow' as const, delayMs: 1000 },
      { kind: 'wrong-count' as const },
    ]) {
      standIn.mode = mode
      const e = await failure(source().alongCourse(course, START, END))
      expect(e.message).toMatch(/weather provider/)
      expect(await rows()).toBe(0)
    }
    standIn.mode = { kind: 'nulls' }
    const e = await failure(source().alongCourse(course, START, END))
    expect(e.reason).toBe('not_covered')
    expect(e.message).toMatch(/no usable weather for 2026-07-02T11:00:00.000Z at 45.100, 6.000/)
    expect(await rows()).toBe(4 * 48) // every third hour has a null temperature
    standIn.mode = { kind: 'short' }
    await database.db.delete(weatherCache)
    expect((await failure(source().alongCourse(course, START, END))).reason).toBe('not_covered')
  })

  it('says the place’s offset from UTC (timezone=auto), from the answer and from the cache', async () => {
    const east = [{ latDeg: 45, lonDeg: 30, distanceM: 0 }] // the stand-in's zone: UTC+2
    expect((await source().alongCourse(east, START, END)).utcOffsetS).toBe(7200)
    expect((await source().alongCourse(east, START, END)).cachedPoints).toBe(1)
    expect((await source().alongCourse(east, START, END)).utcOffsetS).toBe(7200)
  })

  it('WEATHER_PROVIDER=none and a ride beyond 16 days fetch nothing', async () => {
    expect((await failure(source(NOW, 'none').alongCourse(course, START, END))).reason).toBe(
      'disabled',
    )
    const far = NOW + 20 * 86_400
    expect((await failure(source().alongCourse(course, far, far + 3600))).message).toMatch(/16-day/)
    expect(standIn.requests).toHaveLength(0)
  })
})
