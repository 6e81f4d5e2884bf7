import type { Db } from '@veloptima/db'
import { AppError } from '../errors.ts'
import { activePlans } from '../repositories/billing.ts'
import { claimGrantsOf, findUser } from '../repositories/users.ts'

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
  const user = await findUser(db, uid)
  if (user?.disabled) {
    throw new AppError('user-disabled', 'This account has been disabled.')
  }
  const claims = new Set(permissions)
  if (user?.trialEndsAt && user.trialEndsAt.getTime() > now.getTime()) claims.add(SIMULATIONS)
  for (const plan of await activePlans(db, uid, now)) {
    for (const c of PLAN_CLAIMS[plan] ?? [SIMULATIONS]) claims.add(c)
  }
  for (const claim of await claimGrantsOf(db, uid)) claims.add(claim)
  return Object.fromEntries([...claims].sort().map((c) => [c, true]))
}
