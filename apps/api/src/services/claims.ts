import { and, eq, gt, inArray, lte, or } from 'drizzle-orm'
import { claimGrants, subscriptions, teamMembers, users, type Db } from '@veloptima/db'
import { AppError } from '../errors.ts'

/** The claim a running trial or an active plan gives (docs/specification.md §6). */
export const SIMULATIONS = 'create:simulations'

/** Claims each plan kind gives (plan kinds of the `subscriptions` table). */
export const PLAN_CLAIMS: Record<string, string[]> = {
  individual: [SIMULATIONS],
  team: [SIMULATIONS, 'use:multipleRiderProfiles'],
  aero: [SIMULATIONS, 'access:aerooptimization'],
}

/**
 * The caller's claims: the provider's `permissions` ∪ a running trial ∪ the plans of active
 * subscriptions (the user's or their teams') ∪ the grants of an administrator. A disabled user gets `user-disabled` (§8).
 */
export async function computeClaims(
  db: Db,
  uid: string,
  permissions: string[],
  now = new Date(),
): Promise<Record<string, boolean>> {
  const [user] = await db.select().from(users).where(eq(users.uid, uid))
  if (user?.disabled) {
    throw new AppError('user-disabled', 'This account has been disabled.')
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

/** Plans of the active subscriptions held by the user or by a team the user belongs to. */
async function activePlans(db: Db, uid: string, now: Date): Promise<string[]> {
  const myTeams = db
    .select({ id: teamMembers.teamId })
    .from(teamMembers)
    .where(eq(teamMembers.uid, uid))
  const found = await db
    .select({ plan: subscriptions.plan })
    .from(subscriptions)
    .where(
      and(
        or(eq(subscriptions.uid, uid), inArray(subscriptions.teamId, myTeams)),
        eq(subscriptions.status, 'active'),
        lte(subscriptions.startsAt, now),
        gt(subscriptions.endsAt, now),
      ),
    )
  return found.map((r) => r.plan)
}
