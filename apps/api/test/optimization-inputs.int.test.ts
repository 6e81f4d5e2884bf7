// The stored inputs take effect in a run: a rider_override, wind per stretch and the setup's
// positions by speed reach the engine; the result's snapshot records the setup that produced it
// (the saved setup is untouched); a bad override is refused on save (400 naming the field) and,
// if stored anyway, when the run starts.
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { optimizations, riderSetups } from '@veloptima/db'
import type { PacingOutput } from '../src/jobs/tasks.ts'
import { suiteApp } from './helpers.ts'
import { createUser, tempDir } from './files-helpers.ts'
import { createRunnable, settledJob, storedResult } from './runs-helpers.ts'

describe('optimization inputs: override, wind per stretch, positions', () => {
  const t = suiteApp({ FILES_DIR: tempDir('optimization-inputs') })
  let auth: { authorization: string }

  beforeAll(async () => {
    await createUser(t.database, 'rider')
    auth = await t.bearer({ uid: 'rider', claims: { 'create:simulations': true } })
    await t.app.jobs.start({ workers: 1 })
  })

  const run = (id: string) =>
    t.app.inject({ method: 'POST', url: `/api/optimizations/${id}/run`, headers: auth })

  const finished = (jobId: string) => settledJob(t.app, jobId, auth)

  it('refuses a bad override when the optimization is saved, naming the field and value', async () => {
    const { optimization } = await createRunnable(t.database.db, { ownerUid: 'rider' })
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/optimizations/${optimization.id}`,
      headers: auth,
      payload: { inputs: { rider_override: { rider_mass: -5 } } },
    })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toMatch(/inputs\.rider_override\.rider_mass: .*\(got -5\)/)
  })

  it('refuses a stored bad override when the run starts, writing nothing', async () => {
    const { optimization } = await createRunnable(
      t.database.db,
      { ownerUid: 'rider' },
      {
        rider_override: { rider_mass: -5 },
      },
    )
    const res = await run(optimization.id)
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('invalid-inputs')
    expect(res.json().message).toMatch(/rider_override\.rider_mass: .*got -5/)
  })

  it('runs with the override, the wind stretches and two positions; the snapshot shows them', async () => {
    const { optimization, setup } = await createRunnable(t.database.db, { ownerUid: 'rider' })
    const inputs = {
      constraint: { type: 'w_prime_balance' },
      max_targets: 8,
      environment: {
        event_start: '2026-07-14T09:30',
        wind_segments: [{ start_m: 0, end_m: 8000, wind_speed_mps: 5, wind_from_deg: 90 }],
      },
      rider_override: {
        rider_mass: 62,
        positions: [
          { name: 'aero', cda: 0.24, min_speed: 25 / 3.6, max_speed: 30 },
          { name: 'hoods', cda: 0.32, min_speed: 0, max_speed: 25 / 3.6 },
        ],
      },
    }
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `/api/optimizations/${optimization.id}`,
      headers: auth,
      payload: { inputs },
    })
    expect(patch.statusCode).toBe(200)
    const job = await finished((await run(optimization.id)).json().job_id)
    expect(job.state).toBe('succeeded')
    const result = await storedResult(t.database.db, job.result_id)
    const snapshot = result.inputs as {
      rider_setup: { riderMass: number; bikeMass: number; positions: unknown[] }
      optimization: { inputs: unknown }
    }
    // the setup that produced the result: the override's values, the saved setup's others
    expect(snapshot.rider_setup.riderMass).toBe(62)
    expect(snapshot.rider_setup.bikeMass).toBe(8)
    expect(snapshot.rider_setup.positions).toEqual(inputs.rider_override.positions)
    expect(snapshot.optimization.inputs).toEqual(inputs)
    const [saved] = await t.database.db
      .select()
      .from(riderSetups)
      .where(eq(riderSetups.id, setup.id))
    expect(saved!.riderMass).toBe(70)
    // both positions are ridden on the rolling course (−4 % to +6 %), each section names one
    const output = result.result as unknown as PacingOutput
    expect(output.positions).toEqual(['aero', 'hoods'])
    expect(new Set(output.segment_position)).toEqual(new Set([0, 1]))
    for (const s of output.plan) expect(['aero', 'hoods']).toContain(s.position)
    const [row] = await t.database.db
      .select()
      .from(optimizations)
      .where(eq(optimizations.id, optimization.id))
    expect(row!.inputs).toEqual(inputs)
  })
})
