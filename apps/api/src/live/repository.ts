// What the live streams read: the database's clock, new notifications, changed profiles, jobs
// and team items, and the NOTIFY that tells every process's hub a team's items changed.
import { and, asc, eq, gt, inArray, sql, type SQL } from 'drizzle-orm'
import {
  aeroSessions,
  courses,
  devices,
  jobs,
  notifications,
  optimizations,
  riderProfiles,
  riderSetups,
  rows,
  teamMembers,
  users,
  type Db,
} from '@veloptima/db'
import { myTeamIds, visibleTo } from '../repositories/ownership.ts'
import { LIVE_CHANNEL } from './channel.ts'

/** The collections whose team items members see live, by their API name. */
const TABLES = {
  courses,
  'rider-setups': riderSetups,
  optimizations,
  devices,
  'aero-sessions': aeroSessions,
} as const
export type TeamCollection = keyof typeof TABLES

/** The database's clock, as timestamptz text (the `since` of the reads below). */
export async function databaseNow(db: Db): Promise<string> {
  const [row] = await rows<{ now: string }>(db, sql`select now()::text as now`)
  return row!.now
}

/** The newest notification seq (0 when there is none) and the database's clock. */
export async function liveStart(db: Db): Promise<{ seq: number; now: string }> {
  const [row] = await rows<{ seq: number; now: string }>(
    db,
    sql`select coalesce((select max(seq) from notifications), 0)::int as seq, now()::text as now`,
  )
  return { seq: Number(row?.seq ?? 0), now: row?.now ?? '' }
}

/** Notifications after `seq`, whoever they are for. */
export async function notificationsAfter(db: Db, seq: number) {
  return db
    .select({ uid: notifications.uid, seq: notifications.seq })
    .from(notifications)
    .where(gt(notifications.seq, seq))
}

/** "Changed after `since`, with a few seconds of overlap" (`since`: timestamptz text). */
const afterOverlap = (since: string): SQL => sql`${since}::timestamptz - interval '5 seconds'`

/** The users whose rider profile changed after `since` (with the overlap). */
export async function profilesChangedSince(db: Db, since: string): Promise<string[]> {
  const found = await db
    .select({ uid: riderProfiles.uid })
    .from(riderProfiles)
    .where(sql`${riderProfiles.updatedAt} > ${afterOverlap(since)}`)
  return found.map((p) => p.uid)
}

/** The owners of the jobs that changed after `since` (with the overlap). */
export async function jobsChangedSince(db: Db, since: string) {
  return db
    .select({ uid: jobs.ownerUid, team: jobs.ownerTeam })
    .from(jobs)
    .where(sql`${jobs.updatedAt} > ${afterOverlap(since)}`)
}

/** The teams with an item changed after `since` (a timestamptz expression). */
export async function teamsChangedSince(db: Db, since: SQL): Promise<string[]> {
  const parts = Object.values(TABLES).map(
    (t) =>
      sql`select distinct ${t.ownerTeam}::text as team from ${t} where ${t.ownerTeam} is not null and ${t.updatedAt} > ${since}`,
  )
  const found = await rows<{ team: string }>(db, sql.join(parts, sql` union `))
  return found.map((r) => r.team)
}

/** The teams with an item changed after `since` (with the overlap). */
export function teamsChangedAfter(db: Db, since: string): Promise<string[]> {
  return teamsChangedSince(db, afterOverlap(since))
}

/** The caller's rider profile (none when never saved) with its updated_at as text. */
export async function profileWithStamp(db: Db, uid: string) {
  const [row] = await db
    .select({
      profile: riderProfiles,
      stamp: sql<string>`${riderProfiles.updatedAt}::text`,
      displayName: users.displayName,
    })
    .from(users)
    .leftJoin(riderProfiles, eq(riderProfiles.uid, users.uid))
    .where(eq(users.uid, uid))
  return row
}

/** The jobs the caller may see that changed at or after `since`, oldest change first (200). */
export async function visibleJobsChangedSince(db: Db, uid: string, since: string) {
  return db
    .select({ job: jobs, stamp: sql<string>`${jobs.updatedAt}::text` })
    .from(jobs)
    .where(and(visibleTo(db, jobs, uid), sql`${jobs.updatedAt} >= ${since}::timestamptz`))
    .orderBy(asc(jobs.updatedAt))
    .limit(200)
}

/**
 * Tells every process's live hub that a team's items changed (created, edited, moved in or out,
 * deleted). NOTIFY inside a transaction is delivered at its commit. Writers that do not call this
 * (the course import, the worker) are found by the hub's poll of `updated_at`.
 */
export async function notifyTeamItems(db: Db, teams: (string | null | undefined)[]) {
  for (const team of new Set(teams.filter((t): t is string => Boolean(t)))) {
    const payload = JSON.stringify({ t: 'team-item', team })
    await db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${payload})`)
  }
}

/**
 * Someone joined or left a team: their lists gain or lose the team's items. The hub wakes them
 * (`uid`, no longer found among the members once removed) as well as the members.
 */
export async function notifyMembership(db: Db, team: string, uid: string) {
  const payload = JSON.stringify({ t: 'team-item', team, uid })
  await db.execute(sql`select pg_notify(${LIVE_CHANNEL}, ${payload})`)
}

/** The members of these teams (whose streams a team change wakes). */
export async function membersOfTeams(db: Db, teams: string[]): Promise<string[]> {
  if (teams.length === 0) return []
  const found = await db
    .selectDistinct({ uid: teamMembers.uid })
    .from(teamMembers)
    .where(inArray(teamMembers.teamId, teams))
  return found.map((m) => m.uid)
}

/**
 * What the caller's teams hold per collection, as one string per (collection, team): the count
 * and the newest `updated_at`. A creation, edit, move or deletion changes it, whoever wrote it.
 */
export async function teamItemSignature(db: Db, uid: string): Promise<Map<string, string>> {
  const parts = Object.entries(TABLES).map(
    ([name, t]) =>
      sql`select ${name} as collection, ${t.ownerTeam}::text as team, count(*)::int as n, max(${t.updatedAt})::text as at from ${t} where ${t.ownerTeam} = any(array(${myTeamIds(db, uid)})) group by ${t.ownerTeam}`,
  )
  const found = await rows<{ collection: string; team: string; n: number; at: string }>(
    db,
    sql.join(parts, sql` union all `),
  )
  return new Map(found.map((r) => [`${r.collection}|${r.team}`, `${r.n}|${r.at}`]))
}
