// Aero sessions' runs and data blocks. A session's blocks are laid out by sequence: each uploaded
// file is a `source` block below STRIDE; analysis version v is a block at v·STRIDE, its runs'
// blocks follow it and its CdA windows start at v·STRIDE + 50 000.
import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import {
  aeroDataBlocks,
  aeroRuns,
  aeroSessions,
  devices,
  jobs,
  type Db,
  type JsonObject,
} from '@veloptima/db'
import { findVisible, findVisibleChild, visibleTo } from './ownership.ts'
import { ascendingAfter } from './pagination.ts'

export type RunRow = typeof aeroRuns.$inferSelect
export type BlockRow = typeof aeroDataBlocks.$inferSelect
export type SessionRow = typeof aeroSessions.$inferSelect

/** Sequence of a version's blocks: version·STRIDE + k (sources below STRIDE). */
export const STRIDE = 100_000

const isSource = () => sql`${aeroDataBlocks.data}->>'type' = 'source'`
const isAnalysis = () => sql`${aeroDataBlocks.data}->>'type' = 'analysis'`
const isQueued = () => sql`${aeroDataBlocks.data}->>'status' = 'queued'`
const ofJob = (jobId: string) => sql`${aeroDataBlocks.data}->>'job_id' = ${jobId}`

/** The whole session if the caller can see it. */
export async function findSession(db: Db, uid: string, id: string) {
  return findVisible(db, aeroSessions, uid, id)
}

export async function sessionById(db: Db, id: string): Promise<SessionRow | undefined> {
  const [row] = await db.select().from(aeroSessions).where(eq(aeroSessions.id, id))
  return row
}

/** Serializes version numbers and file offsets of one session (row lock; PGlite is serial). */
export async function lockSession(tx: Db, sessionId: string): Promise<void> {
  await tx.execute(sql`select id from aero_sessions where id = ${sessionId} for update`)
}

/** The session's latest file (and its start when the session had none). */
export async function recordSessionSource(
  db: Db,
  sessionId: string,
  set: { sourceFileId: string; startedAt?: Date },
): Promise<void> {
  await db
    .update(aeroSessions)
    .set({ ...set, updatedAt: new Date() })
    .where(eq(aeroSessions.id, sessionId))
}

export async function findDevice(db: Db, id: string) {
  const [row] = await db.select().from(devices).where(eq(devices.id, id))
  return row
}

/** A session's runs in their order (position, then creation). */
export async function sessionRuns(db: Db, sessionId: string): Promise<RunRow[]> {
  return db
    .select()
    .from(aeroRuns)
    .where(eq(aeroRuns.sessionId, sessionId))
    .orderBy(asc(aeroRuns.position), asc(aeroRuns.createdAt))
}

/** The uploaded files' blocks of a session, in upload order. */
export function sourceBlocks(db: Db, sessionId: string) {
  return db
    .select()
    .from(aeroDataBlocks)
    .where(
      and(eq(aeroDataBlocks.sessionId, sessionId), lt(aeroDataBlocks.sequence, STRIDE), isSource()),
    )
    .orderBy(asc(aeroDataBlocks.sequence))
}

/** The analysis versions' blocks of a session, newest first. */
export async function analysisBlocks(db: Db, sessionId: string): Promise<BlockRow[]> {
  return db
    .select()
    .from(aeroDataBlocks)
    .where(and(eq(aeroDataBlocks.sessionId, sessionId), isAnalysis()))
    .orderBy(desc(aeroDataBlocks.sequence))
}

/** The blocks a version wrote (its runs' and its CdA windows'), in sequence. */
export async function versionBlockRows(
  db: Db,
  sessionId: string,
  version: number,
): Promise<BlockRow[]> {
  return db
    .select()
    .from(aeroDataBlocks)
    .where(
      and(
        eq(aeroDataBlocks.sessionId, sessionId),
        gte(aeroDataBlocks.sequence, version * STRIDE + 1),
        lt(aeroDataBlocks.sequence, (version + 1) * STRIDE),
      ),
    )
    .orderBy(asc(aeroDataBlocks.sequence))
}

/** The highest analysis version of a session so far (0 when none). */
export async function lastAnalysisVersion(db: Db, sessionId: string): Promise<number> {
  const [row] = await db
    .select({ v: sql<number>`coalesce(max((${aeroDataBlocks.data}->>'version')::int), 0)::int` })
    .from(aeroDataBlocks)
    .where(and(eq(aeroDataBlocks.sessionId, sessionId), isAnalysis()))
  return Number(row?.v ?? 0)
}

/** The version block of an analysis job. */
export async function analysisBlockOfJob(db: Db, jobId: string): Promise<BlockRow | undefined> {
  const [row] = await db.select().from(aeroDataBlocks).where(ofJob(jobId))
  return row
}

/** Cancels a job's version while it is queued. */
export async function cancelQueuedAnalysis(db: Db, jobId: string): Promise<void> {
  await db
    .update(aeroDataBlocks)
    .set({ data: sql`jsonb_set(${aeroDataBlocks.data}, '{status}', '"cancelled"')` })
    .where(and(ofJob(jobId), isQueued()))
}

/** Marks a queued version block succeeded; false once it is not queued (stored already). */
export async function markQueuedAnalysisSucceeded(db: Db, id: string): Promise<boolean> {
  const done = await db
    .update(aeroDataBlocks)
    .set({ data: sql`jsonb_set(${aeroDataBlocks.data}, '{status}', '"succeeded"')` })
    .where(and(eq(aeroDataBlocks.id, id), isQueued()))
    .returning({ id: aeroDataBlocks.id })
  return done.length > 0
}

/** Merges `patch` into a block's data while its status is queued; false once it is not. */
export async function patchQueuedBlock(db: Db, id: string, patch: JsonObject): Promise<boolean> {
  const rows = await db
    .update(aeroDataBlocks)
    .set({ data: sql`${aeroDataBlocks.data} || ${JSON.stringify(patch)}::jsonb` })
    .where(and(eq(aeroDataBlocks.id, id), isQueued()))
    .returning({ id: aeroDataBlocks.id })
  return rows.length > 0
}

/** Merges `patch` into a block's data. */
export async function patchBlock(db: Db, id: string, patch: JsonObject): Promise<void> {
  await db
    .update(aeroDataBlocks)
    .set({ data: sql`${aeroDataBlocks.data} || ${JSON.stringify(patch)}::jsonb` })
    .where(eq(aeroDataBlocks.id, id))
}

/** Whether an earlier version of the session is still queued with its job queued or running. */
export async function earlierVersionPending(
  db: Db,
  sessionId: string,
  version: number,
): Promise<boolean> {
  const [pending] = await db
    .select({ id: aeroDataBlocks.id })
    .from(aeroDataBlocks)
    .innerJoin(jobs, sql`${jobs.id}::text = ${aeroDataBlocks.data}->>'job_id'`)
    .where(
      and(
        eq(aeroDataBlocks.sessionId, sessionId),
        isAnalysis(),
        sql`(${aeroDataBlocks.data}->>'version')::int < ${version}`,
        isQueued(),
        inArray(jobs.status, ['queued', 'running']),
      ),
    )
    .limit(1)
  return Boolean(pending)
}

/** The session if the caller can see it (and so change its runs and blocks). */
export async function visibleSession(db: Db, uid: string, sessionId: string) {
  const [row] = await db
    .select({ id: aeroSessions.id, format: aeroSessions.format, ownerTeam: aeroSessions.ownerTeam })
    .from(aeroSessions)
    .where(and(eq(aeroSessions.id, sessionId), visibleTo(db, aeroSessions, uid)))
  return row
}

/**
 * SQL of one kind of a session's items (runs, data blocks), seen and changed with their session:
 * listed in `order` then id with a keyset on both (and the `filters` given), found when the caller
 * can see the session, inserted and read back, deleted by id.
 */
function sessionItems<T extends typeof aeroRuns | typeof aeroDataBlocks>(
  table: T,
  order: PgColumn,
) {
  type Row = T['$inferSelect']
  return {
    async list(
      db: Db,
      sessionId: string,
      o: { limit: number; after?: [key: number, id: string] | undefined },
      ...filters: (SQL | undefined)[]
    ): Promise<Row[]> {
      const rows = await db
        .select()
        .from(table as PgTable)
        .where(
          and(eq(table.sessionId, sessionId), ...filters, ascendingAfter(order, table.id, o.after)),
        )
        .orderBy(asc(order), asc(table.id))
        .limit(o.limit + 1)
      return rows as Row[]
    },
    find: (db: Db, uid: string, id: string) =>
      findVisibleChild(db, uid, id, {
        child: table,
        parentKey: table.sessionId,
        parent: aeroSessions,
      }),
    async insert(db: Db, values: T['$inferInsert']): Promise<Row> {
      const [row] = await db
        .insert(table)
        .values(values as never)
        .returning()
      return row as Row
    },
    async remove(db: Db, id: string): Promise<void> {
      await db.delete(table).where(eq(table.id, id))
    },
  }
}

const runs = sessionItems(aeroRuns, aeroRuns.position)
const blocks = sessionItems(aeroDataBlocks, aeroDataBlocks.sequence)

/** Runs in order (position, then id); keyset on (position, id). */
export const listRuns = runs.list
export const findRun = runs.find
export const insertRun = runs.insert
export const deleteRun = runs.remove

export async function updateRun(db: Db, id: string, set: Partial<typeof aeroRuns.$inferInsert>) {
  const [row] = await db.update(aeroRuns).set(set).where(eq(aeroRuns.id, id)).returning()
  return row
}

/** Blocks in order (sequence, id), of one kind or run when asked; keyset on (sequence, id). */
export async function listBlocks(
  db: Db,
  sessionId: string,
  o: {
    limit: number
    kind?: BlockRow['kind'] | undefined
    runId?: string | undefined
    after?: [sequence: number, id: string] | undefined
  },
) {
  return blocks.list(
    db,
    sessionId,
    o,
    o.kind ? eq(aeroDataBlocks.kind, o.kind) : undefined,
    o.runId ? eq(aeroDataBlocks.runId, o.runId) : undefined,
  )
}

export const findBlock = blocks.find
export const insertBlock = blocks.insert

/** Inserts a block without reading it back (a run's block carries its whole series). */
export async function storeBlock(db: Db, values: typeof aeroDataBlocks.$inferInsert) {
  await db.insert(aeroDataBlocks).values(values)
}

export const deleteBlock = blocks.remove
