import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { PgBoss, fromPglite } from 'pg-boss'
import { eq } from 'drizzle-orm'
import { optimizationResults } from '@veloptima/db'
import { optimizePacing } from '@veloptima/engine'
import { OPTIMIZATION_RUN } from '../src/jobs/optimization-run.ts'
import {
  optimizerInputOf,
  parseOptimizerInput,
  type RunSnapshot,
} from '../src/jobs/engine-inputs.ts'
import type { PacingOutput } from '../src/jobs/tasks.ts'
import { startTestApp, type TestApp } from './helpers.ts'
import { createUser, tempDir } from './files-helpers.ts'
import { createRunnable, eventually, writtenBy } from './runs-helpers.ts'

describe('jobs: pg-boss queue, worker threads, progress, retries, exactly-once results', () => {
  let t: TestApp
  let auth: { authorization: string }

  beforeAll(async () => {
    t = await startTestApp({ FILES_DIR: tempDir('jobs') })
    await createUser(t.database, 'rider')
    auth = await t.bearer({ uid: 'rider', claims: { 'create:simulations': true } })
    await t.app.jobs.start({ workers: 1 })
  })
  afterAll(() => t.close())

  async function run(optimizationId: string) {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/optimizations/${optimizationId}/run`,
      headers: auth,
    })
    expect(res.statusCode).toBe(202)
    return res.json() as { job_id: string; result_id: string; version: number }
  }

  const jobState = async (id: string) =>
    (await t.app.inject({ method: 'GET', url: `/api/jobs/${id}`, headers: auth })).json()

  it('runs a job in a worker thread, reports progress over NOTIFY, and stores the engine result', async () => {
    const { optimization } = await createRunnable(t.database.db, { ownerUid: 'rider' })
    const progress: number[] = []
    const unlisten = await t.database.listen('veloptima_live', (payload) => {
      const event = JSON.parse(payload) as { t: string; id?: string }
      if (event.t === 'job') void jobState(event.id!).then((j) => progress.push(j.progress))
    })
    const { job_id, result_id } = await run(optimization.id)
    const done = await eventually(async () => {
      const job = await jobState(job_id)
      return job.state === 'succeeded' && job
    })
    await unlisten()
    expect(done).toMatchObject({ state: 'succeeded', progress: 100, attempts: 1, result_id })
    expect(progress.some((p) => p > 0 && p < 100)).toBe(true)

    const { results, exportFiles, notifications } = await writtenBy(t.database.db, job_id, 'rider')
    expect(results).toHaveLength(1)
    const result = results[0]!
    expect(result.status).toBe('succeeded')
    // The job computes exactly what the engine computes for the snapshot it stored.
    const snapshot = result.inputs as unknown as RunSnapshot
    const direct = optimizePacing(parseOptimizerInput(optimizerInputOf(snapshot)).input)
    const output = result.result as unknown as PacingOutput
    expect(output).toMatchObject({ type: 'pacing', status: 'optimal' })
    expect(output.optimal_time_s).toBe(direct.timeS)
    // The optimizer's promises: never slower than the best constant power, W′ never below zero
    // (W′ balance constraint), and a plan whose sections tile the course and add up to its time.
    expect(output.optimal_time_saved_s!).toBeGreaterThanOrEqual(0)
    expect(output.min_w_prime_balance_j!).toBeGreaterThanOrEqual(-1)
    expect(output.plan.length).toBeGreaterThan(1)
    // at most 12 target powers (the default), each over one or more sections
    expect(output.targets.length).toBeLessThanOrEqual(12)
    expect(output.plan[0]!.start_m).toBe(0)
    expect(output.plan.at(-1)!.end_m).toBeCloseTo(20_000, 0)
    const total = output.plan.reduce((sum, p) => sum + p.duration_s, 0)
    expect(total).toBeCloseTo(output.time_s, -1)
    expect(exportFiles).toHaveLength(1)
    expect(notifications).toHaveLength(1)
    expect(notifications[0]).toMatchObject({
      title: 'Optimization ready',
      downloadBlob: exportFiles[0]!.id,
    })
  })

  it('retries with backoff after the worker thread is killed mid-job, and completes exactly once', async () => {
    const { optimization } = await createRunnable(t.database.db, { ownerUid: 'rider' })
    const pool = t.app.jobs.pool!
    const threadsBefore = pool.started
    let killedAt = 0
    pool.once('progress', ({ runId }) => {
      killedAt = Date.now()
      void pool.kill(runId)
    })
    const { job_id } = await run(optimization.id)
    const retrying = await eventually(
      async () => {
        const job = await jobState(job_id)
        return job.state === 'queued' && job.attempts === 1 && job
      },
      30_000,
      'the failed attempt',
    )
    expect(retrying.message).toMatch(
      /Attempt 1 failed \(The worker thread running pacing was killed\.\)/,
    )
    // The result version shows the progress its job had reached.
    const [during] = await t.database.db
      .select()
      .from(optimizationResults)
      .where(eq(optimizationResults.jobId, job_id))
    expect(during!.status).toBe('running')
    expect(during!.progress).toBeGreaterThan(0)
    const done = await eventually(
      async () => {
        const job = await jobState(job_id)
        return job.state === 'succeeded' && job
      },
      60_000,
      'the retry',
    )
    expect(killedAt).toBeGreaterThan(0)
    expect(Date.now() - killedAt).toBeGreaterThanOrEqual(2000) // retryDelay 2 s with backoff
    expect(done.attempts).toBe(2)
    expect(pool.started).toBe(threadsBefore + 1) // a fresh thread replaced the killed one

    // pg-boss records the completion just after the result is stored: wait for its record.
    const boss = await eventually(
      async () => {
        const job = await t.app.jobs.bossJob(OPTIMIZATION_RUN, job_id)
        return job?.state !== 'active' && job
      },
      10_000,
      'pg-boss to record the completion',
    )
    expect(boss).toMatchObject({ state: 'completed', retryCount: 1 })
    const written = await writtenBy(t.database.db, job_id, 'rider')
    expect(written.results).toHaveLength(1)
    expect(written.results[0]!.status).toBe('succeeded')
    expect(written.exportFiles).toHaveLength(1)
    expect(written.notifications).toHaveLength(1)
  })

  it('a second delivery of a finished job (at-least-once queue) writes nothing twice', async () => {
    const { optimization } = await createRunnable(t.database.db, { ownerUid: 'rider' })
    const { job_id } = await run(optimization.id)
    await eventually(async () => (await jobState(job_id)).state === 'succeeded')
    const before = await writtenBy(t.database.db, job_id, 'rider')

    // Deliver the same job again, as pg-boss would after a crash between our commit and its own.
    const boss =
      t.database.driver === 'pglite'
        ? new PgBoss({ db: fromPglite(t.database.pglite!), backend: 'pglite' })
        : new PgBoss({ connectionString: t.database.pool!.options.connectionString!, max: 1 })
    await boss.start()
    const again = randomUUID()
    await boss.send(OPTIMIZATION_RUN, { jobId: job_id }, { id: again })
    await eventually(
      async () => (await boss.getJobById(OPTIMIZATION_RUN, again))?.state === 'completed',
    )
    await boss.stop({ graceful: false })

    const after = await writtenBy(t.database.db, job_id, 'rider')
    expect(after.results.map((r) => r.id)).toEqual(before.results.map((r) => r.id))
    expect(after.results[0]!.finishedAt).toEqual(before.results[0]!.finishedAt)
    expect(after.exportFiles).toHaveLength(1)
    expect(after.notifications).toHaveLength(1)
  })

  const cancel = (id: string, headers = auth) =>
    t.app.inject({ method: 'POST', url: `/api/jobs/${id}/cancel`, headers })

  it('cancels a running job: its thread stops, nothing is written, it is not retried', async () => {
    const { optimization } = await createRunnable(t.database.db, { ownerUid: 'rider' })
    const pool = t.app.jobs.pool!
    const answer = new Promise<{ statusCode: number; json(): { state: string } }>((resolve) => {
      // At the task's first progress report, i.e. in the middle of the job.
      pool.once('progress', () => void cancel(jobId).then(resolve))
    })
    const { job_id: jobId } = await run(optimization.id)
    const res = await answer
    expect(res.statusCode).toBe(200)
    expect(res.json().state).toBe('cancelled')
    await eventually(async () => pool.running().length === 0)
    await eventually(
      async () => (await t.app.jobs.bossJob(OPTIMIZATION_RUN, jobId))?.state === 'cancelled',
    )
    await new Promise((r) => setTimeout(r, 3000)) // longer than the first retry delay
    const job = await jobState(jobId)
    expect(job).toMatchObject({ state: 'cancelled', attempts: 1 })
    const written = await writtenBy(t.database.db, jobId, 'rider')
    expect(written.results[0]!.status).toBe('cancelled')
    expect(written.results[0]!.result).toBeNull()
    expect(written.exportFiles).toHaveLength(0)
    expect(written.notifications).toHaveLength(0)
  })

  it('cancels a job before a worker takes it; a finished job cannot be cancelled', async () => {
    const { optimization } = await createRunnable(t.database.db, { ownerUid: 'rider' })
    const { job_id } = await run(optimization.id)
    const res = await cancel(job_id)
    expect(res.statusCode).toBe(200)
    await new Promise((r) => setTimeout(r, 1000))
    expect((await jobState(job_id)).state).toBe('cancelled')
    expect((await writtenBy(t.database.db, job_id, 'rider')).exportFiles).toHaveLength(0)

    const done = await run(optimization.id)
    await eventually(async () => (await jobState(done.job_id)).state === 'succeeded')
    const late = await cancel(done.job_id)
    expect(late.statusCode).toBe(409)
    expect(late.json()).toMatchObject({ code: 'job-finished' })
    expect(late.json().message).toBe('This job has already succeeded: nothing to cancel.')
  })

  it("answers 404 for someone else's job and for an unknown id", async () => {
    const { optimization } = await createRunnable(t.database.db, { ownerUid: 'rider' })
    const { job_id } = await run(optimization.id)
    await createUser(t.database, 'other')
    const other = await t.bearer({ uid: 'other', claims: { 'create:simulations': true } })
    for (const id of [job_id, randomUUID(), 'nope']) {
      const res = await t.app.inject({ method: 'GET', url: `/api/jobs/${id}`, headers: other })
      expect(res.statusCode).toBe(404)
    }
    expect((await cancel(job_id, other)).statusCode).toBe(404)
    await eventually(async () => (await jobState(job_id)).state === 'succeeded')
  })
})
