import { and, asc, count, eq, gt, isNull } from 'drizzle-orm'
import { files, teamInvitations, teamMembers, teams, users, type Db } from '@veloptima/db'
import { teamItemCounts } from './collection.ts'
import type { Role } from './users.ts'

export type InvitationRow = typeof teamInvitations.$inferSelect

export async function createInvitation(
  db: Db,
  v: {
    teamId: string
    email: string
    role: Role
    tokenHash: string
    invitedBy: string
    expiresAt: Date
  },
  now: Date,
): Promise<InvitationRow> {
  return db.transaction(async (tx) => {
    // A new invitation to the same address replaces the one still open (one open link each).
    await tx
      .update(teamInvitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(teamInvitations.teamId, v.teamId),
          eq(teamInvitations.email, v.email),
          isNull(teamInvitations.acceptedAt),
          isNull(teamInvitations.revokedAt),
        ),
      )
    const [row] = await tx.insert(teamInvitations).values(v).returning()
    return row!
  })
}

/** A team's invitations neither accepted nor revoked (expired ones included). */
const unusedInvitations = (teamId: string) =>
  and(
    eq(teamInvitations.teamId, teamId),
    isNull(teamInvitations.acceptedAt),
    isNull(teamInvitations.revokedAt),
  )

/** Invitations neither accepted nor revoked (expired ones included), oldest first. */
export async function openInvitations(db: Db, teamId: string): Promise<InvitationRow[]> {
  return db
    .select()
    .from(teamInvitations)
    .where(unusedInvitations(teamId))
    .orderBy(asc(teamInvitations.createdAt), asc(teamInvitations.id))
}

export async function findInvitation(db: Db, teamId: string, id: string) {
  const [row] = await db
    .select()
    .from(teamInvitations)
    .where(and(eq(teamInvitations.teamId, teamId), eq(teamInvitations.id, id)))
  return row
}

/** The invitation of a link, with its team's name and the inviter's name. */
export async function invitationByTokenHash(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ invitation: teamInvitations, teamName: teams.name, inviterName: users.displayName })
    .from(teamInvitations)
    .innerJoin(teams, eq(teams.id, teamInvitations.teamId))
    .leftJoin(users, eq(users.uid, teamInvitations.invitedBy))
    .where(eq(teamInvitations.tokenHash, tokenHash))
  return row
}

export async function revokeInvitation(db: Db, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(teamInvitations)
    .set({ revokedAt: now })
    .where(
      and(
        eq(teamInvitations.id, id),
        isNull(teamInvitations.acceptedAt),
        isNull(teamInvitations.revokedAt),
      ),
    )
    .returning({ id: teamInvitations.id })
  return rows.length > 0
}

/**
 * Uses the invitation and adds the member, in one transaction that holds the team's row lock:
 * `beforeJoin` (the seat check) runs under that lock, so of two invitations accepted at the same
 * moment on a team with one free seat, the second sees the first's member and may refuse (its
 * error rolls the transaction back). The update only matches an open, unexpired invitation, so
 * of two concurrent accepts of one link one wins; undefined when none matched.
 */
export async function acceptInvitation(
  db: Db,
  invitation: { id: string; teamId: string },
  uid: string,
  now: Date,
  beforeJoin: (tx: Db) => Promise<void> = async () => {},
): Promise<InvitationRow | undefined> {
  const id = invitation.id
  return db.transaction(async (tx) => {
    await tx
      .select({ id: teams.id })
      .from(teams)
      .where(eq(teams.id, invitation.teamId))
      .for('update')
    await beforeJoin(tx as unknown as Db)
    const [used] = await tx
      .update(teamInvitations)
      .set({ acceptedAt: now, acceptedBy: uid })
      .where(
        and(
          eq(teamInvitations.id, id),
          isNull(teamInvitations.acceptedAt),
          isNull(teamInvitations.revokedAt),
          gt(teamInvitations.expiresAt, now),
        ),
      )
      .returning()
    if (!used) return undefined
    await tx
      .insert(teamMembers)
      .values({ teamId: used.teamId, uid, role: used.role })
      .onConflictDoNothing()
    // The new member works in the team at once unless already working in another one.
    await tx
      .update(users)
      .set({ currentTeam: used.teamId })
      .where(and(eq(users.uid, uid), isNull(users.currentTeam)))
    return used
  })
}

/** Makes `to` an owner and the caller `from` an admin, in one transaction. */
export async function transferOwnership(db: Db, teamId: string, from: string, to: string) {
  await keepingAnOwner(db, teamId, async (tx) => {
    await tx
      .update(teamMembers)
      .set({ role: 'owner' })
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.uid, to)))
    await tx
      .update(teamMembers)
      .set({ role: 'admin' })
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.uid, from)))
  })
}

/** How many items the team owns in each collection (what deleting the team deletes). */
export async function teamContents(db: Db, teamId: string, now: Date) {
  return {
    ...(await teamItemCounts(db, teamId)),
    members: await memberCount(db, teamId),
    pending_invitations: await openInvitationCount(db, teamId, now),
  }
}

/** How many members the team has (teams and billing count seats with it). */
export async function memberCount(db: Db, teamId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(teamMembers)
    .where(eq(teamMembers.teamId, teamId))
  return Number(row?.n ?? 0)
}

/** The uids of the team's members (whose claims a team plan changes). */
export async function memberUids(db: Db, teamId: string): Promise<string[]> {
  const rows = await db
    .select({ uid: teamMembers.uid })
    .from(teamMembers)
    .where(eq(teamMembers.teamId, teamId))
  return rows.map((r) => r.uid)
}

/** Invitations that can still be accepted: neither used nor revoked, and not expired at `now`. */
export async function openInvitationCount(db: Db, teamId: string, now: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(teamInvitations)
    .where(and(unusedInvitations(teamId), gt(teamInvitations.expiresAt, now)))
  return Number(row?.n ?? 0)
}

export async function teamFileIds(db: Db, teamId: string): Promise<string[]> {
  const rows = await db.select({ id: files.id }).from(files).where(eq(files.ownerTeam, teamId))
  return rows.map((r) => r.id)
}

/** Thrown inside `keepingAnOwner` when a change would leave the team without an owner. */
export class NoOwnerLeft extends Error {}

/**
 * Runs a membership change in a transaction that holds the team's row lock and checks, after the
 * change, that the team still has an owner; otherwise rolls back and throws NoOwnerLeft. Two
 * owners demoting each other at the same moment therefore cannot leave the team ownerless.
 */
export async function keepingAnOwner<T>(
  db: Db,
  teamId: string,
  change: (tx: Db) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId)).for('update')
    const result = await change(tx as unknown as Db)
    const [owners] = await tx
      .select({ n: count() })
      .from(teamMembers)
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.role, 'owner')))
    if (Number(owners?.n ?? 0) === 0) throw new NoOwnerLeft()
    return result
  })
}

/** How many invitations the team created since `since` (the sending limit). */
export async function invitationsSince(db: Db, teamId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(teamInvitations)
    .where(and(eq(teamInvitations.teamId, teamId), gt(teamInvitations.createdAt, since)))
  return Number(row?.n ?? 0)
}
