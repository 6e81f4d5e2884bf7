import { and, asc, desc, eq, gt, lt, sql, type SQL } from 'drizzle-orm'
import { notifications, type Db } from '@veloptima/db'

export type NotificationRow = typeof notifications.$inferSelect

type NotificationListOptions = {
  limit: number
  beforeSeq?: number | undefined
  showed?: boolean | undefined
}

/** The user's notifications that meet `conditions`. */
const usersNotifications = (db: Db, uid: string, ...conditions: (SQL | undefined)[]) =>
  db
    .select()
    .from(notifications)
    .where(and(eq(notifications.uid, uid), ...conditions))

/** The user's notification `id`. */
const usersNotification = (uid: string, id: string) =>
  and(eq(notifications.id, id), eq(notifications.uid, uid))

/** The caller's notifications, newest first, keyed by `seq`. */
export async function listNotifications(db: Db, uid: string, o: NotificationListOptions) {
  return listNotificationsQuery(db, uid, o)
}

/** The list's query, not run (its plan is checked in list-queries.int.test.ts). */
export function listNotificationsQuery(db: Db, uid: string, o: NotificationListOptions) {
  return usersNotifications(
    db,
    uid,
    o.showed === undefined ? undefined : eq(notifications.showed, o.showed),
    o.beforeSeq === undefined ? undefined : lt(notifications.seq, o.beforeSeq),
  )
    .orderBy(desc(notifications.seq))
    .limit(o.limit + 1)
}

/** Unshown notifications created after `afterSeq`, oldest first (the live stream's feed). */
export async function unshownAfter(db: Db, uid: string, afterSeq: number, limit = 100) {
  return usersNotifications(
    db,
    uid,
    eq(notifications.showed, false),
    gt(notifications.seq, afterSeq),
  )
    .orderBy(asc(notifications.seq))
    .limit(limit)
}

export async function findNotification(db: Db, uid: string, id: string) {
  const [row] = await db.select().from(notifications).where(usersNotification(uid, id))
  return row
}

export async function updateNotification(
  db: Db,
  uid: string,
  id: string,
  set: { showed?: boolean },
) {
  const [row] = await db
    .update(notifications)
    .set(set)
    .where(usersNotification(uid, id))
    .returning()
  return row
}

export async function deleteNotification(db: Db, uid: string, id: string) {
  const gone = await db
    .delete(notifications)
    .where(usersNotification(uid, id))
    .returning({ id: notifications.id })
  return gone.length > 0
}

export async function insertNotification(
  db: Db,
  n: {
    uid: string
    type?: string
    title: string
    text?: string
    downloadBlob?: string | null
    data?: Record<string, unknown> | null
  },
) {
  const [row] = await db.insert(notifications).values(n).returning()
  return row!
}

/** The highest seq so far (0 when none): where a live stream's poll starts. */
export async function maxSeq(db: Db): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(max(${notifications.seq}), 0)::int` })
    .from(notifications)
  return Number(row?.n ?? 0)
}
