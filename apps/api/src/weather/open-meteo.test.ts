// The Open-Meteo client against a local stand-in that answers in the provider's documented
// format (weather-api.md: one object or an array, hourly parallel arrays, 400 {error, reason},
// 429): units converted to SI, errors named, retries with backoff, nothing from the internet.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { failure } from './test-failure.ts'
import { fetchHourly, parseAnswer, requestUrl } from './open-meteo.ts'
import { standInWeather, startOpenMeteoStandIn, type StandIn } from './stand-in.ts'

let standIn: StandIn
beforeAll(async () => {
  standIn = await startOpenMeteoStandIn()
})
afterAll(() => standIn.close())
beforeEach(() => {
  standIn.mode = { kind: 'ok' }
  standIn.requests.length = 0
})

const day = '2026-07-01'
const t0 = Date.UTC(2026, 6, 1) / 1000
const opts = () => ({ baseUrl: standIn.url, backoffMs: 1, timeoutMs: 2000 })

describe('Open-Meteo client', () => {
  it('asks for several points in one request, m/s and unix time, and reads the array answer', async () => {
    const pts = [
      { latDeg: 45.1, lonDeg: 6.0 },
      { latDeg: 45.2, lonDeg: 6.1 },
      { latDeg: 45.3, lonDeg: 6.3 },
    ]
    const series = await fetchHourly('forecast', pts, day, day, opts())
    expect(standIn.requests).toHaveLength(1)
    const q = standIn.requests[0]!.searchParams
    expect(standIn.requests[0]!.pathname).toBe('/v1/forecast')
    expect(q.get('latitude')).toBe('45.1000,45.2000,45.3000')
    expect(q.get('wind_speed_unit')).toBe('ms')
    expect(q.get('timeformat')).toBe('unixtime')
    expect(series).toHaveLength(3)
    // Point order kept; values in SI: hPa → Pa, % → fraction; one day = 24 hours.
    series.forEach((s, j) => {
      expect(s.hours.size).toBe(24)
      const want = standInWeather(pts[j]!.latDeg, pts[j]!.lonDeg, t0 + 5 * 3600)
      const got = s.hours.get(t0 + 5 * 3600)!
      expect(got.windSpeedMps).toBeCloseTo(want.windSpeedMps, 1)
      expect(got.surfacePressurePa).toBeCloseTo(want.surfacePressureHpa * 100, -1)
      expect(got.relativeHumidity).toBeCloseTo(want.humidityPct / 100, 2)
      expect(s.elevationM).toBe(want.elevationM)
    })
  })
  it('reads the single-object answer of one point', async () => {
    const [s] = await fetchHourly('archive', [{ latDeg: 46, lonDeg: 7 }], day, day, opts())
    expect(standIn.requests[0]!.pathname).toBe('/v1/archive')
    expect(s!.hours.size).toBe(24)
  })
  it('leaves out hours with a null required value (and keeps the rest)', async () => {
    standIn.mode = { kind: 'nulls' }
    const [s] = await fetchHourly('forecast', [{ latDeg: 46, lonDeg: 7 }], day, day, opts())
    expect(s!.hours.size).toBe(16) // every third hour's temperature is null
    expect(s!.hours.has(t0 + 2 * 3600)).toBe(false)
  })
  it('a 400 says the provider’s reason and is not retried', async () => {
    const url = requestUrl('forecast', [{ latDeg: 46, lonDeg: 7 }], day, day, standIn.url).replace(
      'wind_gusts_10m',
      'wind_gust_10m',
    )
    const res = await fetch(url)
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: true })
    const e = await failure(
      fetchHourly('forecast', [{ latDeg: 46, lonDeg: 7 }], day, '2026-06-01', opts()),
    )
    expect(e.reason).toBe('refused')
    expect(e.message).toMatch(/HTTP 400\): Invalid date range/)
  })
  it('retries a 429 with backoff, and gives up with a clear message', async () => {
    standIn.mode = { kind: 'rate-limited', times: 2 }
    const ok = await fetchHourly('forecast', [{ latDeg: 46, lonDeg: 7 }], day, day, opts())
    expect(ok[0]!.hours.size).toBe(24)
    expect(standIn.requests).toHaveLength(3)
    standIn.mode = { kind: 'rate-limited', times: 10 }
    standIn.requests.length = 0
    const e = await failure(fetchHourly('forecast', [{ latDeg: 46, lonDeg: 7 }], day, day, opts()))
    expect(e.reason).toBe('rate_limited')
    expect(e.message).toMatch(/HTTP 429.*gave up after 3 attempts/)
    expect(standIn.requests).toHaveLength(3)
  })
  it('a slow answer times out; a body that is not JSON, a wrong count, a short series are malformed', async () => {
    standIn.mode = { kind: 'slow', delayMs: 600 }
    const slow = await failure(
      fetchHourly('forecast', [{ latDeg: 46, lonDeg: 7 }], day, day, {
        ...opts(),
        timeoutMs: 100,
        attempts: 2,
      }),
    )
    expect(slow.reason).toBe('offline')
    expect(slow.message).toMatch(/did not answer within 100 ms; gave up after 2 attempts/)
    standIn.mode = { kind: 'not-json' }
    const html = await failure(
      fetchHourly('forecast', [{ latDeg: 46, lonDeg: 7 }], day, day, opts()),
    )
    expect(html.reason).toBe('malformed')
    expect(html.message).toMatch(/not JSON: "<html>/)
    standIn.mode = { kind: 'wrong-count' }
    const pts = [
      { latDeg: 46, lonDeg: 7 },
      { latDeg: 46.5, lonDeg: 7 },
    ]
    expect((await failure(fetchHourly('forecast', pts, day, day, opts()))).message).toMatch(
      /expected 2 point\(s\), got 1/,
    )
    expect(() =>
      parseAnswer({ elevation: 5, hourly: { time: [1, 2], wind_speed_10m: [1] } }, 1),
    ).toThrow(/hourly\.wind_speed_10m: expected 2 values, got 1/)
    expect(() =>
      parseAnswer(
        { elevation: 5, hourly_units: { wind_speed_10m: 'km/h' }, hourly: { time: [] } },
        1,
      ),
    ).toThrow(/hourly\.wind_speed_10m/)
  })
  it('no server: offline, said so', async () => {
    const gone = await startOpenMeteoStandIn()
    const url = gone.url
    await gone.close()
    const e = await failure(
      fetchHourly('forecast', [{ latDeg: 46, lonDeg: 7 }], day, day, {
        baseUrl: url,
        backoffMs: 1,
      }),
    )
    expect(e.reason).toBe('offline')
    expect(e.message).toMatch(/unreachable.*gave up after 3 attempts/)
  })
})
