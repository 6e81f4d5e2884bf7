import type { Db } from '@veloptima/db'
import {
  TRIAL_DAYS,
  riderProfilePutSchema,
  userPatchSchema,
  type RiderProfile,
  type User,
} from '@veloptima/contracts'
import { AppError, notFound } from '../errors.ts'
import { isMember } from '../repositories/ownership.ts'
import * as repo from '../repositories/users.ts'
import type { SessionUser } from './session-token.ts'
import { parse } from './validation.ts'

export const userJson = (u: repo.UserRow): User => ({
  uid: u.uid,
  email: u.email,
  display_name: u.displayName,
  photo_url: u.photoUrl,
  current_team: u.currentTeam,
  trial_used: u.trialUsed,
  trial_ends_at: u.trialEndsAt?.toISOString() ?? null,
  use_imperial_units: u.useImperialUnits,
})

export const profileJson = (p: repo.ProfileRow, displayName: string): RiderProfile => ({
  uid: p.uid,
  rider_name: p.riderName ?? displayName,
  rider_height: p.riderHeight,
  rider_weight: p.riderWeight,
  cp: p.cp,
  w_prime: p.wPrime,
  updated_at: p.updatedAt.toISOString(),
})

/**
 * Users, their trial and rider profile. Only the caller's own uid exists for the caller:
 * any other uid answers 404.
 */
export class UserService {
  /** uid → time until which the row is known to exist and be enabled. */
  private readonly known = new Map<string, number>()

  constructor(
    private readonly db: Db,
    /** Length of the free trial (TRIAL_DAYS in the configuration). */
    private readonly trialDays = TRIAL_DAYS,
  ) {}

  /**
   * Makes sure the caller has a users row (the custom-token exchange creates it; a session
   * minted elsewhere may arrive first) and is not disabled. Cached for a few seconds.
   */
  async ensure(caller: SessionUser): Promise<void> {
    const until = this.known.get(caller.uid)
    if (until && until > Date.now()) return
    let row = await repo.findUser(this.db, caller.uid)
    if (!row) {
      await repo.insertUserIfMissing(this.db, {
        uid: caller.uid,
        email: caller.email,
        displayName: caller.displayName,
      })
      row = await repo.findUser(this.db, caller.uid)
    }
    if (row?.disabled) {
      this.known.delete(caller.uid)
      throw new AppError('user-disabled', 'This account has been disabled.')
    }
    if (this.known.size > 10_000) this.known.clear()
    this.known.set(caller.uid, Date.now() + 5_000)
  }

  /** Forget the cache (after disable/enable). */
  forget(uid: string) {
    this.known.delete(uid)
  }

  private async own(caller: SessionUser, uid: string): Promise<repo.UserRow> {
    const row = uid === caller.uid ? await repo.findUser(this.db, uid) : undefined
    if (!row) throw notFound('The user')
    return row
  }

  async get(caller: SessionUser, uid: string): Promise<User> {
    return userJson(await this.own(caller, uid))
  }

  async patch(caller: SessionUser, uid: string, input: unknown): Promise<User> {
    await this.own(caller, uid)
    const body = parse(userPatchSchema, input)
    if (body.current_team && !(await isMember(this.db, uid, body.current_team))) {
      throw new AppError(
        'team-not-found',
        `current_team: you are not a member of team ${body.current_team}.`,
      )
    }
    const row = await repo.updateUser(this.db, uid, {
      ...(body.current_team !== undefined ? { currentTeam: body.current_team } : {}),
      ...(body.use_imperial_units !== undefined
        ? { useImperialUnits: body.use_imperial_units }
        : {}),
      ...(body.display_name !== undefined ? { displayName: body.display_name } : {}),
    })
    return userJson(row!)
  }

  /** Starts the free trial (TRIAL_DAYS days), once per user. */
  async startTrial(caller: SessionUser, uid: string): Promise<User> {
    await this.own(caller, uid)
    const row = await repo.startTrial(this.db, uid, this.trialDays)
    if (!row) throw new AppError('trial-used', 'The free trial has already been used.')
    return userJson(row)
  }

  async profile(caller: SessionUser, uid: string): Promise<RiderProfile> {
    const user = await this.own(caller, uid)
    const p = await repo.findProfile(this.db, uid)
    if (!p) throw notFound('The rider profile')
    return profileJson(p, user.displayName)
  }

  /**
   * Creates or updates the rider profile: given fields change, omitted ones stay, null clears;
   * an empty rider_name goes back to the display name.
   */
  async putProfile(caller: SessionUser, uid: string, input: unknown): Promise<RiderProfile> {
    const user = await this.own(caller, uid)
    const b = parse(riderProfilePutSchema, input)
    const set: Parameters<typeof repo.upsertProfile>[2] = {}
    if (b.rider_name !== undefined) set.riderName = b.rider_name ? b.rider_name : null
    if (b.rider_height !== undefined) set.riderHeight = b.rider_height
    if (b.rider_weight !== undefined) set.riderWeight = b.rider_weight
    if (b.cp !== undefined) set.cp = b.cp
    if (b.w_prime !== undefined) set.wPrime = b.w_prime
    const p = await repo.upsertProfile(this.db, uid, set)
    return profileJson(p, user.displayName)
  }
}
