// Administrator commands: one implementation, run either directly on the database (the CLI
// when it can open it) or inside the running server (POST /api/admin/command).
import type { Db } from '@veloptima/db'
import { grantClaim, listClaimGrants, revokeClaim } from './repository.ts'
import { insertSubscription } from '../repositories/billing.ts'
import { listFeedback } from '../repositories/feedback.ts'
import { teamRoleSchema } from '@veloptima/contracts'
import * as users from '../repositories/users.ts'

export class AdminError extends Error {}

export type AdminResult = { lines: string[]; uidsChanged?: string[] }

const USAGE = `Usage: npm run admin -- COMMAND
  users                              list users (uid, e-mail, name, disabled, claims granted)
  grant EMAIL CLAIM                  grant a claim (e.g. create:simulations)
  revoke EMAIL CLAIM                 revoke a granted claim
  disable EMAIL | enable EMAIL       block or unblock a user
  team create NAME --owner EMAIL     create a team with its owner
  team add TEAM EMAIL [--role ROLE]  add a member (TEAM: id or unique name; ROLE: owner|admin|member)
  plan EMAIL|TEAM PLAN [--period P]  start a plan (individual|team|aero) for a user or a team,
                                     for one month or year (P: month|year, default month)
  feedback [--limit N]               the latest messages of the feedback form (default 20)`

export const usage = () => USAGE

function option(args: string[], name: string): string | undefined {
  const i = args.indexOf(name)
  if (i < 0) return undefined
  const value = args[i + 1]
  if (!value || value.startsWith('--')) throw new AdminError(`${name} needs a value.`)
  args.splice(i, 2)
  return value
}

async function userByEmail(db: Db, email: string | undefined) {
  if (!email) throw new AdminError(`Missing EMAIL.\n${USAGE}`)
  const u = await users.findUserByEmail(db, email)
  if (!u) throw new AdminError(`No user with e-mail ${email} (they must sign in once first).`)
  return u
}

async function teamByRef(db: Db, ref: string | undefined) {
  if (!ref) throw new AdminError(`Missing TEAM.\n${USAGE}`)
  if (/^[0-9a-f-]{36}$/i.test(ref)) {
    const t = await users.findTeam(db, ref)
    if (t) return t
  }
  const named = await users.findTeamByName(db, ref)
  if (named.length === 1) return named[0]!
  if (named.length > 1) {
    throw new AdminError(
      `Several teams are named "${ref}": use the id (${named.map((t) => t.id).join(', ')}).`,
    )
  }
  throw new AdminError(`No team "${ref}".`)
}

export async function runAdminCommand(db: Db, argv: string[]): Promise<AdminResult> {
  const args = [...argv]
  const command = args.shift()
  switch (command) {
    case 'users': {
      const list = await users.listUsers(db)
      const grants = await listClaimGrants(db)
      const lines = list.map((u) => {
        const claims = grants.filter((g) => g.uid === u.uid).map((g) => g.claim)
        return [
          u.uid,
          u.email,
          JSON.stringify(u.displayName),
          u.disabled ? 'DISABLED' : 'active',
          claims.join(',') || '-',
        ].join('\t')
      })
      return {
        lines: lines.length
          ? ['uid\temail\tname\tstatus\tgranted claims', ...lines]
          : ['No users yet.'],
      }
    }
    case 'grant':
    case 'revoke': {
      const u = await userByEmail(db, args[0])
      const claim = args[1]
      if (!claim || !/^[A-Za-z0-9:_.-]{1,100}$/.test(claim)) {
        throw new AdminError(`Missing or malformed CLAIM (e.g. create:simulations).\n${USAGE}`)
      }
      if (command === 'grant') {
        await grantClaim(db, u.uid, claim, 'admin-cli')
        return {
          lines: [`Granted ${claim} to ${u.email}; it applies from their next session refresh.`],
          uidsChanged: [u.uid],
        }
      }
      const revoked = await revokeClaim(db, u.uid, claim)
      return {
        lines: [
          revoked ? `Revoked ${claim} from ${u.email}.` : `${u.email} had no grant of ${claim}.`,
        ],
        uidsChanged: [u.uid],
      }
    }
    case 'disable':
    case 'enable': {
      const u = await userByEmail(db, args[0])
      await users.updateUser(db, u.uid, { disabled: command === 'disable' })
      return {
        lines: [`${u.email} is now ${command === 'disable' ? 'disabled' : 'enabled'}.`],
        uidsChanged: [u.uid],
      }
    }
    case 'team': {
      const sub = args.shift()
      if (sub === 'create') {
        const ownerEmail = option(args, '--owner')
        const name = args.join(' ').trim()
        if (!name) throw new AdminError(`Missing NAME.\n${USAGE}`)
        const owner = await userByEmail(db, ownerEmail)
        const team = await users.createTeam(db, name, owner.uid)
        return { lines: [`Created team "${team.name}" (${team.id}) owned by ${owner.email}.`] }
      }
      if (sub === 'add') {
        const roleArg = option(args, '--role') ?? 'member'
        const role = teamRoleSchema.safeParse(roleArg)
        if (!role.success)
          throw new AdminError(`--role must be owner, admin or member (got ${roleArg}).`)
        const team = await teamByRef(db, args[0])
        const u = await userByEmail(db, args[1])
        const added = await users.addMember(db, team.id, u.uid, role.data)
        if (!added) await users.setRole(db, team.id, u.uid, role.data)
        return { lines: [`${u.email} is ${role.data} of "${team.name}" (${team.id}).`] }
      }
      throw new AdminError(`Unknown team command "${sub ?? ''}".\n${USAGE}`)
    }
    case 'feedback': {
      const limit = Number(option(args, '--limit') ?? 20)
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) {
        throw new AdminError('--limit must be a whole number from 1 to 1000.')
      }
      const rows = await listFeedback(db, limit)
      if (!rows.length) return { lines: ['No feedback yet.'] }
      return {
        lines: rows.map((f) =>
          [
            f.createdAt.toISOString().slice(0, 16).replace('T', ' '),
            f.email ?? f.uid ?? '-',
            f.rating ? `${f.rating}/5` : '-',
            f.page ?? '-',
            JSON.stringify(f.text),
          ].join('\t'),
        ),
      }
    }
    case 'plan': {
      const period = option(args, '--period') ?? 'month'
      if (period !== 'month' && period !== 'year') {
        throw new AdminError(`--period must be month or year (got ${period}).`)
      }
      const [holder, plan] = args
      if (plan !== 'individual' && plan !== 'team' && plan !== 'aero') {
        throw new AdminError(`PLAN must be individual, team or aero (got ${plan ?? 'nothing'}).`)
      }
      const endsAt = new Date()
      if (period === 'month') endsAt.setMonth(endsAt.getMonth() + 1)
      else endsAt.setFullYear(endsAt.getFullYear() + 1)
      const who = holder?.includes('@')
        ? { uid: (await userByEmail(db, holder)).uid, label: holder }
        : await teamByRef(db, holder).then((t) => ({ teamId: t.id, label: `team "${t.name}"` }))
      await insertSubscription(db, {
        ...('uid' in who ? { uid: who.uid } : { teamId: who.teamId }),
        plan,
        period,
        endsAt,
      })
      return {
        lines: [
          `Started the ${plan} plan for ${who.label} until ${endsAt.toISOString().slice(0, 10)}; it applies from the next session refresh.`,
        ],
      }
    }
    default:
      throw new AdminError(command ? `Unknown command "${command}".\n${USAGE}` : USAGE)
  }
}
