import { and, eq, inArray, or, sql } from 'drizzle-orm'
import { jobs, teamMembers, type Db } from '@veloptima/db'
import type { JsonObject } from '@veloptima/db'

export type JobRow = typeof jobs.$inferSelect
export type NewJobRow = typeof jobs.$inferInsert

export async function insertJob(db: Db, row: NewJobRow): Promise<JobRow> {
  const [inserted] = await db.insert(jobs).values(row).returning()
  return inserted!
}

export async function findJob(db: Db, id: string): Promise<JobRow | undefined> {
  const [row] = await db.select().from(jobs).where(eq(jobs.id, id))
  return row
}

/** A job the caller may see: their own, or one of a team they are a member of. */
export async function findVisibleJob(db: Db, uid: string, id: string): Promise<JobRow | undefined> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(
      and(
        eq(jobs.id, id),
        or(
          eq(jobs.ownerUid, uid),
          inArray(
            jobs.ownerTeam,
            sql`(select ${teamMembers.teamId} from ${teamMembers} where ${teamMembers.uid} = ${uid})`,
          ),
        ),
      ),
    )
  return row
}

export async function markRunning(db: Db, id: string, attempt: number): Promise<void> {
  await db
    .update(jobs)
    .set({
      status: 'running',
      attempts: attempt,
      progress: 0,
      message: attempt > 1 ? `Attempt ${attempt}` : null,
      error: null,
      startedAt: sql`coalesce(${jobs.startedAt}, now())`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, id), inArray(jobs.status, ['queued', 'running'])))
}

/** Records progress of a running job (ignored once the job is finished: a late message). */
export async function recordProgress(
  db: Db,
  id: string,
  progress: number,
  message: string | null,
): Promise<void> {
  await db
    .update(jobs)
    .set({ progress, message, updatedAt: sql`now()` })
    .where(and(eq(jobs.id, id), eq(jobs.status, 'running')))
}

export async function markRetrying(db: Db, id: string, attempt: number, reason: string) {
  await db
    .update(jobs)
    .set({
      status: 'queued',
      message: `Attempt ${attempt} failed (${reason}); it will be retried.`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, id), eq(jobs.status, 'running')))
}

export async function markFailed(db: Db, id: string, error: { code: string; message: string }) {
  await db
    .update(jobs)
    .set({
      status: 'failed',
      error,
      message: error.message,
      finishedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, id), inArray(jobs.status, ['queued', 'running'])))
}

/** Marks the job done with its output; false when it was already finished (a repeated attempt). */
export async function markSucceeded(db: Db, id: string, output: JsonObject): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({
      status: 'succeeded',
      progress: 100,
      message: null,
      output,
      error: null,
      finishedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, id), inArray(jobs.status, ['queued', 'running'])))
    .returning({ id: jobs.id })
  return rows.length > 0
}

export async function unfinishedJobs(db: Db): Promise<Pick<JobRow, 'id' | 'kind'>[]> {
  return db
    .select({ id: jobs.id, kind: jobs.kind })
    .from(jobs)
    .where(inArray(jobs.status, ['queued', 'running']))
}
