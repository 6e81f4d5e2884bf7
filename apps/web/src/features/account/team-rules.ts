import type { TeamContents, TeamRole } from '@veloptima/contracts'

/**
 * The team rules as the API enforces them (apps/api/src/services/teams.ts), so the page offers
 * only what will succeed: owners and admins manage members, only owners make or unmake owners,
 * a team always keeps an owner.
 */
export const roleLabels: Record<TeamRole, string> = {
  owner: 'Owner',
  admin: 'Admin',
  member: 'Member',
}

export const canManage = (me: TeamRole) => me === 'owner' || me === 'admin'

/** The roles `me` may give a member who is now `target` (empty: the role is not editable). */
export function assignableRoles(me: TeamRole, target: TeamRole): TeamRole[] {
  if (me === 'owner') return ['owner', 'admin', 'member']
  if (me === 'admin' && target !== 'owner') return ['admin', 'member']
  return []
}

/** Why `me` cannot remove a member who is `target` (self: leaving), or undefined when allowed. */
export function removalBlocked(
  me: TeamRole,
  target: TeamRole,
  self: boolean,
  owners: number,
): string | undefined {
  if (target === 'owner' && owners <= 1) {
    return self
      ? 'You are the only owner: hand the team over (or delete it) before leaving.'
      : 'The only owner cannot be removed.'
  }
  if (self) return undefined
  if (!canManage(me)) return 'Only owners and admins remove members.'
  if (target === 'owner' && me !== 'owner') return 'Only owners can remove an owner.'
  return undefined
}

/** The roles an invitation may carry from `me` (owners are made by hand-over, not invited). */
export const invitableRoles = (me: TeamRole): ('admin' | 'member')[] =>
  canManage(me) ? ['member', 'admin'] : []

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`

/**
 * What deleting a team does, as the database's cascades do it (packages/db/src/schema: every
 * owned table references teams with ON DELETE CASCADE; members' current team is cleared).
 */
export function deletionSummary(c: TeamContents): string[] {
  return [
    `${plural(c.courses, 'course')}, ${plural(c.rider_setups, 'rider setup')} and ${plural(c.optimizations, 'optimization')} (with all their results) are deleted.`,
    `${plural(c.devices, 'device')} and ${plural(c.aero_sessions, 'aero session')} (with their runs and recorded data) are deleted, as are the team's ${plural(c.files, 'uploaded file')} (removed from storage).`,
    `${plural(c.members, 'member')} ${c.members === 1 ? 'loses' : 'lose'} access; personal items stay untouched, and anyone working in this team goes back to their own items.`,
    `${plural(c.pending_invitations, 'open invitation')} stop working. The team's plan records go with it.`,
  ]
}
