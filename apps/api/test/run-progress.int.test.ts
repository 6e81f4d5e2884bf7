// A run's progress moves through named stages: what GET /api/jobs/:id answers each time the jobs
// trigger NOTIFYs a change of the row, for a run with race-day weather (the local Open-Meteo
// stand-in): the forecast, then the optimization's round, then the rideable plan and storing,
// in that order, the bar never going back.
import { beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { courses } from '@veloptima/db'
import { createRunnable, eventually } from './runs-helpers.ts'
import { suiteWeatherApp } from './weather-fixture.ts'

const STAGES = [
  'Preparing the inputs',
  'Reading the race-day forecast',
  'Optimizing the pacing, round 1 of at most 4',
  'Optimizing the pacing, round 2 of at most 4',
  'Optimizing the pacing, round 3 of at most 4',
  'Optimizing the pacing, round 4 of at most 4',
  'The rideable plan: its time in the forecast’s spread',
  'The rideable plan: writing its export',
  'Storing the result',
]

const t = suiteWeatherApp('run-progress')
let auth: { authorization: string }

beforeAll(async () => {
  auth = await t.signIn({ uid: 'rider', claims: { 'create:simulations': true } })
  await t.app.jobs.start({ workers: 1 })
})

describe('the progress of a run', () => {
  it('moves through the forecast, the optimization’s round, the plan and storing, never back', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
    const { optimization, course } = await createRunnable(
      t.database.db,
      { ownerUid: 'rider' },
      {
        constraint: { type: 'w_prime_balance' },
        environment: { event_start: `${tomorrow}T09:30` },
      },
    )
    // Positions for the forecast: 20 km due north from 45° N, 6° E.
    await t.database.db
      .update(courses)
      .set({ track: { lat: [45, 45.18], lon: [6, 6], ele: [300, 300], distance: [0, 20_000] } })
      .where(eq(courses.id, course.id))
    const seen: { progress: number; message: string | null; state: string }[] = []
    let jobId = ''
    const unlisten = await t.database.listen('veloptima_live', (payload) => {
      const event = JSON.parse(payload) as { t: string; id?: string }
      if (event.t !== 'job' || event.id !== jobId) return
      void t.app
        .inject({ method: 'GET', url: `/api/jobs/${jobId}`, headers: auth })
        .then((res) => seen.push(res.json()))
    })
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/optimizations/${optimization.id}/run`,
      headers: auth,
    })
    jobId = (res.json() as { job_id: string }).job_id
    await eventually(async () => seen.some((s) => s.state === 'succeeded'), 60_000, 'the run')
    await unlisten()

    // (A job just taken has no message yet: 0 %.)
    const running = seen.filter((s) => s.state === 'running' && s.message !== null)
    const stages = running.map((s) => s.message).filter((m, i, all) => m !== all[i - 1])
    // Each one a named stage, in their order.
    for (const stage of stages) expect(STAGES).toContain(stage)
    const order = stages.map((s) => STAGES.indexOf(s!))
    expect(order).toEqual([...order].sort((a, b) => a - b))
    // The forecast's fetch and the optimization last long enough to be seen every time.
    expect(stages).toContain('Reading the race-day forecast')
    expect(stages).toContain('Optimizing the pacing, round 1 of at most 4')
    // The bar moves forward only, from the first stage's few percent to the last one's.
    const progress = running.map((s) => s.progress)
    expect(progress).toEqual([...progress].sort((a, b) => a - b))
    expect(new Set(progress).size).toBeGreaterThanOrEqual(3)
    expect(seen.at(-1)).toMatchObject({ state: 'succeeded', progress: 100 })
  })
})
