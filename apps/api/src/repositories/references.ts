// How owned items refer to each other: the team items that would lose sight of a moved item, and
// the files that belong to one item alone (and so move with it).
import { and, eq, inArray, isNotNull, ne, sql } from 'drizzle-orm'
import {
  aeroDataBlocks,
  aeroSessions,
  courses,
  files,
  optimizationResults,
  optimizations,
  type Db,
} from '@veloptima/db'
import type { OwnerColumns } from './collection.ts'
import type { Owner } from './ownership.ts'

/** For each kind of referred item: the table of the items referring to it and the reference. */
const REFERRERS = {
  riderSetup: { table: optimizations, refers: (id: string) => eq(optimizations.riderSetupId, id) },
  course: { table: optimizations, refers: (id: string) => eq(optimizations.courseId, id) },
  device: {
    table: aeroSessions,
    refers: (id: string) =>
      sql`${aeroSessions.devices} @> ${JSON.stringify([{ device_id: id }])}::jsonb`,
  },
}

export type ReferredKind = keyof typeof REFERRERS

/** The first team item referring to item `id` whose team is not `owner`, or undefined. */
export async function teamReferrerOutside(
  db: Db,
  kind: ReferredKind,
  id: string,
  owner: Owner,
): Promise<{ id: string; name: string } | undefined> {
  const { table, refers } = REFERRERS[kind]
  const elsewhere =
    owner.kind === 'team' ? sql`${table.ownerTeam} <> ${owner.teamId}` : isNotNull(table.ownerTeam)
  const [row] = await db
    .select({ id: table.id, name: table.name })
    .from(table)
    .where(and(refers(id), isNotNull(table.ownerTeam), elsewhere))
    .limit(1)
  return row
}

/** Whether a file is used by an item other than course `courseId`: another course, an aero session's source file, an optimization's export. */
export async function fileUsedBeyondCourse(
  db: Db,
  fileId: string,
  courseId: string,
): Promise<boolean> {
  return anyRow([
    coursesUsing(db, fileId, courseId),
    sessionsUsing(db, fileId),
    exportsOf(db, fileId),
  ])
}

/**
 * Whether a file is used by an item other than aero session `sessionId`: a course, another
 * session's source file or source block, an optimization's export.
 */
export async function fileUsedBeyondSession(
  db: Db,
  fileId: string,
  sessionId: string,
): Promise<boolean> {
  return anyRow([
    coursesUsing(db, fileId),
    sessionsUsing(db, fileId, sessionId),
    sourceBlocksUsing(db, fileId, sessionId),
    exportsOf(db, fileId),
  ])
}

/** What `anyRow` needs of drizzle's select and set-operator builders (their tables differ). */
type Unionable = { union(next: unknown): Unionable; limit(n: number): PromiseLike<unknown[]> }

/** Whether the union of the queries (each selecting an `id`) has a row; it stops at the first. */
async function anyRow(queries: [unknown, ...unknown[]]): Promise<boolean> {
  const [first, ...rest] = queries as [Unionable, ...Unionable[]]
  const [row] = await rest.reduce((union, next) => union.union(next), first).limit(1)
  return Boolean(row)
}

/** The courses whose source file is `fileId`, but `except`. */
const coursesUsing = (db: Db, fileId: string, except?: string) =>
  db
    .select({ id: courses.id })
    .from(courses)
    .where(and(eq(courses.sourceFileId, fileId), except ? ne(courses.id, except) : undefined))

/** The aero sessions whose source file is `fileId`, but `except`. */
const sessionsUsing = (db: Db, fileId: string, except?: string) =>
  db
    .select({ id: aeroSessions.id })
    .from(aeroSessions)
    .where(
      and(eq(aeroSessions.sourceFileId, fileId), except ? ne(aeroSessions.id, except) : undefined),
    )

/** The aero sessions but `except` with a source block read from `fileId`. */
const sourceBlocksUsing = (db: Db, fileId: string, except: string) =>
  db
    .select({ id: aeroDataBlocks.sessionId })
    .from(aeroDataBlocks)
    .where(
      and(
        sql`${aeroDataBlocks.data}->>'type' = 'source'`,
        sql`${aeroDataBlocks.data}->>'file_id' = ${fileId}`,
        ne(aeroDataBlocks.sessionId, except),
      ),
    )

/** The optimization results exported to a file. */
const exportsOf = (db: Db, fileId: string) =>
  db
    .select({ id: optimizationResults.id })
    .from(optimizationResults)
    .where(eq(optimizationResults.exportFileId, fileId))

/** The `file_id` of each source block of an aero session (null where a block has none). */
export async function sourceBlockFileIds(db: Db, sessionId: string): Promise<(string | null)[]> {
  const blocks = await db
    .select({ fileId: sql<string | null>`${aeroDataBlocks.data}->>'file_id'` })
    .from(aeroDataBlocks)
    .where(
      and(eq(aeroDataBlocks.sessionId, sessionId), sql`${aeroDataBlocks.data}->>'type' = 'source'`),
    )
  return blocks.map((b) => b.fileId)
}

/** The ids among `ids` of the files owned exactly as `owner` is (the same user and team). */
export async function filesOwnedAs(db: Db, ids: string[], owner: OwnerColumns): Promise<string[]> {
  const owned = await db
    .select({ id: files.id })
    .from(files)
    .where(
      and(
        inArray(files.id, ids),
        owner.ownerUid === null
          ? sql`${files.ownerUid} is null`
          : eq(files.ownerUid, owner.ownerUid),
        owner.ownerTeam === null
          ? sql`${files.ownerTeam} is null`
          : eq(files.ownerTeam, owner.ownerTeam),
      ),
    )
  return owned.map((f) => f.id)
}
