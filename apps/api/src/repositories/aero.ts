import { and, asc, eq, gt, or } from 'drizzle-orm'
import { aeroDataBlocks, aeroRuns, aeroSessions, type Db } from '@veloptima/db'
import { visibleTo } from './ownership.ts'

export type RunRow = typeof aeroRuns.$inferSelect
export type BlockRow = typeof aeroDataBlocks.$inferSelect

/** The session if the caller can see it (and so change its runs and blocks). */
export async function visibleSession(db: Db, uid: string, sessionId: string) {
  const [row] = await db
    .select({ id: aeroSessions.id, format: aeroSessions.format, ownerTeam: aeroSessions.ownerTeam })
    .from(aeroSessions)
    .where(and(eq(aeroSessions.id, sessionId), visibleTo(db, aeroSessions, uid)))
  return row
}

/** Runs in order (position, then creation); keyset on (position, id). */
export async function listRuns(
  db: Db,
  sessionId: string,
  o: { limit: number; after?: { position: number; id: string } | undefined },
) {
  return db
    .select()
    .from(aeroRuns)
    .where(
      and(
        eq(aeroRuns.sessionId, sessionId),
        o.after
          ? or(
              gt(aeroRuns.position, o.after.position),
              and(eq(aeroRuns.position, o.after.position), gt(aeroRuns.id, o.after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(asc(aeroRuns.position), asc(aeroRuns.id))
    .limit(o.limit + 1)
}

export async function findRun(db: Db, uid: string, id: string) {
  const [row] = await db
    .select({ run: aeroRuns })
    .from(aeroRuns)
    .innerJoin(aeroSessions, eq(aeroSessions.id, aeroRuns.sessionId))
    .where(and(eq(aeroRuns.id, id), visibleTo(db, aeroSessions, uid)))
  return row?.run
}

export async function insertRun(db: Db, values: typeof aeroRuns.$inferInsert) {
  const [row] = await db.insert(aeroRuns).values(values).returning()
  return row!
}

export async function updateRun(db: Db, id: string, set: Partial<typeof aeroRuns.$inferInsert>) {
  const [row] = await db.update(aeroRuns).set(set).where(eq(aeroRuns.id, id)).returning()
  return row
}

export async function deleteRun(db: Db, id: string) {
  await db.delete(aeroRuns).where(eq(aeroRuns.id, id))
}

/** Blocks in order (sequence, id); keyset on (sequence, id). */
export async function listBlocks(
  db: Db,
  sessionId: string,
  o: {
    limit: number
    kind?: BlockRow['kind'] | undefined
    runId?: string | undefined
    after?: { sequence: number; id: string } | undefined
  },
) {
  return db
    .select()
    .from(aeroDataBlocks)
    .where(
      and(
        eq(aeroDataBlocks.sessionId, sessionId),
        o.kind ? eq(aeroDataBlocks.kind, o.kind) : undefined,
        o.runId ? eq(aeroDataBlocks.runId, o.runId) : undefined,
        o.after
          ? or(
              gt(aeroDataBlocks.sequence, o.after.sequence),
              and(eq(aeroDataBlocks.sequence, o.after.sequence), gt(aeroDataBlocks.id, o.after.id)),
            )
          : undefined,
      ),
    )
    .orderBy(asc(aeroDataBlocks.sequence), asc(aeroDataBlocks.id))
    .limit(o.limit + 1)
}

export async function findBlock(db: Db, uid: string, id: string) {
  const [row] = await db
    .select({ block: aeroDataBlocks })
    .from(aeroDataBlocks)
    .innerJoin(aeroSessions, eq(aeroSessions.id, aeroDataBlocks.sessionId))
    .where(and(eq(aeroDataBlocks.id, id), visibleTo(db, aeroSessions, uid)))
  return row?.block
}

export async function insertBlock(db: Db, values: typeof aeroDataBlocks.$inferInsert) {
  const [row] = await db.insert(aeroDataBlocks).values(values).returning()
  return row!
}

export async function deleteBlock(db: Db, id: string) {
  await db.delete(aeroDataBlocks).where(eq(aeroDataBlocks.id, id))
}
