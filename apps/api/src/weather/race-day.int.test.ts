// Race-day weather in an optimization run, against the local Open-Meteo stand-in: an optimization
// with an event start gets the forecast's per-segment wind and air (manual stretches win), the
// result records the forecast's issue time and the sensitivity range; without positions or
// without the provider, the typed inputs apply and the result says why.
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { courses, optimizationResults } from '@veloptima/db'
import { startTestApp, type TestApp } from '../../test/helpers.ts'
import { createUser, tempDir } from '../../test/files-helpers.ts'
import { createRunnable, eventually } from '../../test/runs-helpers.ts'
import { optimizerInputOf, snapshotOf } from '../jobs/engine-inputs.ts'
import { RaceDayWeather } from './race-day.ts'
import { WeatherSource } from './source.ts'
import { startOpenMeteoStandIn, type StandIn } from './stand-in.ts'

let t: TestApp
let standIn: StandIn
let auth: { authorization: string }
// Tomorrow 09:30 local (the stand-in's zone at 6° E is UTC+0).
const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
const eventStart = `${tomorrow}T09:30`
// The test course is 200 × 100 m; its positions run north from 45.00° N, 6.00° E.
const track = { lat: [45, 45.09], lon: [6, 6], ele: [300, 300], distance: [0, 20_000] }

beforeAll(async () => {
  standIn = await startOpenMeteoStandIn()
  process.env.WEATHER_URL = standIn.url
  process.env.WEATHER_PROVIDER = 'open-meteo' // vitest.config.ts turns it off for every other test
  t = await startTestApp({ FILES_DIR: tempDir('race-day') })
  await createUser(t.database, 'rider')
  auth = await t.bearer({ uid: 'rider', claims: { 'create:simulations': true } })
  await t.app.jobs.start({ workers: 1 })
})
afterAll(async () => {
  await t.close()
  await standIn.close()
  delete process.env.WEATHER_URL
  process.env.WEATHER_PROVIDER = 'none'
})

const manual = { start_m: 0, end_m: 8000, wind_speed_mps: 5, wind_from_deg: 90 }
async function runnable(withTrack = true) {
  const r = await createRunnable(
    t.database.db,
    { ownerUid: 'rider' },
    {
      constraint: { type: 'w_prime_balance' },
      max_targets: 6,
      environment: { event_start: eventStart, wind_segments: [manual] },
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
        WEATHER_URL: standIn.url,
      }),
    )
    standIn.requests.length = 0
    const out = (await weather.forRun(snapshot, optimizerInputOf(snapshot)))!
    expect(out.record.status).toBe('used')
    // One batched request for the six points along the course.
    expect(standIn.requests).toHaveLength(1)
    expect(standIn.requests[0]!.searchParams.get('latitude')!.split(',')).toHaveLength(6)
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
    // 10 m, × 0.604 at rider height) on every segment.
    expect(env.wind_segments.filter((w) => w.start_m < 8000)).toEqual([manual])
    const forecast = env.wind_segments.filter((w) => w.start_m >= 8000)
    expect(forecast).toHaveLength(120)
    for (const w of forecast) {
      expect(w.wind_speed_mps).toBeGreaterThan(2 * 0.6)
      expect(w.wind_speed_mps).toBeLessThan(6 * 0.61)
    }
    expect(env.air_segments).toHaveLength(200)
    const record = out.record as {
      start_utc: string
      issued_at: string
      arrival: { converged: boolean; power_w: number }
      sensitivity: { base_s: number; min_s: number; max_s: number }
      strip: unknown[]
    }
    expect(record.start_utc).toBe(`${tomorrow}T09:30:00.000Z`)
    expect(Date.parse(record.issued_at)).toBeLessThanOrEqual(Date.now())
    expect(record.arrival).toMatchObject({ converged: true, power_w: 252 })
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
      const [row] = await t.database.db
        .select()
        .from(optimizationResults)
        .where(eq(optimizationResults.id, job.result_id))
      return row!.result as { weather: Record<string, unknown>; time_s: number }
    }
    const used = await run((await runnable()).optimization.id)
    expect(used.weather.status).toBe('used')
    expect(used.weather.issued_at).toEqual(expect.any(String))
    const none = await run((await runnable(false)).optimization.id)
    expect(none.weather).toMatchObject({ status: 'unavailable', reason: 'no_positions' })
    expect(none.weather.message).toMatch(/no positions/)
  })
})
