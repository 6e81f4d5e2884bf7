import { and, eq, isNull, sql } from 'drizzle-orm'
import { teamMembers, teams, users, type Db } from '@veloptima/db'
import { computeClaims } from '../../services/claims.ts'
import type { AccessTokenClaims } from '../../services/provider-tokens.ts'
import type { SessionTokens } from '../../services/session-token.ts'

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

  await db
    .insert(users)
    .values({ uid: at.sub, email, displayName, photoUrl: profile.picture ?? null })
    .onConflictDoUpdate({
      target: users.uid,
      set: {
        email,
        displayName,
        photoUrl: profile.picture ?? null,
        updatedAt: sql`now()`,
      },
    })

  if (at.orgId) {
    // The provider's organization is the user's team (created on first sight).
    await db
      .insert(teams)
      .values({ name: at.orgName ?? at.orgId, orgId: at.orgId })
      .onConflictDoNothing()
    const [team] = await db.select().from(teams).where(eq(teams.orgId, at.orgId))
    if (team) {
      await db.insert(teamMembers).values({ teamId: team.id, uid: at.sub }).onConflictDoNothing()
      await db
        .update(users)
        .set({ currentTeam: team.id })
        .where(and(eq(users.uid, at.sub), isNull(users.currentTeam)))
    }
  }

  const claims = await computeClaims(db, at.sub, at.permissions)
  const [user] = await db.select().from(users).where(eq(users.uid, at.sub))
  if (!user) throw new Error(`user ${at.sub} is missing after upsert`)
  const [team] = user.currentTeam
    ? await db
        .select({ id: teams.id, name: teams.name })
        .from(teams)
        .where(eq(teams.id, user.currentTeam))
    : []
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
