// The file rows jobs read: the files an analysis reads and an export's row by its storage key.
import { eq, inArray } from 'drizzle-orm'
import { files, type Db } from '@veloptima/db'

export type FileRow = typeof files.$inferSelect

/** The file rows among `ids` (those deleted meanwhile are missing). */
export async function storedFiles(db: Db, ids: string[]): Promise<FileRow[]> {
  return ids.length ? db.select().from(files).where(inArray(files.id, ids)) : []
}

/** Whether a file row holds the bytes at `storageKey`. */
export async function fileAtKey(db: Db, storageKey: string): Promise<boolean> {
  const [row] = await db
    .select({ id: files.id })
    .from(files)
    .where(eq(files.storageKey, storageKey))
  return Boolean(row)
}
