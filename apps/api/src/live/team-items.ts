import { inArray, sql, type SQL } from 'drizzle-orm'
import {
  aeroSessions,
  courses,
  devices,
  optimizations,
  riderSetups,
  rows,
  teamMembers,
  type Db,
} from '@veloptima/db'
import type { LiveTeamItems } from '@veloptima/contracts'
import { myTeamIds } from '../repositories/ownership.ts'
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

/** The teams with an item changed after `since` (a timestamptz expression). */
export async function teamsChangedSince(db: Db, since: SQL): Promise<string[]> {
  const parts = Object.values(TABLES).map(
    (t) =>
      sql`select distinct ${t.ownerTeam}::text as team from ${t} where ${t.ownerTeam} is not null and ${t.updatedAt} > ${since}`,
  )
  const found = await rows<{ team: string }>(db, sql.join(parts, sql` union `))
  return found.map((r) => r.team)
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

/** The (collection, team) pairs whose signature differs between two readings. */
export function changedTeamItems(
  before: Map<string, string>,
  after: Map<string, string>,
): LiveTeamItems[] {
  const keys = new Set([...before.keys(), ...after.keys()])
  const changed: LiveTeamItems[] = []
  for (const key of keys) {
    if (before.get(key) === after.get(key)) continue
    const [collection, team] = key.split('|') as [TeamCollection, string]
    changed.push({ collection, team_id: team })
  }
  return changed
}
