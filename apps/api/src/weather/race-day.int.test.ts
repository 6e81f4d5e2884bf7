// Race-day weather in an optimization run, against the local Open-Meteo stand-in: an optimization
// with an event start gets the forecast's per-segment wind and air (manual stretches win), the
// result records the forecast's issue time and the sensitivity range; without positions or
// without the provider, the typed inputs apply and the result says why.
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { courseForecastSchema, raceDayWeatherSchema } from '@veloptima/contracts'
import { courses } from '@veloptima/db'
import { createRunnable, eventually, storedResult } from '../../test/runs-helpers.ts'
import { suiteWeatherApp } from '../../test/weather-fixture.ts'
import { optimizerInputOf, snapshotOf } from '../jobs/engine-inputs.ts'
import { RaceDayWeather } from './race-day.ts'
import { WeatherSource } from './source.ts'

const t = suiteWeatherApp('race-day')
let auth: { authorization: string }
// Tomorrow 09:30 local (the stand-in's zone at 6° E is UTC+0).
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
const eventStart = `${tomorrow}T09:30`
// The test course is 200 × 100 m; its positions run north from 45.00° N, 6.00° E.
const track = { lat: [45, 45.09], lon: [6, 6], ele: [300, 300], distance: [0, 20_000] }

beforeAll(async () => {
  auth = await t.signIn({ uid: 'rider', claims: { 'create:simulations': true } })
  await t.app.jobs.start({ workers: 1 })
})

const manual = { start_m: 0, end_m: 8000, wind_speed_mps: 5, wind_from_deg: 90 }
async function runnable(withTrack = true, start = eventStart) {
  const r = await createRunnable(
    t.database.db,
    { ownerUid: 'rider' },
    {
      constraint: { type: 'w_prime_balance' },
      max_targets: 6,
      environment: { event_start: start, wind_segments: [manual] },
    },
  )
  if (withTrack)
    await t.database.db.update(courses).set({ track }).where(eq(courses.id, r.course.id))
  return r
}

describe('race-day weather in an optimization', () => {
  it('forRun: forecast wind and air per segment, the typed stretch wins, a range is given', async () => {
    const { course, setup, optimization } = await runnable()
    const snapshot = snapshotOf('rider', optimization, course, setup)
    const weather = new RaceDayWeather(
      t.database.db,
      new WeatherSource(t.database.db, {
        WEATHER_PROVIDER: 'open-meteo',
        WEATHER_URL: t.standIn.url,
      }),
    )
    t.standIn.requests.length = 0
    const out = (await weather.forRun(snapshot, optimizerInputOf(snapshot)))!
    expect(out.record.status).toBe('used')
    // The record as stored (JSON) is what the contract describes (strict: no field unknown to it).
    expect(raceDayWeatherSchema.parse(JSON.parse(JSON.stringify(out.record)))).toEqual(out.record)
    // One batched request for the six points along the course.
    expect(t.standIn.requests).toHaveLength(1)
    expect(t.standIn.requests[0]!.searchParams.get('latitude')!.split(',')).toHaveLength(6)
    const env = out.input.scenario.environment as {
      wind_segments: {
        start_m: number
        end_m: number
        wind_speed_mps: number
        wind_from_deg: number
      }[]
      air_segments: { start_m: number; pressure_pa: number }[]
    }
    // The typed stretch is kept as typed; beyond it, the forecast's wind (stand-in: 2–6 m/s at
    // 10 m, × (1.5/10)^0.16 = 0.738 at rider height, docs/engine/science.md §1.1) on every segment.
    expect(env.wind_segments.filter((w) => w.start_m < 8000)).toEqual([manual])
    const forecast = env.wind_segments.filter((w) => w.start_m >= 8000)
    expect(forecast).toHaveLength(120)
    for (const w of forecast) {
      expect(w.wind_speed_mps).toBeGreaterThan(2 * 0.738)
      expect(w.wind_speed_mps).toBeLessThan(6 * 0.739)
    }
    expect(env.air_segments).toHaveLength(200)
    const record = out.record as {
      start_utc: string
      issued_at: string
      arrival: {
        first_guess: { converged: boolean; power_w: number; time_s: number }
        rounds: unknown[]
      }
      sensitivity: { of: string; base_s: number; min_s: number; max_s: number }
      wind_height_factor: number
      strip: unknown[]
    }
    expect(record.start_utc).toBe(`${tomorrow}T09:30:00.000Z`)
    expect(Date.parse(record.issued_at)).toBeLessThanOrEqual(Date.now())
    // First-guess arrivals: the steady ride the W′ balance allows, which spends the setup's W′
    // (20 kJ) above its CP (280 W) by the finish: (P − CP) × time = W′, to the watt; the plan's
    // rounds come with `iterate`, run by the job.
    const guess = record.arrival.first_guess
    expect(record.arrival).toMatchObject({ first_guess: { converged: true }, rounds: [] })
    expect(Math.abs((guess.power_w - 280) * guess.time_s - 20_000)).toBeLessThan(guess.time_s)
    expect(record.sensitivity.of).toBe('steady ride')
    expect(record.wind_height_factor).toBe(0.738)
    expect(record.sensitivity.min_s).toBeLessThan(record.sensitivity.base_s)
    expect(record.sensitivity.max_s).toBeGreaterThan(record.sensitivity.base_s)
    expect(record.strip).toHaveLength(100)
  })

  it('a run records the forecast and its range; without positions the typed inputs apply', async () => {
    const run = async (id: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: `/api/optimizations/${id}/run`,
        headers: auth,
      })
      const jobId = res.json().job_id as string
      const job = await eventually(async () => {
        const j = (
          await t.app.inject({ method: 'GET', url: `/api/jobs/${jobId}`, headers: auth })
        ).json()
        return ['succeeded', 'failed'].includes(j.state) && j
      }, 90_000)
      expect(job.state).toBe('succeeded')
      return (await storedResult(t.database.db, job.result_id)).result as {
        weather: Record<string, unknown>
        time_s: number
        series: { distance_m: number[]; time_s: number[] }
      }
    }
    // Four days ahead: days the first test did not cache, so the job must ask the stand-in (the
    // app's config, not process.env, points it there), once: every round reads that forecast.
    const asked = t.standIn.requests.length
    const later = new Date(Date.now() + 4 * 86_400_000).toISOString().slice(0, 10)
    const used = await run((await runnable(true, `${later}T09:30`)).optimization.id)
    expect(t.standIn.requests.length - asked).toBe(1)
    expect(used.weather.status).toBe('used')
    expect(used.weather.issued_at).toEqual(expect.any(String))
    // The stored result's weather is what the contract (@veloptima/contracts weather.ts) describes,
    // every field the contract keeps optional for older results included.
    const contract = raceDayWeatherSchema.parse(used.weather)
    expect(contract).toEqual(used.weather)
    expect(contract).toMatchObject({
      event_start: expect.any(String),
      utc_offset_s: 0,
      wind_height_factor: 0.738,
      points: expect.any(Array),
      arrival: {
        first_guess: expect.any(Object),
        rounds: expect.any(Array),
        converged: true,
      },
      sensitivity: { of: 'plan' },
    })
    // Arrival times from the plan: the first optimization used the steady ride's, each later
    // one the previous plan's, until the plan's own arrivals move less than the forecast resolves.
    // The stand-in's steepest value is its temperature (5 °C × sin(2π h / 24): 1.31 °C an hour at
    // most, reported to 0.1 °C, 0.1 °C more or less per hour from the rounding): a shift of
    // 0.1 / (1.31 + 0.1) to 0.1 / 1.31 hours, 255–275 s, changes no value by more than 0.1.
    const arrival = used.weather.arrival as {
      rounds: { arrivals: string; time_s: number; max_shift_s: number }[]
      converged: boolean
      tolerance_s: number
    }
    expect(arrival.tolerance_s).toBeGreaterThanOrEqual(255)
    expect(arrival.tolerance_s).toBeLessThanOrEqual(280)
    expect(arrival.rounds[0]!.arrivals).toBe('first-guess')
    expect(arrival.converged).toBe(true)
    // The steady ride at the constraint's own power puts the rider within that of the plan: one
    // optimization.
    expect(arrival.rounds).toHaveLength(1)
    const lastShift = arrival.rounds.at(-1)!.max_shift_s
    expect(lastShift).toBeLessThan(arrival.tolerance_s)
    expect(arrival.rounds.at(-1)!.time_s).toBeCloseTo(used.time_s, 0)
    // The strip's times are those the stored plan was optimized with: start + the plan's elapsed
    // time at the stretch (its series), within the last round's shift and half a stretch's riding.
    const startMs = Date.parse(used.weather.start_utc as string)
    const d = [0, ...used.series.distance_m]
    const el = [0, ...used.series.time_s]
    const elapsedAt = (x: number) => {
      let k = 0
      while (k < d.length - 2 && d[k + 1]! < x) k++
      return el[k]! + ((x - d[k]!) / (d[k + 1]! - d[k]!)) * (el[k + 1]! - el[k]!)
    }
    for (const s of used.weather.strip as { start_m: number; end_m: number; time: string }[]) {
      const expected = startMs / 1000 + elapsedAt((s.start_m + s.end_m) / 2)
      expect(Math.abs(Date.parse(s.time) / 1000 - expected)).toBeLessThan(lastShift + 15)
    }
    // The range is the plan's, ridden in the changed forecasts; the forecast as issued gives
    // the plan's own time back (the same powers, the same conditions).
    const sens = used.weather.sensitivity as {
      of: string
      base_s: number
      min_s: number
      max_s: number
    }
    expect(sens.of).toBe('plan')
    expect(Math.abs(sens.base_s - used.time_s)).toBeLessThan(2)
    expect(sens.min_s).toBeLessThan(sens.base_s)
    expect(sens.max_s).toBeGreaterThan(sens.base_s)
    // The map's points carry the wind met there.
    const points = used.weather.points as { lat: number; wind_speed_mps: number; time: string }[]
    expect(points).toHaveLength(6)
    for (const p of points) expect(p.wind_speed_mps).toBeGreaterThan(2 * 0.738)
    const none = await run((await runnable(false)).optimization.id)
    expect(none.weather).toMatchObject({ status: 'unavailable', reason: 'no_positions' })
    expect(raceDayWeatherSchema.parse(none.weather)).toEqual(none.weather)
    expect(none.weather.message).toMatch(/no positions/)
  })

  it('GET /api/weather/course/:id answers what the contract describes, used or unavailable', async () => {
    const get = async (courseId: string) => {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/weather/course/${courseId}?start=${eventStart}`,
        headers: auth,
      })
      expect(res.statusCode).toBe(200)
      return res.json() as unknown
    }
    const used = await get((await runnable()).course.id)
    const parsed = courseForecastSchema.parse(used)
    expect(parsed).toEqual(used)
    // Five stretches between the six forecast points, each with its middle's position.
    expect(parsed).toMatchObject({ status: 'used', start: eventStart, kind: 'forecast' })
    if (parsed.status !== 'used') throw new Error('expected the forecast in use')
    expect(parsed.stretches).toHaveLength(5)
    expect(parsed.stretches[0]!.lat).toBeGreaterThan(45)
    const none = await get((await runnable(false)).course.id)
    expect(courseForecastSchema.parse(none)).toMatchObject({
      status: 'unavailable',
      reason: 'no_positions',
    })
  })
})
