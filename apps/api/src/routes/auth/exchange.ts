import type { Db } from '@veloptima/db'
import { findTeam, findUser } from '../../repositories/users.ts'
import { computeClaims } from '../../services/claims.ts'
import type { AccessTokenClaims } from '../../services/provider-tokens.ts'
import type { SessionTokens } from '../../services/session-token.ts'
import { joinOrganizationTeam, upsertSignedInUser } from './repository.ts'

export type ExchangeDeps = {
  db: Db
  verifyAccessToken: (token: string) => Promise<AccessTokenClaims>
  sessionTokens: SessionTokens
  ttlSeconds: number
  /** Reads the profile from the provider's userinfo when the access token does not carry it. */
  userinfo: (accessToken: string) => Promise<{ email?: string; name?: string; picture?: string }>
}

export type ExchangeResult = {
  firebaseToken: string
  expires_at: string
  user: {
    uid: string
    email: string
    displayName: string
    photoUrl: string | null
    current_team: string | null
    trial_used: boolean
  }
  claims: Record<string, boolean>
  team: { id: string; name: string } | null
}

/**
 * The custom-token exchange (§4 steps 2–4): verify the provider's access token, upsert the
 * user (and the team of the provider's organization), compute the claims and sign the app's
 * own session token.
 */
export async function exchangeAccessToken(
  deps: ExchangeDeps,
  accessToken: string,
): Promise<ExchangeResult> {
  const { db } = deps
  const at = await deps.verifyAccessToken(accessToken)
  let profile = { email: at.email, name: at.name, picture: at.picture }
  if (!profile.email) profile = { ...profile, ...(await deps.userinfo(accessToken)) }
  const email = profile.email ?? ''
  const displayName = profile.name ?? email.split('@')[0] ?? ''

  await upsertSignedInUser(db, {
    uid: at.sub,
    email,
    displayName,
    photoUrl: profile.picture ?? null,
  })

  if (at.orgId) {
    // The provider's organization is the user's team (created on first sight).
    const org = { orgId: at.orgId, name: at.orgName ?? at.orgId }
    await joinOrganizationTeam(db, at.sub, org, { current: 'if-none' })
  }

  const claims = await computeClaims(db, at.sub, at.permissions)
  const user = await findUser(db, at.sub)
  if (!user) throw new Error(`user ${at.sub} is missing after upsert`)
  const current = user.currentTeam ? await findTeam(db, user.currentTeam) : undefined
  const team = current ? { id: current.id, name: current.name } : undefined
  const { token, expiresAt } = await deps.sessionTokens.sign(
    { uid: user.uid, email: user.email, displayName: user.displayName, claims },
    deps.ttlSeconds,
  )
  return {
    firebaseToken: token,
    expires_at: expiresAt.toISOString(),
    user: {
      uid: user.uid,
      email: user.email,
      displayName: user.displayName,
      photoUrl: user.photoUrl,
      current_team: user.currentTeam,
      trial_used: user.trialUsed,
    },
    claims,
    team: team ?? null,
  }
}
