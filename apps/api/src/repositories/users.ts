import { and, asc, eq, sql } from 'drizzle-orm'
import { claimGrants, riderProfiles, teamMembers, teams, users, type Db } from '@veloptima/db'

export type UserRow = typeof users.$inferSelect

export async function findUser(db: Db, uid: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.uid, uid))
  return row
}

export async function findUserByEmail(db: Db, email: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .orderBy(asc(users.createdAt))
    .limit(1)
  return row
}

/** Creates the row of a caller known only from the session token (first call after sign-in). */
export async function insertUserIfMissing(
  db: Db,
  u: { uid: string; email: string; displayName: string },
): Promise<void> {
  await db.insert(users).values(u).onConflictDoNothing({ target: users.uid })
}

export async function updateUser(
  db: Db,
  uid: string,
  set: Partial<Pick<UserRow, 'currentTeam' | 'useImperialUnits' | 'displayName' | 'disabled'>>,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...set, updatedAt: sql`now()` })
    .where(eq(users.uid, uid))
    .returning()
  return row
}

/** Starts the trial if it was never used; undefined when it was. Atomic. */
export async function startTrial(db: Db, uid: string, days: number): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({
      trialUsed: true,
      trialEndsAt: sql`now() + make_interval(days => ${days}::int)`,
      updatedAt: sql`now()`,
    })
    .where(and(eq(users.uid, uid), eq(users.trialUsed, false)))
    .returning()
  return row
}

/** The claims an administrator granted the user. */
export async function claimGrantsOf(db: Db, uid: string): Promise<string[]> {
  const grants = await db
    .select({ claim: claimGrants.claim })
    .from(claimGrants)
    .where(eq(claimGrants.uid, uid))
  return grants.map((g) => g.claim)
}

export async function listUsers(db: Db) {
  return db.select().from(users).orderBy(asc(users.createdAt))
}

export type ProfileRow = typeof riderProfiles.$inferSelect

export async function findProfile(db: Db, uid: string): Promise<ProfileRow | undefined> {
  const [row] = await db.select().from(riderProfiles).where(eq(riderProfiles.uid, uid))
  return row
}

export async function upsertProfile(
  db: Db,
  uid: string,
  set: Partial<Omit<ProfileRow, 'uid' | 'createdAt' | 'updatedAt'>>,
): Promise<ProfileRow> {
  const [row] = await db
    .insert(riderProfiles)
    .values({ uid, ...set })
    .onConflictDoUpdate({ target: riderProfiles.uid, set: { ...set, updatedAt: sql`now()` } })
    .returning()
  return row!
}

// Teams and memberships.

export type Role = 'owner' | 'admin' | 'member'

export async function teamsOf(db: Db, uid: string) {
  return db
    .select({ id: teams.id, name: teams.name, role: teamMembers.role })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.uid, uid))
    .orderBy(asc(teams.name), asc(teams.id))
}

/** The team and the caller's role in it, if the caller is a member. */
export async function teamWithRole(db: Db, uid: string, teamId: string) {
  const [row] = await db
    .select({ id: teams.id, name: teams.name, role: teamMembers.role })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.uid, uid)))
  return row
}

export async function findTeamByName(db: Db, name: string) {
  return db.select().from(teams).where(eq(teams.name, name))
}

export async function findTeam(db: Db, id: string) {
  const [row] = await db.select().from(teams).where(eq(teams.id, id))
  return row
}

/** Creates a team with its owner, in one transaction. */
export async function createTeam(db: Db, name: string, ownerUid: string) {
  return db.transaction(async (tx) => {
    const [team] = await tx.insert(teams).values({ name }).returning()
    await tx.insert(teamMembers).values({ teamId: team!.id, uid: ownerUid, role: 'owner' })
    return team!
  })
}

export async function renameTeam(db: Db, id: string, name: string) {
  const [row] = await db.update(teams).set({ name }).where(eq(teams.id, id)).returning()
  return row
}

export async function deleteTeam(db: Db, id: string) {
  await db.transaction(async (tx) => {
    await tx.update(users).set({ currentTeam: null }).where(eq(users.currentTeam, id))
    await tx.delete(teams).where(eq(teams.id, id))
  })
}

export async function members(db: Db, teamId: string) {
  return db
    .select({
      uid: users.uid,
      email: users.email,
      displayName: users.displayName,
      role: teamMembers.role,
      createdAt: teamMembers.createdAt,
    })
    .from(teamMembers)
    .innerJoin(users, eq(users.uid, teamMembers.uid))
    .where(eq(teamMembers.teamId, teamId))
    .orderBy(asc(teamMembers.createdAt), asc(users.uid))
}

export async function addMember(db: Db, teamId: string, uid: string, role: Role) {
  const inserted = await db
    .insert(teamMembers)
    .values({ teamId, uid, role })
    .onConflictDoNothing()
    .returning()
  return inserted.length > 0
}

export async function setRole(db: Db, teamId: string, uid: string, role: Role) {
  const [row] = await db
    .update(teamMembers)
    .set({ role })
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.uid, uid)))
    .returning()
  return row
}

export async function removeMember(db: Db, teamId: string, uid: string) {
  return db.transaction(async (tx) => {
    const gone = await tx
      .delete(teamMembers)
      .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.uid, uid)))
      .returning()
    await tx
      .update(users)
      .set({ currentTeam: null })
      .where(and(eq(users.uid, uid), eq(users.currentTeam, teamId)))
    return gone.length > 0
  })
}

export async function countOwners(db: Db, teamId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.role, 'owner')))
  return Number(row?.n ?? 0)
}
