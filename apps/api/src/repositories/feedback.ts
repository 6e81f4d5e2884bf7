import { desc, eq, inArray, or } from 'drizzle-orm'
import { feedback, subscriptions, type Db } from '@veloptima/db'
import { myTeamIds } from './ownership.ts'

export async function insertFeedback(db: Db, values: typeof feedback.$inferInsert) {
  const [row] = await db.insert(feedback).values(values).returning()
  return row!
}

export async function listFeedback(db: Db, limit: number) {
  return db.select().from(feedback).orderBy(desc(feedback.createdAt)).limit(limit)
}

/** Subscriptions held by the user or by the user's teams. */
export async function subscriptionsOf(db: Db, uid: string) {
  return db
    .select()
    .from(subscriptions)
    .where(or(eq(subscriptions.uid, uid), inArray(subscriptions.teamId, myTeamIds(db, uid))))
    .orderBy(desc(subscriptions.endsAt))
}

export async function insertSubscription(db: Db, values: typeof subscriptions.$inferInsert) {
  const [row] = await db.insert(subscriptions).values(values).returning()
  return row!
}
