import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { notifications, optimizationResults, optimizations, riderSetups, rows } from '@veloptima/db'
import type { EquipmentOutput, PacingOutput } from '../src/jobs/tasks.ts'
import { suiteApp } from './helpers.ts'
import { createUser, postFile, tempDir } from './files-helpers.ts'
import { createRunnable, settledJob, storedResult } from './runs-helpers.ts'
import { syntheticClimb } from '../../../packages/formats/test/fixtures/synthetic-climb.ts'

// The self-made climb (9 km, its ascent by construction), uploaded as a user uploads a GPX.
const climb = syntheticClimb('Test climb')

const SIM = { 'create:simulations': true }

describe('optimization runs on a climb: results, CSV export, notification', () => {
  const t = suiteApp({ FILES_DIR: tempDir('runs') })
  let auth: { authorization: string }
  let courseId: string

  beforeAll(async () => {
    await createUser(t.database, 'rider')
    await createUser(t.database, 'other')
    auth = await t.bearer({ uid: 'rider', claims: SIM })
    await t.app.jobs.start({ workers: 1 })
    const gpx = Buffer.from(climb.gpx)
    const res = await postFile(t.app, '/api/courses/import', auth, 'test-climb.gpx', gpx)
    expect(res.statusCode).toBe(201)
    courseId = res.json().id
  })

  /** A new optimization of `rider` on the climb with these inputs. */
  async function optimizationWith(inputs: Record<string, unknown>, type = 'pacing') {
    const { optimization } = await createRunnable(t.database.db, { ownerUid: 'rider' }, inputs)
    await t.database.db
      .update(optimizations)
      .set({ courseId, type: type as 'pacing' | 'equipment' })
      .where(eq(optimizations.id, optimization.id))
    return optimization
  }

  const post = (id: string, headers = auth) =>
    t.app.inject({ method: 'POST', url: `/api/optimizations/${id}/run`, headers })

  const finished = (jobId: string) => settledJob(t.app, jobId, auth)

  const countRows = async () =>
    (
      await rows<{ results: number; jobs: number }>(
        t.database.db,
        sql`select (select count(*)::int from optimization_results) as results, (select count(*)::int from jobs) as jobs`,
      )
    )[0]!

  it('runs a pacing optimization: a result version, the plan as CSV, "Optimization ready"', async () => {
    const optimization = await optimizationWith({ constraint: { type: 'w_prime_balance' } })
    const res = await post(optimization.id)
    expect(res.statusCode).toBe(202)
    expect(res.json()).toMatchObject({ version: 1, state: 'queued' })
    const job = await finished(res.json().job_id)
    expect(job).toMatchObject({ state: 'succeeded', progress: 100 })

    const result = await storedResult(t.database.db, job.result_id)
    const output = result.result as unknown as PacingOutput
    expect(output.status).toBe('optimal')
    // Lifting rider, bike and kit (79 kg) up the climb's ascent at the plan's highest power is a
    // floor on the time (energy conservation); a 9 km climb of ~6 % takes well under an hour.
    const maxW = Math.max(...output.series!.power_w)
    expect(output.time_s).toBeGreaterThan((79 * 9.80665 * climb.ascentM) / (maxW * 0.976))
    expect(output.time_s).toBeLessThan(60 * 60)
    expect(output.optimal_time_saved_s!).toBeGreaterThanOrEqual(0)
    expect(output.time_saved_s).toBeCloseTo(output.baseline!.time_s - output.time_s, 6)
    // The rideable plan (at most 12 targets) stays within 0.5 % of the per-segment optimum.
    expect(output.time_s / output.optimal_time_s).toBeLessThan(1.005)
    expect(output.series!.distance_m.length).toBe(output.series!.power_w.length)

    const [note] = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.uid, 'rider'))
    expect(note).toMatchObject({ title: 'Optimization ready', type: 'success', showed: false })
    expect(note!.text).toMatch(
      /^Test pacing \(v1\) on Test climb: (\d+ h )?\d+ min( \d+ s)? predicted, .* steady \d+ W/,
    )
    expect(note!.downloadBlob).toBe(job.export_file_id)

    // The notification's link: a signed URL for its download_blob, then the CSV itself.
    const link = await t.app.inject({
      method: 'GET',
      url: `/api/files/${note!.downloadBlob}/download-url`,
      headers: auth,
    })
    const u = new URL(link.json().url)
    const csv = await t.app.inject({ method: 'GET', url: `${u.pathname}${u.search}` })
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8')
    expect(csv.headers['content-disposition']).toContain('Test pacing')
    const lines = csv.payload.trim().split('\r\n')
    expect(lines[0]).toBe(
      'section,start_km,end_km,terrain,grade_pct,target_power_w,speed_kmh,section_time_s,elapsed_s,elapsed,target',
    )
    expect(lines).toHaveLength(output.plan.length + 1)
    const firstRow = lines[1]!.split(',')
    expect(Number(firstRow[5])).toBe(Math.round(output.plan[0]!.power_w))
  })

  it('keeps every run as a new version with its own inputs snapshot', async () => {
    const optimization = await optimizationWith({ constraint: { type: 'w_prime_balance' } })
    const first = (await post(optimization.id)).json()
    await finished(first.job_id)
    await t.database.db
      .update(riderSetups)
      .set({ riderMass: 80 })
      .where(eq(riderSetups.id, optimization.riderSetupId!))
    const second = (await post(optimization.id)).json()
    expect(second.version).toBe(2)
    await finished(second.job_id)
    const versions = await t.database.db
      .select()
      .from(optimizationResults)
      .where(eq(optimizationResults.optimizationId, optimization.id))
    const byVersion = new Map(versions.map((v) => [v.version, v]))
    const mass = (v: number) =>
      (byVersion.get(v)!.inputs as { rider_setup: { riderMass: number } }).rider_setup.riderMass
    expect(mass(1)).toBe(70)
    expect(mass(2)).toBe(80)
    const time = (v: number) => (byVersion.get(v)!.result as { time_s: number }).time_s
    expect(time(2)).toBeGreaterThan(time(1)) // 10 kg more up the climb is slower
  })

  it('numbers runs started at the same moment 1, 2, 3', async () => {
    const optimization = await optimizationWith({ max_targets: 3 })
    const answers = await Promise.all([1, 2, 3].map(() => post(optimization.id)))
    expect(answers.map((a) => a.statusCode)).toEqual([202, 202, 202])
    expect(answers.map((a) => a.json().version).sort()).toEqual([1, 2, 3])
    for (const a of answers) expect((await finished(a.json().job_id)).state).toBe('succeeded')
  })

  it('runs an equipment optimization with two wheel options and ranks them', async () => {
    const optimization = await optimizationWith(
      {
        constraint: { type: 'w_prime_balance' },
        environment: { temperature_c: 15, altitude_m: 700, wind_speed_mps: 4, wind_from_deg: 200 },
        // As the optimization form stores them: the first option of a group is the baseline.
        equipment: {
          groups: [
            {
              name: 'wheels',
              options: [
                { name: 'Alloy box rims', cda_delta: 0, mass_delta: 0, crr_factor: 1 },
                { name: 'Deep carbon', cda_delta: -0.012, mass_delta: -0.3, crr_factor: 1 },
              ],
            },
          ],
        },
      },
      'equipment',
    )
    const job = await finished((await post(optimization.id)).json().job_id)
    expect(job.state).toBe('succeeded')
    const output = (await storedResult(t.database.db, job.result_id))
      .result as unknown as EquipmentOutput
    expect(output.type).toBe('equipment')
    expect(output.ranking).toHaveLength(2)
    // Less drag and less mass: the deep wheels win, and the baseline's delta is zero.
    expect(output.ranking[0]!.choices).toEqual({ wheels: 'Deep carbon' })
    expect(output.ranking[0]!.delta_s).toBeLessThan(0)
    expect(output.ranking[1]!.delta_s).toBe(0)
    expect(output.best.plan.length).toBeGreaterThan(0)
  })

  it('runs when the setup has no max power (the ceiling is then 2 × CP, as in the preview)', async () => {
    const optimization = await optimizationWith({ max_targets: 5 })
    await t.database.db
      .update(riderSetups)
      .set({ maxPower: null })
      .where(eq(riderSetups.id, optimization.riderSetupId!))
    const job = await finished((await post(optimization.id)).json().job_id)
    expect(job.state).toBe('succeeded')
    const output = (await storedResult(t.database.db, job.result_id))
      .result as unknown as PacingOutput
    expect(output.targets.length).toBeLessThanOrEqual(5)
    expect(Math.max(...output.series!.power_w)).toBeLessThanOrEqual(560 + 1e-6)
  })

  it('refuses bad inputs with a message naming the field, writing nothing', async () => {
    const before = await countRows()
    const optimization = await optimizationWith({ constraint: { type: 'w_prime_balance' } })
    await t.database.db
      .update(riderSetups)
      .set({ riderMass: -5, extraMass: 0 })
      .where(eq(riderSetups.id, optimization.riderSetupId!))
    const res = await post(optimization.id)
    expect(res.statusCode).toBe(400)
    expect(res.json().code).toBe('invalid-inputs')
    expect(res.json().message).toMatch(/rider\.mass_kg: expected a number .*got -5/)

    const noSetup = await optimizationWith({})
    await t.database.db
      .update(optimizations)
      .set({ riderSetupId: null })
      .where(eq(optimizations.id, noSetup.id))
    const res2 = await post(noSetup.id)
    expect(res2.statusCode).toBe(400)
    expect(res2.json()).toMatchObject({ code: 'optimization-incomplete' })

    const unknownConstraint = await optimizationWith({ constraint: { type: 'fastest' } })
    const res3 = await post(unknownConstraint.id)
    expect(res3.statusCode).toBe(400)
    expect(res3.json().message).toMatch(/constraint\.type/)
    expect(await countRows()).toEqual(before)
  })

  it('fails an infeasible constraint with a clear message: no result, no export, a notice', async () => {
    // 40 W on average cannot get a 79 kg rider up 8 % grades: the ride stalls.
    const optimization = await optimizationWith({
      constraint: { type: 'average_power', power_w: 40 },
      min_power_w: 0,
    })
    const res = await post(optimization.id)
    expect(res.statusCode).toBe(202)
    const job = await finished(res.json().job_id)
    expect(job).toMatchObject({ state: 'failed', error: { code: 'infeasible' }, attempts: 1 })
    expect(job.error.message).toMatch(/^The constraint cannot be met: /)
    const [result] = await t.database.db
      .select()
      .from(optimizationResults)
      .where(eq(optimizationResults.jobId, job.id))
    expect(result).toMatchObject({ status: 'failed', exportFileId: null, result: null })
    const notes = await t.database.db
      .select()
      .from(notifications)
      .where(eq(notifications.title, 'Optimization failed'))
    expect(
      notes.filter((n) => (n.data as { result_id?: string }).result_id === result!.id),
    ).toHaveLength(1)
  })

  it("answers 404 for someone else's optimization and needs the simulations claim", async () => {
    const { optimization } = await createRunnable(t.database.db, { ownerUid: 'other' })
    expect((await post(optimization.id)).statusCode).toBe(404)
    expect((await post('not-a-uuid')).statusCode).toBe(404)
    const noClaim = await t.bearer({ uid: 'rider', claims: {} })
    const mine = await optimizationWith({})
    const res = await post(mine.id, noClaim)
    expect(res.statusCode).toBe(403)
    expect(res.json().code).toBe('missing-claim')
  })
})
