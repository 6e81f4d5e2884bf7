import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { claimGrants, subscriptions, teamMembers, users } from '@veloptima/db'
import { DEMO_PASSWORD } from '../src/idp/index.ts'
import { loadSessionTokens } from '../src/services/session-token.ts'
import { forSuite, suiteApp } from './helpers.ts'
import { signInWithPassword, startIdentity, type Identity } from './idp-flow.ts'

describe('POST /api/auth/custom-token', () => {
  let id: Identity
  const exchange = (accessToken: unknown) =>
    id.t.app.inject({ method: 'POST', url: '/api/auth/custom-token', payload: { accessToken } })
  const accessTokenOf = async (email: string, password = DEMO_PASSWORD) => {
    const { tokens } = await signInWithPassword(id.settings, email, password)
    if (!tokens) throw new Error(`could not sign in ${email}`)
    return tokens.access_token
  }

  beforeAll(async () => {
    id = await startIdentity()
  })
  afterAll(() => id.close())

  it('gives the rider a session token with create:simulations and no team', async () => {
    const response = await exchange(await accessTokenOf('rider@example.com'))
    expect(response.statusCode).toBe(200)
    const body = response.json()
    expect(body.claims).toEqual({ 'create:simulations': true })
    expect(body.user).toMatchObject({
      email: 'rider@example.com',
      displayName: 'Demo Rider',
      current_team: null,
      trial_used: false,
    })
    expect(body.team).toBeNull()
    expect(Date.parse(body.expires_at) - Date.now()).toBeGreaterThan(3500_000)
    // The session token is the app's own and opens authenticated routes.
    const tokens = await loadSessionTokens(id.t.database, id.config.publicUrl)
    expect(await tokens.verify(body.firebaseToken)).toEqual({
      uid: body.user.uid,
      email: 'rider@example.com',
      displayName: 'Demo Rider',
      claims: { 'create:simulations': true },
    })
  })

  it('gives the coach four claims and the team', async () => {
    const body = (await exchange(await accessTokenOf('coach@example.com'))).json()
    expect(body.claims).toEqual({
      'access:aerooptimization': true,
      'access:betaFeedback': true,
      'create:simulations': true,
      'use:multipleRiderProfiles': true,
    })
    expect(body.team).toMatchObject({ name: 'Veloptima Demo Team' })
    expect(body.user.current_team).toBe(body.team.id)
  })

  it('gives the new user no claims', async () => {
    const body = (await exchange(await accessTokenOf('new@example.com'))).json()
    expect(body.claims).toEqual({})
  })

  it('adds a running trial and administrator grants, and drops an ended trial', async () => {
    const token = await accessTokenOf('new@example.com')
    const { uid } = (await exchange(token)).json().user
    const { db } = id.t.database
    await db
      .update(users)
      .set({ trialEndsAt: new Date(Date.now() + 86_400_000) })
      .where(eq(users.uid, uid))
    await db.insert(claimGrants).values({ uid, claim: 'access:betaFeedback', grantedBy: 'test' })
    expect((await exchange(token)).json().claims).toEqual({
      'access:betaFeedback': true,
      'create:simulations': true,
    })
    await db
      .update(users)
      .set({ trialEndsAt: new Date(Date.now() - 1000) })
      .where(eq(users.uid, uid))
    expect((await exchange(token)).json().claims).toEqual({ 'access:betaFeedback': true })
  })

  it('adds the claims of active plans held by the user or by the user’s team', async () => {
    const riderToken = await accessTokenOf('rider@example.com')
    const rider = (await exchange(riderToken)).json()
    const coachToken = await accessTokenOf('coach@example.com')
    const coach = (await exchange(coachToken)).json()
    const { db } = id.t.database
    const day = 86_400_000
    await db.insert(subscriptions).values([
      { uid: rider.user.uid, plan: 'aero', period: 'month', endsAt: new Date(Date.now() + day) },
      // Ended, and cancelled: neither counts.
      { uid: rider.user.uid, plan: 'team', period: 'month', endsAt: new Date(Date.now() - day) },
      {
        uid: rider.user.uid,
        plan: 'team',
        period: 'year',
        status: 'cancelled',
        endsAt: new Date(Date.now() + day),
      },
    ])
    expect((await exchange(riderToken)).json().claims).toEqual({
      'access:aerooptimization': true,
      'create:simulations': true,
    })
    // The coach's team holds a team plan; the rider joins that team and gets it too.
    await db.insert(subscriptions).values({
      teamId: coach.team.id,
      plan: 'team',
      period: 'year',
      endsAt: new Date(Date.now() + day),
    })
    await db.insert(teamMembers).values({ teamId: coach.team.id, uid: rider.user.uid })
    expect((await exchange(riderToken)).json().claims).toEqual({
      'access:aerooptimization': true,
      'create:simulations': true,
      'use:multipleRiderProfiles': true,
    })
  })

  it('refuses a disabled user with user-disabled', async () => {
    const token = await accessTokenOf('rider@example.com')
    const { uid } = (await exchange(token)).json().user
    await id.t.database.db.update(users).set({ disabled: true }).where(eq(users.uid, uid))
    const response = await exchange(token)
    expect(response.statusCode).toBe(403)
    expect(response.json().code).toBe('user-disabled')
    await id.t.database.db.update(users).set({ disabled: false }).where(eq(users.uid, uid))
  })

  it('refuses a token that is not the provider’s with invalid-credential', async () => {
    const token = await accessTokenOf('rider@example.com')
    const [h, p, s] = token.split('.')
    const tampered = `${h}.${p}.${s!.slice(0, -4)}${s!.endsWith('AAAA') ? 'BBBB' : 'AAAA'}`
    const response = await exchange(tampered)
    expect(response.statusCode).toBe(401)
    expect(response.json().code).toBe('invalid-credential')
    expect((await exchange('not-a-jwt')).json().code).toBe('invalid-credential')
  })

  it('answers a request without an access token with invalid-request', async () => {
    const response = await id.t.app.inject({
      method: 'POST',
      url: '/api/auth/custom-token',
      payload: {},
    })
    expect(response.statusCode).toBe(400)
    expect(response.json().code).toBe('invalid-request')
  })
})

describe('GET /api/public-config', () => {
  const id = forSuite(() => startIdentity())

  it('tells the SPA the embedded provider’s domain, client and audience, without a session', async () => {
    const response = await id.t.app.inject({ method: 'GET', url: '/api/public-config' })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({
      auth: {
        domain: id.settings.issuer.replace(/\/$/, ''),
        client_id: 'veloptima-web',
        audience: id.settings.audience,
      },
      map_tile_url: expect.stringContaining('{z}'),
    })
  })
})

describe('custom-token rate limit', () => {
  const t = suiteApp()

  it('answers too-many-requests after 60 exchanges a minute from one address', async () => {
    const codes: string[] = []
    for (let i = 0; i < 61; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/auth/custom-token',
        payload: { accessToken: 'x.y.z' },
      })
      codes.push(response.json().code)
    }
    expect(codes.slice(0, 60).every((c) => c === 'invalid-credential')).toBe(true)
    expect(codes[60]).toBe('too-many-requests')
  })
})
