import { eq, sql } from 'drizzle-orm'
import { claimGrants, rows, users, type Db } from '@veloptima/db'
import { AppError } from '../errors.ts'

/** The claim a running trial or an active plan gives (specification §6). */
export const SIMULATIONS = 'create:simulations'

/** Claims each plan kind gives (plan kinds of the `subscriptions` table). */
export const PLAN_CLAIMS: Record<string, string[]> = {
  individual: [SIMULATIONS],
  team: [SIMULATIONS, 'use:multipleRiderProfiles'],
  aero: [SIMULATIONS, 'access:aerooptimization'],
}

/**
 * The caller's claims: the provider's `permissions` ∪ a running trial ∪ an active
 * subscription's plan (when the platform's `subscriptions` table exists) ∪ the grants of an
 * administrator. A disabled user gets `user-disabled` (§8).
 */
export async function computeClaims(
  db: Db,
  uid: string,
  permissions: string[],
  now = new Date(),
): Promise<Record<string, boolean>> {
  const [user] = await db.select().from(users).where(eq(users.uid, uid))
  if (user?.disabled) {
    throw new AppError('user-disabled', 403, 'This account has been disabled.')
  }
  const claims = new Set(permissions)
  if (user?.trialEndsAt && user.trialEndsAt.getTime() > now.getTime()) claims.add(SIMULATIONS)
  for (const plan of await activePlans(db, uid, now)) {
    for (const c of PLAN_CLAIMS[plan] ?? [SIMULATIONS]) claims.add(c)
  }
  const grants = await db
    .select({ claim: claimGrants.claim })
    .from(claimGrants)
    .where(eq(claimGrants.uid, uid))
  for (const g of grants) claims.add(g.claim)
  return Object.fromEntries([...claims].sort().map((c) => [c, true]))
}

/**
 * Plans of the user's active subscriptions. The table belongs to the platform work and may
 * not exist yet: it is looked up by name, and its absence means no plans.
 */
async function activePlans(db: Db, uid: string, now: Date): Promise<string[]> {
  const [table] = await rows<{ name: string | null }>(
    db,
    sql`select to_regclass('public.subscriptions')::text as name`,
  )
  if (!table?.name) return []
  const columns = new Set(
    (
      await rows<{ column_name: string }>(
        db,
        sql`select column_name from information_schema.columns
            where table_schema = 'public' and table_name = 'subscriptions'`,
      )
    ).map((c) => c.column_name),
  )
  if (!columns.has('uid') || !columns.has('plan')) return []
  // Held by the user, or by a team the user belongs to.
  const holder = columns.has('team_id')
    ? sql`(uid = ${uid} or team_id in (select team_id from team_members where uid = ${uid}))`
    : sql`uid = ${uid}`
  const conditions = [holder]
  if (columns.has('status')) conditions.push(sql`status::text = 'active'`)
  if (columns.has('starts_at')) conditions.push(sql`starts_at <= ${now.toISOString()}`)
  if (columns.has('ends_at')) conditions.push(sql`ends_at > ${now.toISOString()}`)
  const found = await rows<{ plan: string }>(
    db,
    sql`select plan::text as plan from subscriptions where ${sql.join(conditions, sql` and `)}`,
  )
  return found.map((r) => r.plan)
}
