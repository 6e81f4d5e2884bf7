import { and, eq, inArray, or, sql } from 'drizzle-orm'
import { files, teamMembers, type Db } from '@veloptima/db'

export type FileRow = typeof files.$inferSelect
export type NewFileRow = typeof files.$inferInsert

/** The owner of a stored item: a user or a team, exactly one (as the `files` table requires). */
export type Owner = { uid: string; team?: undefined } | { team: string; uid?: undefined }

export const ownerValues = (owner: Owner) => ({
  ownerUid: owner.uid ?? null,
  ownerTeam: owner.team ?? null,
})

/** The SQL condition "this file belongs to the caller or to a team the caller is a member of". */
export const visibleTo = (uid: string) =>
  or(
    eq(files.ownerUid, uid),
    inArray(
      files.ownerTeam,
      sql`(select ${teamMembers.teamId} from ${teamMembers} where ${teamMembers.uid} = ${uid})`,
    ),
  )

export async function findVisibleFile(
  db: Db,
  uid: string,
  id: string,
): Promise<FileRow | undefined> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.id, id), visibleTo(uid)))
  return row
}

export async function findFile(db: Db, id: string): Promise<FileRow | undefined> {
  const [row] = await db.select().from(files).where(eq(files.id, id))
  return row
}

export async function insertFile(db: Db, row: NewFileRow): Promise<FileRow> {
  const [inserted] = await db.insert(files).values(row).returning()
  return inserted!
}

export async function isTeamMember(db: Db, uid: string, team: string): Promise<boolean> {
  const [row] = await db
    .select({ uid: teamMembers.uid })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, team), eq(teamMembers.uid, uid)))
  return Boolean(row)
}

export async function deleteFile(db: Db, id: string): Promise<void> {
  await db.delete(files).where(eq(files.id, id))
}
