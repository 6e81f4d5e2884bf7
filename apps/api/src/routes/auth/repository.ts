// The rows sign-in writes: the user as the provider describes them, the team of the provider's
// organization, and the request counters of the API's rate limits (`rate_limits`).
import { and, eq, isNull, lt, sql } from 'drizzle-orm'
import { rateLimits, teamMembers, teams, users, type Db } from '@veloptima/db'
import type { Role } from '../../repositories/users.ts'

/** Creates the user or updates their profile from the provider's. */
export async function upsertSignedInUser(
  db: Db,
  u: { uid: string; email: string; displayName: string; photoUrl: string | null },
): Promise<void> {
  await db
    .insert(users)
    .values(u)
    .onConflictDoUpdate({
      target: users.uid,
      set: {
        email: u.email,
        displayName: u.displayName,
        photoUrl: u.photoUrl,
        updatedAt: sql`now()`,
      },
    })
}

/**
 * Makes `uid` a member of the team of the provider's organization, created on first sight as
 * `name`, and that team their current one (`always`, or only when they have none).
 */
export async function joinOrganizationTeam(
  db: Db,
  uid: string,
  org: { orgId: string; name: string },
  membership: { role?: Role; current: 'always' | 'if-none' },
): Promise<void> {
  await db.insert(teams).values({ name: org.name, orgId: org.orgId }).onConflictDoNothing()
  const [team] = await db.select().from(teams).where(eq(teams.orgId, org.orgId))
  if (!team) return
  await db
    .insert(teamMembers)
    .values({ teamId: team.id, uid, ...(membership.role ? { role: membership.role } : {}) })
    .onConflictDoNothing()
  await db
    .update(users)
    .set({ currentTeam: team.id })
    .where(
      membership.current === 'if-none'
        ? and(eq(users.uid, uid), isNull(users.currentTeam))
        : eq(users.uid, uid),
    )
}

export type Counted = { current: number; ttl: number }

/**
 * Counts one request of `key` in its fixed window of `windowMs` (the window starts with the
 * first request and ends at `reset_at`), in one statement, so that concurrent requests on
 * several processes never lose a count. The database's clock decides, not the process's.
 * Returns the requests counted in the window so far (this one included) and the ms left.
 */
export async function countRequest(db: Db, key: string, windowMs: number): Promise<Counted> {
  const expired = sql`${rateLimits.resetAt} <= now()`
  const [row] = await db
    .insert(rateLimits)
    .values({ key, hits: 1, resetAt: sql`now() + ${windowMs} * interval '1 millisecond'` })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        hits: sql`case when ${expired} then 1 else ${rateLimits.hits} + 1 end`,
        resetAt: sql`case when ${expired} then excluded.reset_at else ${rateLimits.resetAt} end`,
      },
    })
    .returning({
      hits: rateLimits.hits,
      ttl: sql<number>`greatest(0, ceil(extract(epoch from (${rateLimits.resetAt} - now())) * 1000))::int`,
    })
  return { current: row!.hits, ttl: Number(row!.ttl) }
}

/** Deletes the counters whose window ended. */
export async function sweepRateLimits(db: Db) {
  await db.delete(rateLimits).where(lt(rateLimits.resetAt, sql`now()`))
}
