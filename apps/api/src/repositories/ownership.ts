import { and, eq, or, sql, type SQL } from 'drizzle-orm'
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core'
import { teamMembers, type Db } from '@veloptima/db'

/** The two owner columns every owned collection has (owner.ts in packages/db). */
export type OwnerCols = { ownerUid: PgColumn; ownerTeam: PgColumn }

/** A table of items with an id: owned ones (`OwnerCols`) or the children of an owned item. */
type TableWithId = PgTable & { id: PgColumn }

/** Who owns an item: a user or a team. */
export type Owner = { kind: 'user'; uid: string } | { kind: 'team'; teamId: string }

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
export const isUuid = (s: string) => UUID.test(s)

/** Sub-query: the ids of the teams `uid` belongs to. */
export const myTeamIds = (db: Db, uid: string) =>
  db.select({ id: teamMembers.teamId }).from(teamMembers).where(eq(teamMembers.uid, uid))

const inMyTeams = (db: Db, t: OwnerCols, uid: string): SQL =>
  sql`${t.ownerTeam} = any(array(${myTeamIds(db, uid)}))`

/**
 * "Owned by the caller or by a team the caller is a member of." The teams are `= any(array(…))`
 * rather than `in (…)`: an array computed once (an InitPlan) is an index condition, so the
 * planner can OR two owner-index scans; `in (sub-query)` under OR is only a filter on every row.
 */
export function visibleTo(db: Db, t: OwnerCols, uid: string): SQL {
  return or(eq(t.ownerUid, uid), inMyTeams(db, t, uid))!
}

/**
 * The owner scopes of a list, each read as its own keyset branch (collection.ts `listQuery`):
 * the caller's items, their teams' items (all of them, or only the teams asked for, always
 * among the caller's memberships), and the public rows when the collection has them. Without
 * `owners` that is `visibleTo` plus the public rows. With `owners` (the specification's
 * `owner in [uid, teamId]`) only the scopes asked for, restricted to what the caller may see:
 * ids that are neither the caller nor one of the caller's teams match nothing (never an error,
 * so a stale current_team does not break the home page), nor do public rows. The scopes never
 * overlap: an item has exactly one owner, and public rows (samples) have none.
 */
export type ListScope = { kind: 'mine' } | { kind: 'teams'; only?: string[] } | { kind: 'public' }

export function listScopes(
  uid: string,
  owners: string[] | undefined,
  hasPublic: boolean,
): ListScope[] {
  if (!owners) {
    const all: ListScope[] = [{ kind: 'mine' }, { kind: 'teams' }]
    return hasPublic ? [...all, { kind: 'public' }] : all
  }
  const teamIds = [...new Set(owners.filter(isUuid))]
  const scopes: ListScope[] = []
  if (owners.includes(uid)) scopes.push({ kind: 'mine' })
  if (teamIds.length) scopes.push({ kind: 'teams', only: teamIds })
  return scopes
}

/** Item `id` of an owned table if the caller can see it (or, with `orAlso`, if that holds). */
export async function findVisible<T extends TableWithId & OwnerCols>(
  db: Db,
  table: T,
  uid: string,
  id: string,
  orAlso?: SQL,
): Promise<T['$inferSelect'] | undefined> {
  const visible = visibleTo(db, table, uid)
  const [row] = await db
    .select()
    .from(table as PgTable)
    .where(and(eq(table.id, id), orAlso ? or(visible, orAlso) : visible))
  return row as T['$inferSelect'] | undefined
}

/**
 * Row `id` of a child table (a session's runs and blocks, an optimization's results) if the
 * caller can see its parent, the owned item that `parentKey` names: children are seen and changed
 * with their parent.
 */
export async function findVisibleChild<C extends TableWithId>(
  db: Db,
  uid: string,
  id: string,
  of: { child: C; parentKey: PgColumn; parent: TableWithId & OwnerCols },
): Promise<C['$inferSelect'] | undefined> {
  const [row] = await db
    .select({ child: of.child as PgTable })
    .from(of.child as PgTable)
    .innerJoin(of.parent as PgTable, eq(of.parent.id, of.parentKey))
    .where(and(eq(of.child.id, id), visibleTo(db, of.parent, uid)))
  return row?.child as C['$inferSelect'] | undefined
}

export async function isMember(db: Db, uid: string, teamId: string): Promise<boolean> {
  if (!isUuid(teamId)) return false
  const [row] = await db
    .select({ uid: teamMembers.uid })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.uid, uid)))
  return Boolean(row)
}

/** The caller's role in a team, or undefined for a non-member. */
export async function roleIn(db: Db, uid: string, teamId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ role: teamMembers.role })
    .from(teamMembers)
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.uid, uid)))
  return row?.role
}

/** The owner of an item of `teamId` when it has one, else of the user `uid`. */
export const ownerOf = (teamId: string | null | undefined, uid: string): Owner =>
  teamId ? { kind: 'team', teamId } : { kind: 'user', uid }

export const ownerToColumns = (owner: Owner) =>
  owner.kind === 'user'
    ? { ownerUid: owner.uid, ownerTeam: null }
    : { ownerUid: null, ownerTeam: owner.teamId }

/** The API's `owner` and `owner_type` fields of a row. */
export function ownerJson(row: { ownerUid: string | null; ownerTeam: string | null }) {
  return row.ownerTeam
    ? { owner: row.ownerTeam, owner_type: 'team' as const }
    : { owner: row.ownerUid ?? '', owner_type: 'user' as const }
}
