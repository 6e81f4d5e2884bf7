import { createHash, randomBytes } from 'node:crypto'
import type { Db } from '@veloptima/db'
import {
  INVITATION_DAYS,
  invitationCreateSchema,
  invitationTokenSchema,
  teamCreateSchema,
  teamMemberAddSchema,
  teamMemberPatchSchema,
  teamPatchSchema,
  teamTransferSchema,
  type Invitation,
  type InvitationCreated,
  type InvitationPreview,
  type MyTeam,
  type Team,
  type TeamContents,
  type TeamMember,
} from '@veloptima/contracts'
import type { Mailer } from '../idp/mail.ts'
import { notifyMembership } from '../live/repository.ts'
import { AppError, forbidden, notFound } from '../errors.ts'
import { isUuid } from '../repositories/ownership.ts'
import * as teamsRepo from '../repositories/teams.ts'
import * as repo from '../repositories/users.ts'
import { assertSeatFree } from './billing.ts'
import { parse } from './validation.ts'

const rank: Record<repo.Role, number> = { member: 0, admin: 1, owner: 2 }

/**
 * Teams and memberships. Non-members get 404 for everything about a team; owners and admins
 * manage members; only owners make owners, rename… (admins may rename too) or delete the team;
 * a team always keeps at least one owner.
 */
export class TeamService {
  constructor(private readonly db: Db) {}

  /** The caller's membership or 404; exported to the invitation service. */
  async membership(uid: string, teamId: string) {
    const t = isUuid(teamId) ? await repo.teamWithRole(this.db, uid, teamId) : undefined
    if (!t) throw notFound('The team')
    return t
  }

  async manager(uid: string, teamId: string) {
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
    await this.ownerOf(uid, teamId)
    await repo.deleteTeam(this.db, teamId)
  }

  /**
   * The ids of the team's stored files, for an owner about to delete the team: the database
   * cascade drops their rows, so the bytes must be removed from storage first.
   */
  async filesToDelete(uid: string, teamId: string): Promise<string[]> {
    await this.ownerOf(uid, teamId)
    return teamsRepo.teamFileIds(this.db, teamId)
  }

  private async ownerOf(uid: string, teamId: string) {
    const t = await this.membership(uid, teamId)
    if (t.role !== 'owner') throw forbidden('Only the team’s owners can delete it.')
    return t
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
        `${body.email ? `email: ${body.email}` : `uid: ${body.uid}`} has not signed in to Veloptima yet; ask them to sign in once, then add them.`,
      )
    }
    await assertSeatFree(this.db, teamId, new Date(), 'members')
    if (!(await repo.addMember(this.db, teamId, person.uid, body.role))) {
      throw new AppError('already-member', `${person.email} is already a member of the team.`)
    }
    await notifyMembership(this.db, teamId, person.uid)
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
    await this.guarded(teamId, (tx) => repo.setRole(tx, teamId, memberUid, role))
    return { uid: memberUid, role }
  }

  /** An owner hands the team to another member: they become owner, the caller becomes admin. */
  async transfer(uid: string, teamId: string, input: unknown) {
    const { uid: to } = parse(teamTransferSchema, input)
    const me = await this.membership(uid, teamId)
    if (me.role !== 'owner') throw forbidden('Only an owner can hand the team over.')
    if (to === uid) throw new AppError('invalid-request', 'uid: you are already an owner.')
    if (!(await repo.teamWithRole(this.db, to, teamId))) throw notFound('The member')
    await teamsRepo.transferOwnership(this.db, teamId, uid, to)
    return { owner: to, previous_owner: uid, previous_owner_role: 'admin' as const }
  }

  /** What deleting the team deletes with it (members see it; owners decide). */
  async contents(uid: string, teamId: string, now = new Date()): Promise<TeamContents> {
    await this.membership(uid, teamId)
    return teamsRepo.teamContents(this.db, teamId, now)
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
    await this.guarded(teamId, (tx) => repo.removeMember(tx, teamId, memberUid))
    await notifyMembership(this.db, teamId, memberUid)
  }

  /** A membership change under the team's lock that rolls back if no owner would be left. */
  private async guarded<T>(teamId: string, change: (tx: Db) => Promise<T>): Promise<T> {
    try {
      return await teamsRepo.keepingAnOwner(this.db, teamId, change)
    } catch (error) {
      if (error instanceof teamsRepo.NoOwnerLeft) throw this.lastOwner()
      throw error
    }
  }

  private lastOwner() {
    return new AppError(
      'last-owner',
      'A team needs at least one owner: make someone else owner first.',
    )
  }

  private async keepAnOwner(teamId: string) {
    if ((await repo.countOwners(this.db, teamId)) <= 1) throw this.lastOwner()
  }
}

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex')
const DAY_MS = 86_400_000
/** Invitations a team may create per 24 hours: the server's mail must not become a spam relay. */
export const INVITATIONS_PER_DAY = 50

export type InvitationDeps = {
  db: Db
  teams: TeamService
  mailer: Mailer
  /** Whether the mailer really sends (SMTP_URL is set) or only logs. */
  mails: boolean
  /** The web app's origin, for the link. */
  publicUrl: string
  log: (line: string) => void
  now?: () => Date
}

/**
 * Invitations by e-mail. The link carries a random 256-bit token; only its SHA-256 is stored, so
 * the table alone cannot be used to join. A link is valid INVITATION_DAYS days, once, for the
 * invited e-mail address only (case-insensitive), and until it is revoked.
 */
export class InvitationService {
  private readonly now: () => Date
  constructor(private readonly deps: InvitationDeps) {
    this.now = deps.now ?? (() => new Date())
  }

  private view(row: teamsRepo.InvitationRow): Invitation {
    return {
      id: row.id,
      team_id: row.teamId,
      email: row.email,
      role: row.role,
      invited_by: row.invitedBy,
      created_at: row.createdAt.toISOString(),
      expires_at: row.expiresAt.toISOString(),
      status: row.expiresAt.getTime() > this.now().getTime() ? 'pending' : 'expired',
    }
  }

  async list(uid: string, teamId: string): Promise<{ items: Invitation[]; next_cursor: null }> {
    await this.deps.teams.manager(uid, teamId)
    const rows = await teamsRepo.openInvitations(this.deps.db, teamId)
    return { items: rows.map((r) => this.view(r)), next_cursor: null }
  }

  async create(
    caller: { uid: string; displayName: string },
    teamId: string,
    input: unknown,
  ): Promise<InvitationCreated> {
    const body = parse(invitationCreateSchema, input)
    const me = await this.deps.teams.manager(caller.uid, teamId)
    if (rank[body.role] > rank[me.role]) {
      throw forbidden(`Only owners can invite someone as ${body.role}.`)
    }
    const email = body.email.toLowerCase()
    const existing = await repo.findUserByEmail(this.deps.db, email)
    if (existing && (await repo.teamWithRole(this.deps.db, existing.uid, teamId))) {
      throw new AppError('already-member', `${email} is already a member of the team.`)
    }
    const now = this.now()
    await assertSeatFree(this.deps.db, teamId, now, 'members-and-invitations')
    const recent = await teamsRepo.invitationsSince(
      this.deps.db,
      teamId,
      new Date(now.getTime() - DAY_MS),
    )
    if (recent >= INVITATIONS_PER_DAY) {
      throw new AppError(
        'too-many-invitations',
        `The team has sent ${recent} invitations in the last 24 hours, the most allowed (${INVITATIONS_PER_DAY}); try again later.`,
      )
    }
    const token = randomBytes(32).toString('base64url')
    const row = await teamsRepo.createInvitation(
      this.deps.db,
      {
        teamId,
        email,
        role: body.role,
        tokenHash: hashToken(token),
        invitedBy: caller.uid,
        expiresAt: new Date(now.getTime() + INVITATION_DAYS * DAY_MS),
      },
      now,
    )
    const link = `${this.deps.publicUrl}/account/invitations/${token}`
    const who = caller.displayName || 'A Veloptima user'
    let emailed = false
    if (this.deps.mails) {
      try {
        await this.deps.mailer(
          email,
          `${who} invites you to the team ${me.name} on Veloptima`,
          `${who} invites you to join the team "${me.name}" on Veloptima as ${body.role}.\n\n` +
            `Open this link within ${INVITATION_DAYS} days, sign in (or sign up) with this e-mail address (${email}) and accept:\n${link}\n\n` +
            'If you do not know this person, ignore this message.',
        )
        emailed = true
      } catch (error) {
        this.deps.log(`Team invitation e-mail to ${email} failed: ${(error as Error).message}`)
      }
    }
    if (!emailed) {
      this.deps.log(`Team invitation for ${email} to "${me.name}" (not e-mailed): ${link}`)
    }
    return { invitation: this.view(row), emailed, link: emailed ? null : link }
  }

  async revoke(uid: string, teamId: string, invitationId: string): Promise<void> {
    await this.deps.teams.manager(uid, teamId)
    const row = isUuid(invitationId)
      ? await teamsRepo.findInvitation(this.deps.db, teamId, invitationId)
      : undefined
    if (!row) throw notFound('The invitation')
    if (!(await teamsRepo.revokeInvitation(this.deps.db, row.id, this.now()))) {
      throw new AppError(
        'invitation-closed',
        row.acceptedAt
          ? 'This invitation has already been accepted.'
          : 'This invitation has already been revoked.',
      )
    }
  }

  /** The invitation of a link, or an error that says plainly why the link does not work. */
  private async usable(input: unknown) {
    const { token } = parse(invitationTokenSchema, input)
    const found = await teamsRepo.invitationByTokenHash(this.deps.db, hashToken(token))
    if (!found) {
      throw new AppError(
        'invitation-invalid',
        'This invitation link is not valid: check that it was copied whole, or ask for a new one.',
      )
    }
    const { invitation: inv } = found
    if (inv.acceptedAt) {
      throw new AppError(
        'invitation-used',
        'This invitation has already been used. Each link works once; ask the team for a new one if you need it.',
      )
    }
    if (inv.revokedAt) {
      throw new AppError(
        'invitation-revoked',
        'This invitation was withdrawn by the team. Ask them for a new one if you should join.',
      )
    }
    if (inv.expiresAt.getTime() <= this.now().getTime()) {
      throw new AppError(
        'invitation-expired',
        `This invitation expired on ${inv.expiresAt.toISOString().slice(0, 10)} (links are valid ${INVITATION_DAYS} days). Ask the team for a new one.`,
      )
    }
    return found
  }

  async inspect(
    caller: { uid: string; email: string },
    input: unknown,
  ): Promise<InvitationPreview> {
    const { invitation: inv, teamName, inviterName } = await this.usable(input)
    return {
      team_name: teamName,
      email: inv.email,
      role: inv.role,
      invited_by_name: inviterName ?? null,
      expires_at: inv.expiresAt.toISOString(),
      email_matches: caller.email.toLowerCase() === inv.email,
      already_member: Boolean(await repo.teamWithRole(this.deps.db, caller.uid, inv.teamId)),
    }
  }

  async accept(caller: { uid: string; email: string }, input: unknown): Promise<MyTeam> {
    const { invitation: inv, teamName } = await this.usable(input)
    if (caller.email.toLowerCase() !== inv.email) {
      throw new AppError(
        'invitation-email-mismatch',
        `This invitation is for ${inv.email}, and you are signed in as ${caller.email}. Sign in with ${inv.email} to accept it.`,
      )
    }
    if (await repo.teamWithRole(this.deps.db, caller.uid, inv.teamId)) {
      throw new AppError('already-member', `You are already a member of ${teamName}.`)
    }
    const now = this.now()
    const used = await teamsRepo.acceptInvitation(this.deps.db, inv, caller.uid, now, (tx) =>
      assertSeatFree(tx, inv.teamId, now, 'members'),
    )
    if (!used) {
      throw new AppError('invitation-used', 'This invitation has just been used or withdrawn.')
    }
    await notifyMembership(this.deps.db, inv.teamId, caller.uid)
    return { id: inv.teamId, name: teamName, role: used.role }
  }
}
