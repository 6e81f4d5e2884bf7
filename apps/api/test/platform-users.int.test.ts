import { beforeAll, describe, expect, it } from 'vitest'
import { testDriver } from '@veloptima/db/testing'
import { suiteApp } from './helpers.ts'

describe(`users, trial, rider profile, teams and feedback on ${testDriver()}`, () => {
  const t = suiteApp()
  let alice: { authorization: string }
  let bob: { authorization: string }
  beforeAll(async () => {
    alice = await t.bearer({ uid: 'alice', displayName: 'Alice Andersen' })
    bob = await t.bearer({ uid: 'bob', displayName: 'Bob' })
  })

  const call = (
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    headers: { authorization: string },
    payload?: unknown,
  ) => t.app.inject({ method, url, headers, payload: payload as never })

  it('GET /api/users/:uid answers the caller’s own document with the specification’s fields', async () => {
    const res = await call('GET', '/api/users/alice', alice)
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      uid: 'alice',
      email: 'alice@example.com',
      display_name: 'Alice Andersen',
      photo_url: null,
      current_team: null,
      trial_used: false,
      trial_ends_at: null,
      use_imperial_units: false,
    })
  })

  it('answers 404 for another user’s document, on read and write', async () => {
    await call('GET', '/api/users/bob', bob)
    for (const [method, url, body] of [
      ['GET', '/api/users/bob', undefined],
      ['PATCH', '/api/users/bob', { use_imperial_units: true }],
      ['POST', '/api/users/bob/trial', undefined],
      ['GET', '/api/rider-profiles/bob', undefined],
      ['PUT', '/api/rider-profiles/bob', { rider_weight: 70 }],
    ] as const) {
      const res = await call(method, url, alice, body)
      expect(res.statusCode, `${method} ${url}`).toBe(404)
      expect(res.json().code).toBe('not-found')
    }
    expect((await call('GET', '/api/users/bob', bob)).json().use_imperial_units).toBe(false)
  })

  it('accepts identity-provider uids with a | (encoded or not) in the path', async () => {
    const h = await t.bearer({ uid: 'veloptima|42ab' })
    for (const url of ['/api/users/veloptima%7C42ab', '/api/users/veloptima|42ab']) {
      const res = await call('GET', url, h)
      expect(res.statusCode, url).toBe(200)
      expect(res.json().uid).toBe('veloptima|42ab')
    }
    const put = await call('PUT', '/api/rider-profiles/veloptima%7C42ab', h, { rider_weight: 66 })
    expect(put.json()).toMatchObject({ uid: 'veloptima|42ab', rider_weight: 66 })
  })

  it('requires a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/users/alice' })
    expect(res.statusCode).toBe(401)
    expect(res.json().code).toBe('unauthenticated')
  })

  it('PATCH changes units and display name and rejects unknown fields and a foreign team', async () => {
    const res = await call('PATCH', '/api/users/alice', alice, {
      use_imperial_units: true,
      display_name: 'Alice A.',
    })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toMatchObject({ use_imperial_units: true, display_name: 'Alice A.' })
    const unknown = await call('PATCH', '/api/users/alice', alice, { trial_used: false })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().code).toBe('invalid-request')
    const bobsTeam = (await call('POST', '/api/teams', bob, { name: 'Bob Racing' })).json()
    const foreign = await call('PATCH', '/api/users/alice', alice, { current_team: bobsTeam.id })
    expect(foreign.statusCode).toBe(404)
    expect(foreign.json().code).toBe('team-not-found')
    const notId = await call('PATCH', '/api/users/alice', alice, { current_team: 'nope' })
    expect(notId.statusCode).toBe(400)
    expect(notId.json().message).toContain('current_team')
  })

  it('starts the 14-day trial once; the second time answers 409 trial-used', async () => {
    const before = Date.now()
    const res = await call('POST', '/api/users/alice/trial', alice)
    expect(res.statusCode).toBe(200)
    const body = res.json()
    expect(body.trial_used).toBe(true)
    const days = (Date.parse(body.trial_ends_at) - before) / 86_400_000
    expect(days).toBeGreaterThan(13.99)
    expect(days).toBeLessThan(14.01)
    const again = await call('POST', '/api/users/alice/trial', alice)
    expect(again.statusCode).toBe(409)
    expect(again.json().code).toBe('trial-used')
  })

  it('rider profile: 404 before the first save, then upsert with merge and display-name default', async () => {
    expect((await call('GET', '/api/rider-profiles/alice', alice)).statusCode).toBe(404)
    const put = await call('PUT', '/api/rider-profiles/alice', alice, {
      rider_height: 1.72,
      rider_weight: 61.5,
    })
    expect(put.statusCode).toBe(200)
    expect(put.json()).toMatchObject({
      uid: 'alice',
      rider_name: 'Alice A.',
      rider_height: 1.72,
      rider_weight: 61.5,
      cp: null,
      w_prime: null,
    })
    const more = await call('PUT', '/api/rider-profiles/alice', alice, {
      rider_name: 'Ali',
      cp: 265,
      w_prime: 18000,
    })
    expect(more.json()).toMatchObject({ rider_name: 'Ali', rider_height: 1.72, cp: 265 })
    const back = await call('PUT', '/api/rider-profiles/alice', alice, { rider_name: '' })
    expect(back.json().rider_name).toBe('Alice A.')
    expect((await call('GET', '/api/rider-profiles/alice', alice)).json()).toMatchObject({
      rider_name: 'Alice A.',
      rider_weight: 61.5,
      w_prime: 18000,
    })
  })

  it('rider profile validation names the field, the range and the value', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ rider_height: 172 }, 'rider_height: must be at most 2.5 m (got 172)'],
      [{ rider_height: 0.9 }, 'rider_height: must be at least 1 m'],
      [{ rider_weight: 20 }, 'rider_weight: must be at least 25 kg'],
      [{ rider_weight: 251 }, 'rider_weight: must be at most 250 kg'],
      [{ cp: 40 }, 'cp: must be at least 50 W'],
      [{ cp: 701 }, 'cp: must be at most 700 W'],
      [{ w_prime: 999 }, 'w_prime: must be at least 1000 J'],
      [{ w_prime: 60001 }, 'w_prime: must be at most 60000 J'],
      [{ rider_weight: '70' }, 'rider_weight'],
    ]
    for (const [body, message] of cases) {
      const res = await call('PUT', '/api/rider-profiles/alice', alice, body)
      expect(res.statusCode, JSON.stringify(body)).toBe(400)
      expect(res.json().code).toBe('invalid-request')
      expect(res.json().message).toContain(message)
    }
  })

  it('teams: the creator is owner; members see the team; current_team accepts it', async () => {
    const created = await call('POST', '/api/teams', alice, { name: 'Alice Tri Club' })
    expect(created.statusCode).toBe(201)
    const team = created.json()
    expect(team).toMatchObject({ name: 'Alice Tri Club', role: 'owner' })
    expect((await call('GET', `/api/teams/${team.id}`, alice)).json()).toEqual({
      id: team.id,
      name: 'Alice Tri Club',
    })
    expect((await call('GET', `/api/teams/${team.id}`, bob)).statusCode).toBe(404)
    const mine = (await call('GET', '/api/teams', alice)).json()
    expect(mine.items).toEqual([{ id: team.id, name: 'Alice Tri Club', role: 'owner' }])
    const patched = await call('PATCH', '/api/users/alice', alice, { current_team: team.id })
    expect(patched.json().current_team).toBe(team.id)

    // Members: add bob (he has signed in: he has a users row), roles, leave.
    const add = await call('POST', `/api/teams/${team.id}/members`, alice, {
      email: 'BOB@example.com',
    })
    expect(add.statusCode).toBe(201)
    expect(add.json()).toMatchObject({ uid: 'bob', role: 'member' })
    expect((await call('GET', `/api/teams/${team.id}`, bob)).json().name).toBe('Alice Tri Club')
    const again = await call('POST', `/api/teams/${team.id}/members`, alice, { uid: 'bob' })
    expect(again.statusCode).toBe(409)
    expect(again.json().code).toBe('already-member')
    const nobody = await call('POST', `/api/teams/${team.id}/members`, alice, {
      email: 'nobody@example.com',
    })
    expect(nobody.statusCode).toBe(404)
    expect(nobody.json().code).toBe('user-not-found')
    // A member cannot manage; rename needs owner/admin.
    expect((await call('PATCH', `/api/teams/${team.id}`, bob, { name: 'X' })).statusCode).toBe(403)
    expect(
      (await call('POST', `/api/teams/${team.id}/members`, bob, { uid: 'alice' })).statusCode,
    ).toBe(403)
    const members = (await call('GET', `/api/teams/${team.id}/members`, bob)).json().items
    expect(members.map((m: { uid: string; role: string }) => [m.uid, m.role])).toEqual([
      ['alice', 'owner'],
      ['bob', 'member'],
    ])
    // The last owner cannot leave or be demoted.
    const demote = await call('PATCH', `/api/teams/${team.id}/members/alice`, alice, {
      role: 'member',
    })
    expect(demote.statusCode).toBe(409)
    expect(demote.json().code).toBe('last-owner')
    // Bob becomes admin, renames, then leaves; his current_team is cleared.
    expect(
      (await call('PATCH', `/api/teams/${team.id}/members/bob`, alice, { role: 'admin' })).json(),
    ).toEqual({ uid: 'bob', role: 'admin' })
    expect((await call('PATCH', `/api/teams/${team.id}`, bob, { name: 'ATC' })).json().name).toBe(
      'ATC',
    )
    await call('PATCH', '/api/users/bob', bob, { current_team: team.id })
    expect((await call('DELETE', `/api/teams/${team.id}/members/bob`, bob)).statusCode).toBe(204)
    expect((await call('GET', '/api/users/bob', bob)).json().current_team).toBeNull()
    expect((await call('GET', `/api/teams/${team.id}`, bob)).statusCode).toBe(404)
  })

  it('team validation: a name is required', async () => {
    const res = await call('POST', '/api/teams', alice, { name: '  ' })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toContain('name')
  })

  it('deleting a team is for owners and clears current_team', async () => {
    const team = (await call('POST', '/api/teams', alice, { name: 'Short-lived' })).json()
    await call('PATCH', '/api/users/alice', alice, { current_team: team.id })
    expect((await call('DELETE', `/api/teams/${team.id}`, bob)).statusCode).toBe(404)
    expect((await call('DELETE', `/api/teams/${team.id}`, alice)).statusCode).toBe(204)
    expect((await call('GET', '/api/users/alice', alice)).json().current_team).toBeNull()
  })

  it('POST /api/feedback stores the message; empty text and bad rating are rejected', async () => {
    // The feedback form is for the beta testers (docs/specification.md §6, access:betaFeedback).
    expect((await call('POST', '/api/feedback', alice, { text: 'x' })).statusCode).toBe(403)
    alice = await t.bearer({
      uid: 'alice',
      displayName: 'Alice Andersen',
      claims: { 'access:betaFeedback': true },
    })
    const ok = await call('POST', '/api/feedback', alice, {
      text: 'The W′ chart is great',
      rating: 5,
      page: '/simulation/optimizations',
    })
    expect(ok.statusCode).toBe(201)
    expect(ok.json().id).toMatch(/^[0-9a-f-]{36}$/)
    expect((await call('POST', '/api/feedback', alice, { text: '' })).statusCode).toBe(400)
    const bad = await call('POST', '/api/feedback', alice, { text: 'x', rating: 6 })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toContain('rating')
  })

  it('GET /api/subscriptions lists the caller’s plans (none yet)', async () => {
    expect((await call('GET', '/api/subscriptions', alice)).json()).toEqual({
      items: [],
      next_cursor: null,
    })
  })
})
