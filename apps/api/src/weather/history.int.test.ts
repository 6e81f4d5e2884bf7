// POST /api/weather/history against the local Open-Meteo stand-in: a past ride's hours at a few
// places come back from the archive path as the engine's Forecast, equal to the stand-in's own
// weather function (its independent truth), cached for the next ask; the provider's errors and a
// provider that is off give `unavailable` with the reason; bad bodies are 400 naming the field.
import { beforeAll, describe, expect, it } from 'vitest'
import { validateForecast } from '@veloptima/engine'
import { createUser, tempDir } from '../../test/files-helpers.ts'
import { startTestApp, type TestApp } from '../../test/helpers.ts'
import { suiteWeatherApp } from '../../test/weather-fixture.ts'
import { standInWeather } from './stand-in.ts'

const t = suiteWeatherApp('weather-history')
let rider: { authorization: string }
// The ELEMNT ride's place and hours (the real-world rides/elemnt-devfields.fit): Shanghai,
// 2019-02-17 06:26–12:59 UTC; three places along it.
const body = {
  points: [
    { lat: 31.2534, lon: 121.4246, distance_m: 0 },
    { lat: 31.1313, lon: 121.4664, distance_m: 27_434 },
    { lat: 31.2488, lon: 121.425, distance_m: 78_107 },
  ],
  from: '2019-02-17T06:26:44Z',
  to: '2019-02-17T12:59:55Z',
}

beforeAll(async () => {
  rider = await t.signIn({ uid: 'rider' })
})

const post = (payload: unknown, headers: Record<string, string> = rider, app: TestApp = t) =>
  app.app.inject({
    method: 'POST',
    url: '/api/weather/history',
    headers,
    payload: payload as object,
  })

describe('POST /api/weather/history', () => {
  it("a past ride's hourly wind and air from the archive, as the engine's Forecast, then cached", async () => {
    t.standIn.mode = { kind: 'ok' }
    t.standIn.requests.length = 0
    const res = await post(body)
    expect(res.statusCode).toBe(200)
    const a = res.json()
    expect(a.status).toBe('used')
    expect(a.kind).toBe('archive')
    expect(t.standIn.requests).toHaveLength(1)
    expect(t.standIn.requests[0]!.pathname).toBe('/v1/archive')
    expect(a.label).toBe('Open-Meteo archive, 31.25° N 121.42° E, 2019-02-17 06:00 – 13:00 UTC')
    expect(() => validateForecast(a.forecast)).not.toThrow()
    expect(a.forecast.points.map((p: { distanceM: number }) => p.distanceM)).toEqual([
      0, 27_434, 78_107,
    ])
    // Every hour 06:00–13:00 UTC, equal to the stand-in's weather at the rounded cell and hour.
    const p = a.forecast.points[1]
    expect(p.timeS[0]).toBe(Date.parse('2019-02-17T06:00:00Z') / 1000)
    expect(p.timeS.at(-1)).toBe(Date.parse('2019-02-17T13:00:00Z') / 1000)
    for (let k = 0; k < p.timeS.length; k++) {
      const truth = standInWeather(31.13, 121.47, p.timeS[k])
      // As the stand-in rounds them (0.1 of a unit).
      expect(Math.abs(p.windSpeedMps[k] - truth.windSpeedMps)).toBeLessThan(0.1)
      expect(Math.abs(p.temperatureC[k] - truth.temperatureC)).toBeLessThan(0.1)
      // Surface pressure as the stand-in rounds it (whole hPa at most).
      expect(Math.abs(p.surfacePressurePa[k] - truth.surfacePressureHpa * 100)).toBeLessThan(100)
    }
    // Asked again: from the cache, the provider is not asked.
    const again = await post(body)
    expect(again.json()).toMatchObject({ status: 'used', cached_points: 3, fetched_points: 0 })
    expect(t.standIn.requests).toHaveLength(1)
  })

  it("the provider's errors: unavailable with the reason, nothing cached", async () => {
    const other = { ...body, from: '2019-03-01T08:00:00Z', to: '2019-03-01T10:00:00Z' }
    for (const mode of [{ kind: 'server-error' as const }, { kind: 'not-json' as const }]) {
      t.standIn.mode = mode
      const res = await post(other)
      expect(res.statusCode).toBe(200)
      expect(res.json().status).toBe('unavailable')
      expect(res.json().message).toMatch(/weather provider/)
    }
    t.standIn.mode = { kind: 'nulls' }
    expect((await post(other)).json()).toMatchObject({
      status: 'unavailable',
      reason: 'not_covered',
    })
    t.standIn.mode = { kind: 'ok' }
    const asked = t.standIn.requests.length
    expect((await post(other)).json().status).toBe('used')
    expect(t.standIn.requests.length).toBe(asked + 1)
  })

  it('bad bodies are 400 naming the field; signed-in users only', async () => {
    const cases: [unknown, RegExp][] = [
      [{ ...body, points: [] }, /points: expected 1 to 12 places/],
      [
        { ...body, points: [{ lat: 95, lon: 0, distance_m: 0 }] },
        /points\[0\]\.lat: expected a number from -90 to 90, got 95/,
      ],
      [
        { ...body, points: [body.points[1], body.points[0]] },
        /points\[1\]\.distance_m: expected more than/,
      ],
      [{ ...body, from: 'yesterday' }, /from: expected a date and time/],
      [{ ...body, to: body.from }, /to: expected a time after from/],
      [{ ...body, to: '2019-02-20T00:00:00Z' }, /to: expected at most 48 hours/],
      [
        { ...body, from: '2999-01-01T00:00:00Z', to: '2999-01-01T05:00:00Z' },
        /to: expected a time in the past/,
      ],
    ]
    for (const [payload, message] of cases) {
      const res = await post(payload)
      expect(res.statusCode).toBe(400)
      expect(res.json().message).toMatch(message)
    }
    expect((await post(body, {})).statusCode).toBe(401)
  })

  it('with the provider off: unavailable, disabled, the stand-in not asked', async () => {
    const off = await startTestApp({ FILES_DIR: tempDir('weather-history-off') })
    try {
      await createUser(off.database, 'rider')
      const asked = t.standIn.requests.length
      const res = await post(body, await off.bearer({ uid: 'rider' }), off)
      expect(res.json()).toMatchObject({ status: 'unavailable', reason: 'disabled' })
      expect(t.standIn.requests.length).toBe(asked)
    } finally {
      await off.close()
    }
  })
})
