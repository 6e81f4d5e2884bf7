// The authorization matrix: another user's and another team's items are invisible and
// unchangeable through every endpoint (404, never someone else's data), while members of the
// owning team share the team's items.
import { beforeAll, describe, expect, it } from 'vitest'
import { courses, files, notifications, optimizationResults } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import { suiteApp } from './helpers.ts'
import { apiRoutes } from './route-table.ts'
import {
  caller,
  courseBody,
  deviceBody,
  sessionBody,
  setupBody,
  type Caller,
} from './platform-fixtures.ts'

type Items = Record<string, string>

describe(`authorization matrix on ${testDriver()}`, () => {
  const t = suiteApp()
  let alice: Caller
  let carol: Caller // member of alice's team
  let bob: Caller // another user with his own team
  let teamA: string
  let teamB: string
  const personal: Items = {}
  const team: Items = {}

  async function makeItems(owner: string, into: Items) {
    const o = { owner }
    into.setup = (await alice.post('/api/rider-setups', { ...setupBody(), ...o })).body.id
    into.course = (await alice.post('/api/courses', { ...courseBody(), ...o })).body.id
    into.optimization = (
      await alice.post('/api/optimizations', { type: 'pacing', name: 'Plan', ...o })
    ).body.id
    into.device = (await alice.post('/api/devices', { ...deviceBody(), ...o })).body.id
    into.session = (await alice.post('/api/aero-sessions', { ...sessionBody(), ...o })).body.id
    into.run = (await alice.post(`/api/aero-sessions/${into.session}/runs`, { name: 'R1' })).body.id
    into.block = (
      await alice.post(`/api/aero-sessions/${into.session}/data-blocks`, {
        kind: 'run',
        run_id: into.run,
        data: { cda: 0.25 },
      })
    ).body.id
    const [result] = await t.database.db
      .insert(optimizationResults)
      .values({ optimizationId: into.optimization!, version: 1, inputs: { x: 1 } })
      .returning()
    into.result = result!.id
    const [file] = await t.database.db
      .insert(files)
      .values({
        ...(owner === 'alice' ? { ownerUid: 'alice' } : { ownerTeam: owner }),
        name: 'a.gpx',
        contentType: 'application/gpx+xml',
        size: 10,
        storageKey: `k/${Math.random()}`,
        sha256: '0'.repeat(64),
      })
      .returning()
    into.file = file!.id
    for (const [key, id] of Object.entries(into)) expect(id, key).toMatch(/^[0-9a-f-]{36}$/)
  }

  beforeAll(async () => {
    alice = caller(t, await t.bearer({ uid: 'alice' }))
    carol = caller(t, await t.bearer({ uid: 'carol' }))
    bob = caller(t, await t.bearer({ uid: 'bob' }))
    await carol.get('/api/users/carol')
    teamA = (await alice.post('/api/teams', { name: 'A' })).body.id
    teamB = (await bob.post('/api/teams', { name: 'B' })).body.id
    await alice.post(`/api/teams/${teamA}/members`, { uid: 'carol' })
    await makeItems('alice', personal)
    await makeItems(teamA, team)
    await t.database.db.insert(notifications).values({ uid: 'alice', title: 'For Alice' })
  })

  type Attempt = [string, string, unknown?]
  /** Reading, renaming (with `patch`) and deleting the item at `url`. */
  const readPatchDelete = (url: string, patch: unknown = { name: 'stolen' }): Attempt[] => [
    ['GET', url],
    ['PATCH', url, patch],
    ['DELETE', url],
  ]
  /** Every read and write endpoint that names one of the items. */
  const attempts = (i: Items): Attempt[] => [
    ...readPatchDelete(`/api/rider-setups/${i.setup}`),
    ...readPatchDelete(`/api/courses/${i.course}`),
    ...readPatchDelete(`/api/optimizations/${i.optimization}`),
    ['GET', `/api/optimizations/${i.optimization}/results`],
    ...readPatchDelete(`/api/optimization-results/${i.result}`, { label: 'stolen' }),
    ...readPatchDelete(`/api/devices/${i.device}`),
    ...readPatchDelete(`/api/aero-sessions/${i.session}`),
    ['GET', `/api/aero-sessions/${i.session}/runs`],
    ['POST', `/api/aero-sessions/${i.session}/runs`, { name: 'intruder' }],
    ...readPatchDelete(`/api/aero-runs/${i.run}`),
    ['GET', `/api/aero-sessions/${i.session}/data-blocks`],
    ['POST', `/api/aero-sessions/${i.session}/data-blocks`, { kind: 'cdam', data: {} }],
    ['GET', `/api/aero-data-blocks/${i.block}`],
    ['DELETE', `/api/aero-data-blocks/${i.block}`],
    ['PATCH', `/api/files/${i.file}`, { name: 'stolen' }],
    // Aero analyses of the session, and moving any item to the intruder.
    ['GET', `/api/aero-sessions/${i.session}/files`],
    ['GET', `/api/aero-sessions/${i.session}/analyses`],
    ['GET', `/api/aero-sessions/${i.session}/analyses/latest`],
    ['POST', `/api/aero-sessions/${i.session}/analyses`, {}],
    ['POST', `/api/aero-runs/${i.run}/baseline`],
    ['POST', `/api/rider-setups/${i.setup}/move`, { owner: 'bob' }],
    ['POST', `/api/courses/${i.course}/move`, { owner: 'bob' }],
    ['POST', `/api/optimizations/${i.optimization}/move`, { owner: 'bob' }],
    ['POST', `/api/devices/${i.device}/move`, { owner: 'bob' }],
    ['POST', `/api/aero-sessions/${i.session}/move`, { owner: 'bob' }],
    // References to the items from the intruder's own new items.
    ['POST', '/api/optimizations', { type: 'pacing', name: 'x', course_id: i.course }],
    ['POST', '/api/optimizations', { type: 'pacing', name: 'x', rider_setup_id: i.setup }],
    ['POST', '/api/courses', { name: 'x', source_file_id: i.file }],
    ['POST', '/api/aero-sessions', { name: 'x', devices: [{ device_id: i.device }] }],
  ]

  async function snapshot(as: Caller, i: Items) {
    return {
      setup: (await as.get(`/api/rider-setups/${i.setup}`)).body,
      course: (await as.get(`/api/courses/${i.course}`)).body,
      optimization: (await as.get(`/api/optimizations/${i.optimization}`)).body,
      result: (await as.get(`/api/optimization-results/${i.result}`)).body,
      device: (await as.get(`/api/devices/${i.device}`)).body,
      session: (await as.get(`/api/aero-sessions/${i.session}`)).body,
      runs: (await as.get(`/api/aero-sessions/${i.session}/runs`)).body,
      blocks: (await as.get(`/api/aero-sessions/${i.session}/data-blocks`)).body,
      files: (await as.get('/api/files')).body,
    }
  }

  for (const [who, items] of [
    ['another user’s personal', personal],
    ['another team’s', team],
  ] as const) {
    it(`${who} items answer 404 to every read and write, and stay unchanged`, async () => {
      const before = await snapshot(alice, items)
      expect(before.setup.id).toBe(items.setup)
      for (const [method, url, body] of attempts(items)) {
        const res = await t.app.inject({
          method: method as 'GET',
          url,
          headers: await t.bearer({ uid: 'bob' }),
          payload: body as never,
        })
        expect(res.statusCode, `${method} ${url}`).toBe(404)
        expect(res.json().code, `${method} ${url}`).toMatch(/not-found/)
        expect(res.body).not.toContain('"stolen"')
      }
      expect(await snapshot(alice, items)).toEqual(before)
    })
  }

  it('lists never show another user’s or team’s items, whatever the owner filter says', async () => {
    for (const path of [
      'rider-setups',
      'courses',
      'optimizations',
      'devices',
      'aero-sessions',
      'files',
    ]) {
      expect((await bob.get(`/api/${path}`)).body.items, path).toEqual([])
      const filtered = await bob.get(`/api/${path}?owner=alice,${teamA}`)
      expect(filtered.body.items, path).toEqual([])
    }
    expect((await bob.get('/api/notifications')).body.items).toEqual([])
  })

  it('the other team, its members and membership endpoints answer 404, and nothing changes', async () => {
    const invitation = (
      await alice.post(`/api/teams/${teamA}/invitations`, { email: 'dan@example.com' })
    ).body.invitation.id as string
    /** Every route under /api/teams/:id, walked by bob (owner of his own team B). */
    const teamRoutes: [string, string, unknown?][] = [
      ['GET', '/api/teams/:id'],
      ['PATCH', '/api/teams/:id', { name: 'stolen' }],
      ['DELETE', '/api/teams/:id'],
      ['GET', '/api/teams/:id/members'],
      ['POST', '/api/teams/:id/members', { uid: 'bob', role: 'owner' }],
      ['PATCH', '/api/teams/:id/members/:uid', { role: 'member' }],
      ['DELETE', '/api/teams/:id/members/:uid'],
      ['GET', '/api/teams/:id/contents'],
      ['POST', '/api/teams/:id/transfer', { uid: 'bob' }],
      ['GET', '/api/teams/:id/invitations'],
      ['POST', '/api/teams/:id/invitations', { email: 'bob@example.com' }],
      ['DELETE', '/api/teams/:id/invitations/:invitationId'],
    ]
    // The walk covers every team route the app has (a route added later must be added here).
    const registered = apiRoutes(t.app)
      .filter((r) => r.path.startsWith('/api/teams/:'))
      .map((r) => `${r.method} ${r.path.replace(/:\w+/g, ':_')}`)
    expect(new Set(teamRoutes.map(([m, p]) => `${m} ${p.replace(/:\w+/g, ':_')}`))).toEqual(
      new Set(registered),
    )
    const fill = (p: string, member: string) =>
      p.replace(':id', teamA).replace(':uid', member).replace(':invitationId', invitation)
    const attemptsOnA: [string, string, unknown?][] = [
      ...teamRoutes.map(([m, p, b]) => [m, fill(p, 'alice'), b] as [string, string, unknown?]),
      ['DELETE', fill('/api/teams/:id/members/:uid', 'carol')],
      ['PATCH', '/api/users/bob', { current_team: teamA }],
      ['POST', '/api/rider-setups', { ...setupBody(), owner: teamA }],
      ['POST', '/api/rider-setups', { ...setupBody(), owner: 'alice' }],
    ]
    for (const [method, url, body] of attemptsOnA) {
      const res = await bob[
        method === 'GET'
          ? 'get'
          : method === 'DELETE'
            ? 'del'
            : method === 'POST'
              ? 'post'
              : 'patch'
      ](url, body as never)
      expect(res.status, `${method} ${url}`).toBe(404)
    }
    // Team A is as it was: its name, both members with their roles, the open invitation.
    expect((await alice.get(`/api/teams/${teamA}`)).body.name).toBe('A')
    const members = (await alice.get(`/api/teams/${teamA}/members`)).body.items as {
      uid: string
      role: string
    }[]
    expect(members.map((m) => [m.uid, m.role]).sort()).toEqual([
      ['alice', 'owner'],
      ['carol', 'member'],
    ])
    const open = (await alice.get(`/api/teams/${teamA}/invitations`)).body.items as { id: string }[]
    expect(open.map((i) => i.id)).toEqual([invitation])
    expect((await alice.get(`/api/teams/${teamB}`)).status).toBe(404)
  })

  it('another user’s notification answers 404 and stays unshown', async () => {
    const [mine] = (await alice.get('/api/notifications')).body.items
    expect((await bob.get(`/api/notifications/${mine.id}`)).status).toBe(404)
    expect((await bob.patch(`/api/notifications/${mine.id}`, { showed: true })).status).toBe(404)
    expect((await bob.del(`/api/notifications/${mine.id}`)).status).toBe(404)
    expect((await alice.get(`/api/notifications/${mine.id}`)).body.showed).toBe(false)
  })

  it('a member of the owning team sees and changes the team’s items, not the owner’s personal ones', async () => {
    expect((await carol.get(`/api/rider-setups/${team.setup}`)).status).toBe(200)
    expect((await carol.patch(`/api/devices/${team.device}`, { name: 'Shared' })).body.name).toBe(
      'Shared',
    )
    expect((await carol.get(`/api/aero-runs/${team.run}`)).status).toBe(200)
    expect((await carol.get(`/api/optimization-results/${team.result}`)).status).toBe(200)
    expect((await carol.get(`/api/rider-setups/${personal.setup}`)).status).toBe(404)
    const listed = await carol.get(`/api/rider-setups?owner=carol,${teamA}&limit=1`)
    expect(listed.body.items.map((s: { id: string }) => s.id)).toEqual([team.setup])
    // A team's item may only use the team's items (or samples): every member must see them.
    const mixed = await alice.post('/api/optimizations', {
      owner: teamA,
      type: 'pacing',
      name: 'Team plan',
      course_id: personal.course,
    })
    expect(mixed.status).toBe(400)
    expect(mixed.body.code).toBe('reference-not-shared')
    expect(mixed.body.message).toContain('course_id')
    const teamOpt = await alice.post('/api/optimizations', {
      owner: teamA,
      type: 'pacing',
      name: 'Team plan',
      course_id: team.course,
      rider_setup_id: team.setup,
    })
    expect(teamOpt.status).toBe(201)
    const [sample] = await t.database.db
      .insert(courses)
      .values({ name: 'Sample', sample: true })
      .returning()
    expect(
      (await carol.patch(`/api/optimizations/${teamOpt.body.id}`, { course_id: sample!.id }))
        .status,
    ).toBe(200)
    expect(
      (
        await carol.patch(`/api/optimizations/${teamOpt.body.id}`, {
          rider_setup_id: personal.setup,
        })
      ).status,
    ).toBe(404)
    const teamBlock = await alice.post(`/api/aero-sessions/${team.session}/data-blocks`, {
      kind: 'cdam',
      device_id: personal.device,
      data: {},
    })
    expect(teamBlock.body.code).toBe('reference-not-shared')
    // A personal item may use the teams' items of its owner.
    const own = await alice.post('/api/optimizations', {
      type: 'pacing',
      name: 'Mine',
      course_id: team.course,
    })
    expect(own.status).toBe(201)
    // After leaving the team, carol sees nothing of it.
    expect((await carol.del(`/api/teams/${teamA}/members/carol`)).status).toBe(204)
    expect((await carol.get(`/api/rider-setups/${team.setup}`)).status).toBe(404)
    expect((await carol.get('/api/devices')).body.items).toEqual([])
  })
})
