// The states of an optimization run's result version: queued, running, then succeeded, failed or
// cancelled (a finished version never changes state again).
import { and, eq, inArray, sql } from 'drizzle-orm'
import { optimizationResults, type Db, type JsonObject } from '@veloptima/db'
import type { ResultRow } from './results.ts'

/** Adds the next version of an optimization's results (queued); answers its version number. */
export async function insertResultVersion(
  db: Db,
  values: Omit<typeof optimizationResults.$inferInsert, 'version' | 'status'>,
): Promise<number> {
  const [row] = await db
    .select({ v: sql<number>`coalesce(max(${optimizationResults.version}), 0)::int` })
    .from(optimizationResults)
    .where(eq(optimizationResults.optimizationId, values.optimizationId))
  const version = Number(row?.v ?? 0) + 1
  await db.insert(optimizationResults).values({ ...values, version, status: 'queued' })
  return version
}

export async function resultOfJob(db: Db, jobId: string): Promise<ResultRow | undefined> {
  const [row] = await db
    .select()
    .from(optimizationResults)
    .where(eq(optimizationResults.jobId, jobId))
  return row
}

const unfinished = () => inArray(optimizationResults.status, ['queued', 'running'])

export async function markResultRunning(db: Db, id: string): Promise<void> {
  await db
    .update(optimizationResults)
    .set({ status: 'running', startedAt: sql`coalesce(${optimizationResults.startedAt}, now())` })
    .where(and(eq(optimizationResults.id, id), unfinished()))
}

/** The progress of a job's running result version. */
export async function recordResultProgress(db: Db, jobId: string, progress: number) {
  await db
    .update(optimizationResults)
    .set({ progress })
    .where(and(eq(optimizationResults.jobId, jobId), eq(optimizationResults.status, 'running')))
}

/** Cancels a job's unfinished result version. */
export async function cancelResultOfJob(db: Db, jobId: string): Promise<void> {
  await db
    .update(optimizationResults)
    .set({ status: 'cancelled', finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(optimizationResults.jobId, jobId), unfinished()))
}

/** Stores the result of an unfinished version; false when it had finished meanwhile. */
export async function markResultSucceeded(db: Db, id: string, result: JsonObject) {
  const done = await db
    .update(optimizationResults)
    .set({
      status: 'succeeded',
      progress: 100,
      result,
      error: null,
      finishedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(optimizationResults.id, id), unfinished()))
    .returning({ id: optimizationResults.id })
  return done.length > 0
}

export async function setResultExport(db: Db, id: string, fileId: string): Promise<void> {
  await db
    .update(optimizationResults)
    .set({ exportFileId: fileId })
    .where(eq(optimizationResults.id, id))
}

/** Fails an unfinished version; false when it had finished meanwhile. */
export async function markResultFailed(
  db: Db,
  id: string,
  error: { code: string; message: string },
): Promise<boolean> {
  const failed = await db
    .update(optimizationResults)
    .set({ status: 'failed', error, finishedAt: sql`now()`, updatedAt: sql`now()` })
    .where(and(eq(optimizationResults.id, id), unfinished()))
    .returning({ id: optimizationResults.id })
  return failed.length > 0
}
