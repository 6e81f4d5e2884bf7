import { and, eq, gt, inArray, lte, or, sql } from 'drizzle-orm'
import { notifications, stripeCustomers, stripeEvents, subscriptions, type Db } from '@veloptima/db'
import { myTeamIds } from './ownership.ts'
import { memberCount, memberUids, openInvitationCount } from './teams.ts'

export type SubscriptionRow = typeof subscriptions.$inferSelect
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
export type Holder = { uid: string; teamId?: never } | { teamId: string; uid?: never }

/** The holder's Stripe customer id, if one was recorded. */
export async function customerOf(db: Db | Tx, holder: Holder): Promise<string | undefined> {
  const [row] = await db
    .select({ id: stripeCustomers.customerId })
    .from(stripeCustomers)
    .where(
      holder.uid ? eq(stripeCustomers.uid, holder.uid) : eq(stripeCustomers.teamId, holder.teamId!),
    )
  return row?.id
}

/** The holder of a Stripe customer, if the customer is ours. */
export async function holderOfCustomer(db: Db | Tx, customerId: string) {
  const [row] = await db
    .select()
    .from(stripeCustomers)
    .where(eq(stripeCustomers.customerId, customerId))
  return row
}

/** Records a holder's customer (the first one stays). */
export async function recordCustomer(db: Db | Tx, customerId: string, holder: Holder) {
  await db
    .insert(stripeCustomers)
    .values({ customerId, uid: holder.uid ?? null, teamId: holder.teamId ?? null })
    .onConflictDoNothing()
}

/** Marks an event applied; false when it already was (a replay or a duplicate delivery). */
export async function claimEvent(db: Tx, id: string, type: string, createdAt: Date) {
  const inserted = await db
    .insert(stripeEvents)
    .values({ id, type, createdAt })
    .onConflictDoNothing()
    .returning({ id: stripeEvents.id })
  return inserted.length > 0
}

export async function subscriptionByStripeId(db: Db | Tx, stripeId: string) {
  const [row] = await db
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.stripeSubscriptionId, stripeId))
  return row
}

export type SubscriptionValues = Omit<
  typeof subscriptions.$inferInsert,
  'id' | 'createdAt' | 'updatedAt'
>

/**
 * Writes a Stripe subscription's state unless a newer event already wrote it: the row keeps the
 * `created` of the newest event applied, and an equal time never revives a canceled plan.
 */
export async function upsertStripeSubscription(db: Tx, values: SubscriptionValues) {
  const stored = values.stripeSubscriptionId
    ? await subscriptionByStripeId(db, values.stripeSubscriptionId)
    : undefined
  if (!stored) {
    await db.insert(subscriptions).values(values)
    return true
  }
  const at = values.stripeEventAt?.getTime() ?? 0
  const before = stored.stripeEventAt?.getTime() ?? 0
  if (at < before) return false
  if (stored.stripeStatus === 'canceled' && values.stripeStatus !== 'canceled') return false
  await db
    .update(subscriptions)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(subscriptions.id, stored.id))
  return true
}

/** Plans held by the user or by the teams the user belongs to, newest first. */
export async function subscriptionsOf(db: Db, uid: string): Promise<SubscriptionRow[]> {
  return db
    .select()
    .from(subscriptions)
    .where(or(eq(subscriptions.uid, uid), inArray(subscriptions.teamId, myTeamIds(db, uid))))
    .orderBy(sql`${subscriptions.endsAt} desc`)
}

export async function insertSubscription(db: Db, values: typeof subscriptions.$inferInsert) {
  const [row] = await db.insert(subscriptions).values(values).returning()
  return row!
}

/** Plans of the active subscriptions held by the user or by a team the user belongs to. */
export async function activePlans(db: Db, uid: string, now: Date): Promise<string[]> {
  const found = await db
    .select({ plan: subscriptions.plan })
    .from(subscriptions)
    .where(
      and(
        or(eq(subscriptions.uid, uid), inArray(subscriptions.teamId, myTeamIds(db, uid))),
        eq(subscriptions.status, 'active'),
        lte(subscriptions.startsAt, now),
        gt(subscriptions.endsAt, now),
      ),
    )
  return found.map((r) => r.plan)
}

/** Everyone whose claims a holder's plan changes: the user, or every member of the team. */
export async function peopleOf(db: Db | Tx, holder: Holder): Promise<string[]> {
  if (holder.uid) return [holder.uid]
  return memberUids(db as Db, holder.teamId!)
}

/**
 * A notification to each person (the live stream delivers it through NOTIFY veloptima_live);
 * `data.kind = 'claims'` tells the browser to renew its session token.
 */
export async function notifyClaims(
  db: Db | Tx,
  uids: string[],
  note: { type: string; title: string; text: string },
) {
  if (uids.length === 0) return
  await db
    .insert(notifications)
    .values(uids.map((uid) => ({ uid, ...note, data: { kind: 'claims' } })))
}

/**
 * Seats of a team's current plans: the sum of their seats, or undefined when no current team
 * plan limits them (none, or one an administrator granted without seats).
 */
export async function teamSeats(db: Db, teamId: string, now: Date): Promise<number | undefined> {
  const plans = await db
    .select({ seats: subscriptions.seats })
    .from(subscriptions)
    .where(
      and(
        eq(subscriptions.teamId, teamId),
        eq(subscriptions.plan, 'team'),
        eq(subscriptions.status, 'active'),
        lte(subscriptions.startsAt, now),
        gt(subscriptions.endsAt, now),
      ),
    )
  if (plans.length === 0 || plans.some((p) => p.seats === null)) return undefined
  return plans.reduce((n, p) => n + (p.seats ?? 0), 0)
}

/** Members of a team and its open (unused, unrevoked, unexpired) invitations. */
export async function seatsTaken(db: Db, teamId: string, now: Date) {
  return {
    members: await memberCount(db, teamId),
    invitations: await openInvitationCount(db, teamId, now),
  }
}
