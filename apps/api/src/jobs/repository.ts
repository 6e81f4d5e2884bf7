import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm'
import { jobs, teams, type Db, type JsonObject } from '@veloptima/db'
import { visibleTo, type Owner } from '../repositories/ownership.ts'

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

export async function findJobs(db: Db, ids: string[]): Promise<JobRow[]> {
  return ids.length ? db.select().from(jobs).where(inArray(jobs.id, ids)) : []
}

/** A job the caller may see: their own, or one of a team they are a member of. */
export async function findVisibleJob(db: Db, uid: string, id: string): Promise<JobRow | undefined> {
  const [row] = await db
    .select()
    .from(jobs)
    .where(and(eq(jobs.id, id), visibleTo(db, jobs, uid)))
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

/** Cancels a queued or running job; false when it had already finished. */
export async function markCancelled(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({
      status: 'cancelled',
      message: 'Cancelled.',
      finishedAt: sql`now()`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(jobs.id, id), inArray(jobs.status, ['queued', 'running'])))
    .returning({ id: jobs.id })
  return rows.length > 0
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

export async function unfinishedJobs(db: Db): Promise<Pick<JobRow, 'id' | 'kind' | 'turn'>[]> {
  return db
    .select({ id: jobs.id, kind: jobs.kind, turn: jobs.turn })
    .from(jobs)
    .where(inArray(jobs.status, ['queued', 'running']))
}

const ACTIVE = ['queued', 'running'] as const

/**
 * Holds, until the caller's transaction ends, a lock per key (an account, a team): two admissions
 * for the same account wait for each other, so both see the other's job when they count. Keys
 * are taken in sorted order, so two transactions never wait for each other in a circle.
 */
export async function lockAdmission(tx: Db, keys: string[]): Promise<void> {
  for (const key of [...new Set(keys)].sort()) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`)
  }
}

/** What admitting a job needs to know about the unfinished jobs. */
export type ActiveLoad = {
  /** Unfinished jobs queued by `uid` (whatever their owner). */
  own: number
  /** Unfinished jobs of the team's items (0 without a team). */
  team: number
  /** The highest turn among `uid`'s unfinished jobs; null when they have none. */
  ownLastTurn: number | null
  /**
   * The turn of the next job to start: the lowest among jobs that wait for their first start;
   * when none waits, the highest among the unfinished ones (0 when there are none).
   */
  head: number
}

export async function activeLoad(db: Db, uid: string, team: string | null): Promise<ActiveLoad> {
  const [row] = await db
    .select({
      own: sql<number>`(count(*) filter (where ${jobs.requestedBy} = ${uid}))::int`,
      team: team
        ? sql<number>`(count(*) filter (where ${jobs.ownerTeam} = ${team}))::int`
        : sql<number>`0`,
      ownLastTurn: sql<
        number | null
      >`(max(${jobs.turn}) filter (where ${jobs.requestedBy} = ${uid}))::int`,
      head: sql<number>`coalesce(
        min(${jobs.turn}) filter (where ${jobs.status} = 'queued' and ${jobs.startedAt} is null),
        max(${jobs.turn}),
        0)::int`,
    })
    .from(jobs)
    .where(inArray(jobs.status, [...ACTIVE]))
  return {
    own: Number(row?.own ?? 0),
    team: Number(row?.team ?? 0),
    ownLastTurn: row?.ownLastTurn == null ? null : Number(row.ownLastTurn),
    head: Number(row?.head ?? 0),
  }
}

/**
 * How long the owner's recent jobs took from start to finish (median of the last 20 that
 * succeeded), in seconds; null when they have none. Reads the owner's list index.
 */
export async function recentJobSeconds(db: Db, owner: Owner): Promise<number | null> {
  const rows = await db
    .select({
      s: sql<number>`extract(epoch from ${jobs.finishedAt} - ${jobs.startedAt})::float8`,
    })
    .from(jobs)
    .where(
      and(
        owner.kind === 'team' ? eq(jobs.ownerTeam, owner.teamId) : eq(jobs.ownerUid, owner.uid),
        eq(jobs.status, 'succeeded'),
        isNotNull(jobs.startedAt),
      ),
    )
    .orderBy(desc(jobs.createdAt), desc(jobs.id))
    .limit(20)
  const seconds = rows.map((r) => Number(r.s)).sort((a, b) => a - b)
  return seconds.length ? seconds[Math.floor(seconds.length / 2)]! : null
}

export async function teamName(db: Db, id: string): Promise<string | undefined> {
  const [row] = await db.select({ name: teams.name }).from(teams).where(eq(teams.id, id))
  return row?.name
}
