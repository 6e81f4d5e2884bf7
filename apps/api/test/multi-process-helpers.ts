// Jobs for the multi-process test (multi-process.int.test.ts): optimizations made in the
// database and queued through the API (POST /api/optimizations/:id/run) at a given address.
import { eq } from 'drizzle-orm'
import { jobs, optimizations, type Db } from '@veloptima/db'
import { createRunnable, eventually, LONG_EQUIPMENT, syntheticSegments } from './runs-helpers.ts'

export type Queued = { jobId: string; resultId: string }

/** POST /api/optimizations/:id/run at `apiUrl` (a process or the balancer); expects 202. */
export async function run(apiUrl: string, token: string, optimizationId: string): Promise<Queued> {
  const res = await fetch(`${apiUrl}/api/optimizations/${optimizationId}/run`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  })
  if (res.status !== 202) {
    throw new Error(`run ${optimizationId} at ${apiUrl}: ${res.status} ${await res.text()}`)
  }
  const body = (await res.json()) as { job_id: string; result_id: string }
  return { jobId: body.job_id, resultId: body.result_id }
}

/** A short pacing optimization (60 segments) of `uid`, queued at `apiUrl`. */
export async function queueShort(db: Db, uid: string, apiUrl: string, token: string) {
  const { optimization } = await createRunnable(
    db,
    { ownerUid: uid },
    { constraint: { type: 'w_prime_balance' } },
    syntheticSegments(60),
  )
  return run(apiUrl, token, optimization.id)
}

/**
 * An equipment optimization over 500 km and four combinations (as jobs-crash.int.test.ts): a job
 * that runs for seconds, so that its worker can be stopped in the middle of it.
 */
export async function queueLong(db: Db, uid: string, apiUrl: string, token: string) {
  const { optimization } = await createRunnable(
    db,
    { ownerUid: uid },
    LONG_EQUIPMENT,
    syntheticSegments(5000),
  )
  await db
    .update(optimizations)
    .set({ type: 'equipment' })
    .where(eq(optimizations.id, optimization.id))
  return run(apiUrl, token, optimization.id)
}

/** Waits until the job succeeded (throws when it failed); its row. */
export function succeeded(db: Db, jobId: string, ms = 120_000) {
  return eventually(
    async () => {
      const [row] = await db.select().from(jobs).where(eq(jobs.id, jobId))
      if (row?.status === 'failed') throw new Error(`job ${jobId} failed: ${JSON.stringify(row)}`)
      return row?.status === 'succeeded' && row
    },
    ms,
    `job ${jobId} to succeed`,
  )
}
