// GET /api/weather/course/:courseId?start=…, against the local Open-Meteo stand-in: the forecast
// wind along the course per stretch (rider height and 10 m, direction, hour), someone else's
// course is 404, a bad start is 400, and with the provider off or no positions the answer is
// `unavailable` with the reason (the wheel tool then keeps the typed wind).
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { courses } from '@veloptima/db'
import { windHeightFactor } from '@veloptima/engine'
import { startTestApp } from './helpers.ts'
import { createUser, tempDir } from './files-helpers.ts'
import { createRunnable } from './runs-helpers.ts'
import { suiteWeatherApp } from './weather-fixture.ts'

const t = suiteWeatherApp('weather-route')
let rider: { authorization: string }
let other: { authorization: string }
// Tomorrow 09:30 local (the stand-in's zone at 6° E is UTC+0).
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
const start = `${tomorrow}T09:30`
// 20 km north from 45.00° N, 6.00° E.
const track = { lat: [45, 45.18], lon: [6, 6], ele: [300, 300], distance: [0, 20_000] }

beforeAll(async () => {
  rider = await t.signIn({ uid: 'rider' })
  other = await t.signIn({ uid: 'other' })
})

async function course(withTrack = true) {
  const { course } = await createRunnable(t.database.db, { ownerUid: 'rider' })
  if (withTrack) await t.database.db.update(courses).set({ track }).where(eq(courses.id, course.id))
  return course.id
}
const get = (id: string, headers: { authorization: string }, s = start) =>
  t.app.inject({
    method: 'GET',
    url: `/api/weather/course/${id}?start=${encodeURIComponent(s)}`,
    headers,
  })

type Stretch = {
  start_m: number
  end_m: number
  time: string
  wind_speed_mps: number
  wind_speed_10m_mps: number
  wind_from_deg: number
  lat: number
  lon: number
}

describe('GET /api/weather/course/:courseId', () => {
  it('the forecast wind per stretch at rider height, its hour and issue time (stand-in)', async () => {
    const id = await course()
    t.standIn.requests.length = 0
    const res = await get(id, rider)
    expect(res.statusCode).toBe(200)
    const body = res.json() as {
      status: string
      start_utc: string
      issued_at: string
      wind_height_factor: number
      stretches: Stretch[]
      mean: { wind_speed_10m_mps: number; wind_speed_mps: number; wind_from_deg: number }
    }
    expect(body.status).toBe('used')
    // One batched request for the points along the course.
    expect(t.standIn.requests).toHaveLength(1)
    expect(body.start_utc).toBe(`${tomorrow}T09:30:00.000Z`)
    expect(Date.parse(body.issued_at)).toBeLessThanOrEqual(Date.now())
    // Five stretches between six points, end to end over the 20 km.
    expect(body.stretches.map((s) => [s.start_m, s.end_m])).toEqual([
      [0, 4000],
      [4000, 8000],
      [8000, 12000],
      [12000, 16000],
      [16000, 20000],
    ])
    // Each stretch's middle on the track (straight north from 45.00° to 45.18° over 20 km):
    // 2 km → 45.018°, 6 km → 45.054° …; the longitude stays 6°.
    expect(body.stretches.map((s) => [s.lat, s.lon])).toEqual(
      [2, 6, 10, 14, 18].map((km) => [Math.round((45 + (0.18 * km) / 20) * 1e5) / 1e5, 6]),
    )
    const factor = windHeightFactor()
    expect(body.wind_height_factor).toBeCloseTo(factor, 3)
    let last = 0
    for (const s of body.stretches) {
      // The stand-in's 10 m wind is 4 ± 2 m/s from 200 ± 40° (stand-in.ts standInWeather).
      expect(s.wind_speed_10m_mps).toBeGreaterThanOrEqual(2)
      expect(s.wind_speed_10m_mps).toBeLessThanOrEqual(6)
      expect(s.wind_speed_mps).toBeCloseTo(s.wind_speed_10m_mps * factor, 1)
      expect(s.wind_from_deg).toBeGreaterThanOrEqual(160)
      expect(s.wind_from_deg).toBeLessThanOrEqual(240)
      // The rider reaches each stretch later than the one before, from the start on.
      const at = Date.parse(s.time)
      expect(at).toBeGreaterThan(Math.max(last, Date.parse(body.start_utc)))
      last = at
    }
    const speeds = body.stretches.map((s) => s.wind_speed_10m_mps)
    expect(body.mean.wind_speed_10m_mps).toBeGreaterThanOrEqual(Math.min(...speeds) - 0.01)
    expect(body.mean.wind_speed_10m_mps).toBeLessThanOrEqual(Math.max(...speeds) + 0.01)
    expect(body.mean.wind_from_deg).toBeGreaterThanOrEqual(160)
    expect(body.mean.wind_from_deg).toBeLessThanOrEqual(240)
  })

  it("someone else's course is 404, a malformed start 400", async () => {
    const id = await course()
    expect((await get(id, other)).statusCode).toBe(404)
    expect((await get('00000000-0000-4000-8000-000000000000', rider)).statusCode).toBe(404)
    const bad = await get(id, rider, 'tomorrow 9am')
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toMatch(/start: expected/)
  })

  it('provider off or no positions → unavailable with the reason', async () => {
    // An app configured with WEATHER_PROVIDER=none (the stand-in is not asked).
    const offApp = await startTestApp({ FILES_DIR: tempDir('weather-route-off') })
    try {
      await createUser(offApp.database, 'rider')
      const { course: c } = await createRunnable(offApp.database.db, { ownerUid: 'rider' })
      await offApp.database.db.update(courses).set({ track }).where(eq(courses.id, c.id))
      const asked = t.standIn.requests.length
      const off = await offApp.app.inject({
        method: 'GET',
        url: `/api/weather/course/${c.id}?start=${encodeURIComponent(start)}`,
        headers: await offApp.bearer({ uid: 'rider' }),
      })
      expect(off.statusCode).toBe(200)
      expect(off.json()).toMatchObject({ status: 'unavailable', reason: 'disabled' })
      expect(off.json().message).toMatch(/WEATHER_PROVIDER=none/)
      expect(t.standIn.requests.length).toBe(asked)
    } finally {
      await offApp.close()
    }
    const bare = await get(await course(false), rider)
    expect(bare.json()).toMatchObject({ status: 'unavailable', reason: 'no_positions' })
  })
})
