import type { Db } from '@veloptima/db'
import {
  teamCreateSchema,
  teamMemberAddSchema,
  teamMemberPatchSchema,
  teamPatchSchema,
  type MyTeam,
  type Team,
  type TeamMember,
} from '@veloptima/contracts'
import { AppError, forbidden, notFound } from '../errors.ts'
import { isUuid } from '../repositories/ownership.ts'
import * as repo from '../repositories/users.ts'
import { parse } from './validation.ts'

const rank: Record<repo.Role, number> = { member: 0, admin: 1, owner: 2 }

/**
 * Teams and memberships. Non-members get 404 for everything about a team; owners and admins
 * manage members; only owners make owners, rename… (admins may rename too) or delete the team;
 * a team always keeps at least one owner.
 */
export class TeamService {
  constructor(private readonly db: Db) {}

  private async membership(uid: string, teamId: string) {
    const t = isUuid(teamId) ? await repo.teamWithRole(this.db, uid, teamId) : undefined
    if (!t) throw notFound('The team')
    return t
  }

  private async manager(uid: string, teamId: string) {
    const t = await this.membership(uid, teamId)
    if (rank[t.role] < rank.admin) throw forbidden('Only the team’s owners and admins can do this.')
    return t
  }

  async mine(uid: string): Promise<{ items: MyTeam[]; next_cursor: null }> {
    return { items: await repo.teamsOf(this.db, uid), next_cursor: null }
  }

  async get(uid: string, teamId: string): Promise<Team> {
    const t = await this.membership(uid, teamId)
    return { id: t.id, name: t.name }
  }

  async create(uid: string, input: unknown): Promise<MyTeam> {
    const { name } = parse(teamCreateSchema, input)
    const team = await repo.createTeam(this.db, name, uid)
    return { id: team.id, name: team.name, role: 'owner' }
  }

  async rename(uid: string, teamId: string, input: unknown): Promise<Team> {
    const { name } = parse(teamPatchSchema, input)
    await this.manager(uid, teamId)
    const t = await repo.renameTeam(this.db, teamId, name)
    return { id: t!.id, name: t!.name }
  }

  async remove(uid: string, teamId: string): Promise<void> {
    const t = await this.membership(uid, teamId)
    if (t.role !== 'owner') throw forbidden('Only the team’s owners can delete it.')
    await repo.deleteTeam(this.db, teamId)
  }

  async members(uid: string, teamId: string): Promise<{ items: TeamMember[]; next_cursor: null }> {
    await this.membership(uid, teamId)
    const rows = await repo.members(this.db, teamId)
    return {
      items: rows.map((m) => ({
        uid: m.uid,
        email: m.email,
        display_name: m.displayName,
        role: m.role,
        created_at: m.createdAt.toISOString(),
      })),
      next_cursor: null,
    }
  }

  async addMember(uid: string, teamId: string, input: unknown): Promise<TeamMember> {
    const body = parse(teamMemberAddSchema, input)
    const me = await this.manager(uid, teamId)
    if (rank[body.role] > rank[me.role]) {
      throw forbidden(`Only owners can add a member as ${body.role}.`)
    }
    const person = body.email
      ? await repo.findUserByEmail(this.db, body.email)
      : await repo.findUser(this.db, body.uid!)
    if (!person) {
      throw new AppError(
        'user-not-found',
        404,
        `${body.email ? `email: ${body.email}` : `uid: ${body.uid}`} has not signed in to Veloptima yet; ask them to sign in once, then add them.`,
      )
    }
    if (!(await repo.addMember(this.db, teamId, person.uid, body.role))) {
      throw new AppError('already-member', 409, `${person.email} is already a member of the team.`)
    }
    const added = (await repo.members(this.db, teamId)).find((m) => m.uid === person.uid)!
    return {
      uid: added.uid,
      email: added.email,
      display_name: added.displayName,
      role: added.role,
      created_at: added.createdAt.toISOString(),
    }
  }

  async setRole(uid: string, teamId: string, memberUid: string, input: unknown) {
    const { role } = parse(teamMemberPatchSchema, input)
    const me = await this.manager(uid, teamId)
    const target = await repo.teamWithRole(this.db, memberUid, teamId)
    if (!target) throw notFound('The member')
    if (me.role !== 'owner' && (target.role === 'owner' || role === 'owner')) {
      throw forbidden('Only owners can change who is an owner.')
    }
    if (target.role === 'owner' && role !== 'owner') await this.keepAnOwner(teamId)
    await repo.setRole(this.db, teamId, memberUid, role)
    return { uid: memberUid, role }
  }

  /** Owners and admins remove members (admins not owners); anyone may leave. */
  async removeMember(uid: string, teamId: string, memberUid: string): Promise<void> {
    const me = await this.membership(uid, teamId)
    const target = await repo.teamWithRole(this.db, memberUid, teamId)
    if (!target) throw notFound('The member')
    if (memberUid !== uid) {
      if (rank[me.role] < rank.admin) throw forbidden('Only owners and admins remove members.')
      if (target.role === 'owner' && me.role !== 'owner') {
        throw forbidden('Only owners can remove an owner.')
      }
    }
    if (target.role === 'owner') await this.keepAnOwner(teamId)
    await repo.removeMember(this.db, teamId, memberUid)
  }

  private async keepAnOwner(teamId: string) {
    if ((await repo.countOwners(this.db, teamId)) <= 1) {
      throw new AppError(
        'last-owner',
        409,
        'A team needs at least one owner: make someone else owner first.',
      )
    }
  }
}
