import { eq } from 'drizzle-orm'
import { files, type Db } from '@veloptima/db'
import { findVisible } from '../repositories/ownership.ts'

export type FileRow = typeof files.$inferSelect
export type NewFileRow = typeof files.$inferInsert

export async function findVisibleFile(
  db: Db,
  uid: string,
  id: string,
): Promise<FileRow | undefined> {
  return findVisible(db, files, uid, id)
}

export async function findFile(db: Db, id: string): Promise<FileRow | undefined> {
  const [row] = await db.select().from(files).where(eq(files.id, id))
  return row
}

export async function insertFile(db: Db, row: NewFileRow): Promise<FileRow> {
  const [inserted] = await db.insert(files).values(row).returning()
  return inserted!
}

export async function deleteFile(db: Db, id: string): Promise<void> {
  await db.delete(files).where(eq(files.id, id))
}
