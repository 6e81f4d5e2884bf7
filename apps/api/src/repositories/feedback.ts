import { desc } from 'drizzle-orm'
import { feedback, type Db } from '@veloptima/db'

export async function insertFeedback(db: Db, values: typeof feedback.$inferInsert) {
  const [row] = await db.insert(feedback).values(values).returning()
  return row!
}

export async function listFeedback(db: Db, limit: number) {
  return db.select().from(feedback).orderBy(desc(feedback.createdAt)).limit(limit)
}
