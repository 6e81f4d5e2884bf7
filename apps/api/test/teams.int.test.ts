import { createHash } from 'node:crypto'
import { readdirSync } from 'node:fs'
import type { Server } from 'node:net'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { courses, teamInvitations } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import { postFile, syntheticGpx, tempDir } from './files-helpers.ts'
import { INVITATIONS_PER_DAY } from '../src/services/teams.ts'
import { startTestApp, type TestApp } from './helpers.ts'
import { caller, courseBody, deviceBody, setupBody, type Caller } from './platform-fixtures.ts'
import { smtpServer, type ReceivedMail } from './smtp-server.ts'

const tokenOf = (link: string) => link.slice(link.lastIndexOf('/') + 1)

describe(`teams: members, roles, ownership and invitations on ${testDriver()}`, () => {
  let t: TestApp
  let owner: Caller
  let admin: Caller
  let member: Caller
  let outsider: Caller
  let teamId: string
  const filesDir = tempDir('teams-files')
  /** The stored files' bytes on disk (the local storage backend). */
  const storedFiles = () =>
    readdirSync(filesDir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())

  /** A team with an owner, an admin and a member (made through invitations). */
  async function newTeam(name: string) {
    const team = await owner.post('/api/teams', { name })
    expect(team.status).toBe(201)
    const id = team.body.id as string
    for (const [who, uid, role] of [
      [admin, 'ada', 'admin'],
      [member, 'max', 'member'],
    ] as const) {
      const inv = await owner.post(`/api/teams/${id}/invitations`, {
        email: `${uid}@example.com`,
        role,
      })
      expect(inv.status).toBe(201)
      const ok = await who.post('/api/invitations/accept', { token: tokenOf(inv.body.link) })
      expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    }
    return id
  }

  beforeAll(async () => {
    t = await startTestApp({ PUBLIC_URL: 'https://veloptima.example', FILES_DIR: filesDir })
    owner = caller(t, await t.bearer({ uid: 'olga', displayName: 'Olga Owner' }))
    admin = caller(t, await t.bearer({ uid: 'ada' }))
    member = caller(t, await t.bearer({ uid: 'max' }))
    outsider = caller(t, await t.bearer({ uid: 'otto' }))
    for (const c of [owner, admin, member, outsider]) await c.get('/api/teams')
    teamId = await newTeam('Fast Club')
  })
  afterAll(() => t.close())

  it('invitation: the link is shown when not e-mailed, hashed at rest, and joins with the invited role', async () => {
    const inv = await owner.post(`/api/teams/${teamId}/invitations`, {
      email: 'Rita@Example.com',
    })
    expect(inv.status).toBe(201)
    expect(inv.body.emailed).toBe(false)
    expect(inv.body.link).toMatch(/^https:\/\/veloptima\.example\/account\/invitations\/[\w-]{43}$/)
    expect(inv.body.invitation).toMatchObject({ email: 'rita@example.com', role: 'member' })
    expect(inv.body.invitation.status).toBe('pending')
    const days =
      (Date.parse(inv.body.invitation.expires_at) - Date.parse(inv.body.invitation.created_at)) /
      86_400_000
    expect(days).toBeCloseTo(7, 6)
    const token = tokenOf(inv.body.link)
    const [row] = await t.database.db
      .select()
      .from(teamInvitations)
      .where(eq(teamInvitations.id, inv.body.invitation.id))
    // Only the SHA-256 of the token is stored (computed here independently).
    expect(row!.tokenHash).toBe(createHash('sha256').update(token).digest('hex'))
    expect(JSON.stringify(row)).not.toContain(token)

    const rita = caller(t, await t.bearer({ uid: 'rita', email: 'RITA@example.COM' }))
    const seen = await rita.post('/api/invitations/inspect', { token })
    expect(seen.status).toBe(200)
    expect(seen.body).toMatchObject({
      team_name: 'Fast Club',
      email: 'rita@example.com',
      role: 'member',
      invited_by_name: 'Olga Owner',
      email_matches: true,
      already_member: false,
    })
    const accepted = await rita.post('/api/invitations/accept', { token })
    expect(accepted.status).toBe(200)
    expect(accepted.body).toEqual({ id: teamId, name: 'Fast Club', role: 'member' })
    // The new member works in the team at once (they had no current team).
    expect((await rita.get('/api/users/rita')).body.current_team).toBe(teamId)
    const members = (await owner.get(`/api/teams/${teamId}/members`)).body.items
    expect(members.map((m: { uid: string; role: string }) => `${m.uid}:${m.role}`)).toEqual([
      'olga:owner',
      'ada:admin',
      'max:member',
      'rita:member',
    ])
    // Used: no longer listed, and the link does not work a second time.
    const open = (await owner.get(`/api/teams/${teamId}/invitations`)).body.items
    expect(open.map((i: { email: string }) => i.email)).not.toContain('rita@example.com')
    const replay = await rita.post('/api/invitations/accept', { token })
    expect(replay.status).toBe(410)
    expect(replay.body.code).toBe('invitation-used')
    const replayOther = await outsider.post('/api/invitations/inspect', { token })
    expect(replayOther.body.code).toBe('invitation-used')
    expect(replayOther.body.message).toMatch(/already been used/)
  })

  it('invitation: another e-mail address cannot accept it; inspect says so first', async () => {
    const inv = await owner.post(`/api/teams/${teamId}/invitations`, { email: 'sam@example.com' })
    const token = tokenOf(inv.body.link)
    const seen = await outsider.post('/api/invitations/inspect', { token })
    expect(seen.body).toMatchObject({ email: 'sam@example.com', email_matches: false })
    const wrong = await outsider.post('/api/invitations/accept', { token })
    expect(wrong.status).toBe(403)
    expect(wrong.body.code).toBe('invitation-email-mismatch')
    expect(wrong.body.message).toContain('sam@example.com')
    expect((await outsider.get(`/api/teams/${teamId}`)).status).toBe(404)
    // Still usable by the invited person.
    const sam = caller(t, await t.bearer({ uid: 'sam' }))
    expect((await sam.post('/api/invitations/accept', { token })).status).toBe(200)
  })

  it('invitation: a wrong, expired or revoked link says so plainly', async () => {
    const wrong = await outsider.post('/api/invitations/accept', { token: 'x'.repeat(43) })
    expect(wrong.status).toBe(404)
    expect(wrong.body.code).toBe('invitation-invalid')
    expect(wrong.body.message).toMatch(/not valid/)
    const empty = await outsider.post('/api/invitations/accept', {})
    expect(empty.status).toBe(400)
    expect(empty.body.message).toContain('token')

    // Expired: the stored expiry is put one second in the past.
    const late = await owner.post(`/api/teams/${teamId}/invitations`, { email: 'otto@example.com' })
    await t.database.db
      .update(teamInvitations)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(teamInvitations.id, late.body.invitation.id))
    const listed = (await owner.get(`/api/teams/${teamId}/invitations`)).body.items
    expect(listed.find((i: { id: string }) => i.id === late.body.invitation.id).status).toBe(
      'expired',
    )
    for (const path of ['/api/invitations/inspect', '/api/invitations/accept']) {
      const res = await outsider.post(path, { token: tokenOf(late.body.link) })
      expect(res.status, path).toBe(410)
      expect(res.body.code).toBe('invitation-expired')
      expect(res.body.message).toMatch(/expired on \d{4}-\d\d-\d\d/)
    }

    // Revoked: by an admin; revoking twice is a conflict; the link then says it was withdrawn.
    const again = await owner.post(`/api/teams/${teamId}/invitations`, {
      email: 'otto@example.com',
    })
    const id = again.body.invitation.id
    expect((await member.del(`/api/teams/${teamId}/invitations/${id}`)).status).toBe(403)
    expect((await outsider.del(`/api/teams/${teamId}/invitations/${id}`)).status).toBe(404)
    expect((await admin.del(`/api/teams/${teamId}/invitations/${id}`)).status).toBe(204)
    const twice = await admin.del(`/api/teams/${teamId}/invitations/${id}`)
    expect(twice.status).toBe(409)
    expect(twice.body.code).toBe('invitation-closed')
    const revoked = await outsider.post('/api/invitations/accept', {
      token: tokenOf(again.body.link),
    })
    expect(revoked.status).toBe(410)
    expect(revoked.body.code).toBe('invitation-revoked')
    expect((await outsider.get(`/api/teams/${teamId}`)).status).toBe(404)
  })

  it('invitation: a new one to the same address replaces the open one; members are not re-invited', async () => {
    const first = await admin.post(`/api/teams/${teamId}/invitations`, { email: 'vic@example.com' })
    const second = await admin.post(`/api/teams/${teamId}/invitations`, {
      email: 'VIC@example.com',
    })
    const open = (await admin.get(`/api/teams/${teamId}/invitations`)).body.items.filter(
      (i: { email: string }) => i.email === 'vic@example.com',
    )
    expect(open.map((i: { id: string }) => i.id)).toEqual([second.body.invitation.id])
    const vic = caller(t, await t.bearer({ uid: 'vic' }))
    const old = await vic.post('/api/invitations/accept', { token: tokenOf(first.body.link) })
    expect(old.body.code).toBe('invitation-revoked')
    const member_ = await owner.post(`/api/teams/${teamId}/invitations`, {
      email: 'max@example.com',
    })
    expect(member_.status).toBe(409)
    expect(member_.body.code).toBe('already-member')
  })

  it('invitation: who may invite, and as what', async () => {
    const base = `/api/teams/${teamId}/invitations`
    expect((await outsider.post(base, { email: 'a@example.com' })).status).toBe(404)
    expect((await outsider.get(base)).status).toBe(404)
    const byMember = await member.post(base, { email: 'a@example.com' })
    expect(byMember.status).toBe(403)
    expect(byMember.body.code).toBe('forbidden')
    expect((await member.get(base)).status).toBe(403)
    expect((await admin.post(base, { email: 'a@example.com', role: 'admin' })).status).toBe(201)
    const asOwner = await owner.post(base, { email: 'b@example.com', role: 'owner' })
    expect(asOwner.status).toBe(400)
    expect(asOwner.body.message).toContain('role')
    const notEmail = await owner.post(base, { email: 'nobody' })
    expect(notEmail.status).toBe(400)
    expect(notEmail.body.message).toContain('email')
  })

  it('invitation: at most INVITATIONS_PER_DAY per team in 24 hours (older ones do not count)', async () => {
    const id = (await owner.post('/api/teams', { name: 'Busy Club' })).body.id as string
    const row = (n: number, hoursAgo: number) => ({
      teamId: id,
      email: `bulk${n}@example.com`,
      role: 'member' as const,
      tokenHash: `bulk-${id}-${n}`,
      createdAt: new Date(Date.now() - hoursAgo * 3_600_000),
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    // 49 in the last day and 10 older: one more may be sent, then the limit answers 429.
    await t.database.db
      .insert(teamInvitations)
      .values([
        ...Array.from({ length: INVITATIONS_PER_DAY - 1 }, (_, n) => row(n, 1)),
        ...Array.from({ length: 10 }, (_, n) => row(100 + n, 30)),
      ])
    const last = await owner.post(`/api/teams/${id}/invitations`, { email: 'last@example.com' })
    expect(last.status).toBe(201)
    const over = await owner.post(`/api/teams/${id}/invitations`, { email: 'over@example.com' })
    expect(over.status).toBe(429)
    expect(over.body.code).toBe('too-many-invitations')
    expect(over.body.message).toContain(`${INVITATIONS_PER_DAY}`)
  })

  it('roles: admins manage members, only owners make or unmake owners', async () => {
    const id = await newTeam('Roles Club')
    const m = `/api/teams/${id}/members`
    expect((await member.patch(`${m}/max`, { role: 'admin' })).status).toBe(403)
    expect((await outsider.patch(`${m}/max`, { role: 'admin' })).status).toBe(404)
    expect((await admin.patch(`${m}/olga`, { role: 'member' })).status).toBe(403)
    expect((await admin.patch(`${m}/max`, { role: 'owner' })).status).toBe(403)
    expect((await admin.del(`${m}/olga`)).status).toBe(403)
    expect((await admin.patch(`${m}/max`, { role: 'admin' })).body).toEqual({
      uid: 'max',
      role: 'admin',
    })
    expect((await admin.patch(`${m}/max`, { role: 'member' })).status).toBe(200)
    expect((await member.del(`${m}/ada`)).status).toBe(403)
    expect((await admin.del(`${m}/max`)).status).toBe(204)
    expect((await member.get(`/api/teams/${id}`)).status).toBe(404)
    expect((await admin.patch(`${m}/nobody`, { role: 'member' })).status).toBe(404)
  })

  it('the last owner can neither leave nor be demoted; transfer hands the team over', async () => {
    const id = await newTeam('Owner Club')
    const m = `/api/teams/${id}/members`
    for (const res of [
      await owner.del(`${m}/olga`),
      await owner.patch(`${m}/olga`, { role: 'admin' }),
    ]) {
      expect(res.status).toBe(409)
      expect(res.body.code).toBe('last-owner')
      expect(res.body.message).toMatch(/at least one owner/)
    }
    const tr = `/api/teams/${id}/transfer`
    expect((await admin.post(tr, { uid: 'max' })).status).toBe(403)
    expect((await member.post(tr, { uid: 'max' })).status).toBe(403)
    expect((await outsider.post(tr, { uid: 'max' })).status).toBe(404)
    expect((await owner.post(tr, { uid: 'otto' })).status).toBe(404)
    expect((await owner.post(tr, { uid: 'olga' })).status).toBe(400)
    const done = await owner.post(tr, { uid: 'ada' })
    expect(done.status).toBe(200)
    const roles = (await admin.get(m)).body.items.map(
      (x: { uid: string; role: string }) => `${x.uid}:${x.role}`,
    )
    expect(roles).toEqual(['olga:admin', 'ada:owner', 'max:member'])
    // Olga (now admin) can leave; Ada, the only owner, cannot.
    expect((await owner.del(`${m}/olga`)).status).toBe(204)
    expect((await admin.del(`${m}/ada`)).body.code).toBe('last-owner')
    // A member leaves on their own.
    expect((await member.del(`${m}/max`)).status).toBe(204)
    expect((await member.get(m)).status).toBe(404)
  })

  it('two owners leaving at the same moment: one succeeds, the team keeps an owner', async () => {
    // On PostgreSQL both pre-checks see two owners; without the team-row lock and the owner count
    // after the change, both leave (checked by removing the guard: [204, 204]).
    const id = await newTeam('Race Club')
    const m = `/api/teams/${id}/members`
    expect((await owner.patch(`${m}/ada`, { role: 'owner' })).status).toBe(200)
    const results = await Promise.all([owner.del(`${m}/olga`), admin.del(`${m}/ada`)])
    expect(results.map((r) => r.status).sort()).toEqual([204, 409])
    expect(results.find((r) => r.status === 409)!.body.code).toBe('last-owner')
    const left = (await member.get(m)).body.items.filter(
      (x: { role: string }) => x.role === 'owner',
    )
    expect(left).toHaveLength(1)
  })

  it('rename and contents: members read, admins rename, outsiders get 404', async () => {
    const id = await newTeam('Rename Club')
    expect((await outsider.patch(`/api/teams/${id}`, { name: 'X' })).status).toBe(404)
    expect((await member.patch(`/api/teams/${id}`, { name: 'X' })).status).toBe(403)
    expect((await admin.patch(`/api/teams/${id}`, { name: 'Renamed' })).body.name).toBe('Renamed')
    expect((await outsider.get(`/api/teams/${id}/contents`)).status).toBe(404)
    expect((await outsider.get(`/api/teams/${id}/members`)).status).toBe(404)
    expect((await member.get(`/api/teams/${id}/contents`)).status).toBe(200)
  })

  it('deleting a team: owners only; its items go, the members’ own items stay', async () => {
    const id = await newTeam('Doomed Club')
    await member.patch('/api/users/max', { current_team: id })
    const teamCourse = await member.post('/api/courses', { ...courseBody('Team loop'), owner: id })
    expect(teamCourse.status).toBe(201)
    expect((await admin.post('/api/rider-setups', { ...setupBody(), owner: id })).status).toBe(201)
    expect((await owner.post('/api/devices', { ...deviceBody('T-1'), owner: id })).status).toBe(201)
    const mine = await member.post('/api/courses', courseBody('My loop'))
    const max = await t.bearer({ uid: 'max' })
    const file = await postFile(t.app, '/api/files', max, 'team.gpx', syntheticGpx(), { owner: id })
    expect(file.statusCode).toBe(201)
    const before = storedFiles().length
    await owner.post(`/api/teams/${id}/invitations`, { email: 'zoe@example.com' })
    const contents = await member.get(`/api/teams/${id}/contents`)
    expect(contents.body).toEqual({
      courses: 1,
      rider_setups: 1,
      optimizations: 0,
      devices: 1,
      aero_sessions: 0,
      files: 1,
      members: 3,
      pending_invitations: 1,
    })
    expect((await outsider.del(`/api/teams/${id}`)).status).toBe(404)
    expect((await member.del(`/api/teams/${id}`)).status).toBe(403)
    expect((await admin.del(`/api/teams/${id}`)).status).toBe(403)
    expect((await owner.del(`/api/teams/${id}`)).status).toBe(204)
    // The team's uploaded file is gone from storage too, not only its row.
    expect(storedFiles().length).toBe(before - 1)
    expect((await member.get(`/api/files/${file.json().id}`)).status).toBe(404)
    const left = await t.database.db
      .select()
      .from(courses)
      .where(eq(courses.id, teamCourse.body.id))
    expect(left).toEqual([])
    expect((await member.get(`/api/courses/${mine.body.id}`)).status).toBe(200)
    expect((await member.get('/api/users/max')).body.current_team).toBeNull()
    const invs = await t.database.db
      .select()
      .from(teamInvitations)
      .where(eq(teamInvitations.teamId, id))
    expect(invs).toEqual([])
  })
})

describe(`team invitations by e-mail (SMTP_URL set) on ${testDriver()}`, () => {
  const received: ReceivedMail[] = []
  let server: Server
  let t: TestApp
  beforeAll(async () => {
    server = smtpServer(received)
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const { port } = server.address() as { port: number }
    t = await startTestApp({
      SMTP_URL: `smtp://127.0.0.1:${port}`,
      PUBLIC_URL: 'https://veloptima.example',
    })
  })
  afterAll(async () => {
    await t.close()
    await new Promise((r) => server.close(r))
  })

  it('sends the link by e-mail and does not show it to the inviter', async () => {
    const coach = caller(t, await t.bearer({ uid: 'coach', displayName: 'Coach Carter' }))
    const team = await coach.post('/api/teams', { name: 'Mail Club' })
    const inv = await coach.post(`/api/teams/${team.body.id}/invitations`, {
      email: 'rider@example.com',
    })
    expect(inv.status).toBe(201)
    expect(inv.body).toMatchObject({ emailed: true, link: null })
    expect(received).toHaveLength(1)
    // Quoted-printable may wrap long lines with "=\n": unwrap before reading the link.
    const text = received[0]!.data.replace(/=\n/g, '').replace(/=3D/g, '=')
    expect(text).toContain('To: rider@example.com')
    expect(text).toContain('Mail Club')
    const link = /https:\/\/veloptima\.example\/account\/invitations\/([\w-]{43})/.exec(text)
    expect(link).not.toBeNull()
    const rider = caller(t, await t.bearer({ uid: 'rider' }))
    const ok = await rider.post('/api/invitations/accept', { token: link![1] })
    expect(ok.body).toMatchObject({ id: team.body.id, role: 'member' })
  })
})
