// Moving an item between its owners (POST /api/<collection>/:id/move {owner}): who may move,
// where to, and the references rule (a team item refers only to the same team's items or samples).
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { courses, files } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import { postFile, tempDir } from './files-helpers.ts'
import { aeroSensorFit } from '../../../packages/formats/src/activity/fixtures.ts'
import { syntheticClimb } from '../../../packages/formats/test/fixtures/synthetic-climb.ts'
import { suiteApp } from './helpers.ts'
import {
  caller,
  courseBody,
  deviceBody,
  sessionBody,
  setupBody,
  type Caller,
} from './platform-fixtures.ts'

const tokenOf = (link: string) => link.slice(link.lastIndexOf('/') + 1)

/** A 10-minute field test at 1 Hz: speed, power and a gentle hill, one lap. */
const fieldTestFit = () =>
  aeroSensorFit({
    n: 600,
    t0: new Date(Date.UTC(2024, 4, 1, 8)),
    speed: (i) => 10 + Math.sin(i / 60),
    power: (i) => 250 + 20 * Math.sin(i / 30),
    altitude: (i) => 100 + 5 * Math.sin(i / 100),
    fields: [],
  })

describe(`moving items between personal and team on ${testDriver()}`, () => {
  const t = suiteApp({ PUBLIC_URL: 'https://veloptima.example', FILES_DIR: tempDir('move') })
  let olga: Caller // owner of the team
  let ada: Caller // admin
  let max: Caller // member
  let otto: Caller // outsider with his own team
  let teamId: string
  let ottoTeam: string

  /** The id of the pacing optimization `by` makes with `fields` (name, owner, course, setup). */
  const pacingOptimization = async (by: Caller, fields: Record<string, unknown>) =>
    (await by.post('/api/optimizations', { type: 'pacing', ...fields })).body.id as string

  async function invite(team: string, by: Caller, who: Caller, uid: string, role: string) {
    const inv = await by.post(`/api/teams/${team}/invitations`, {
      email: `${uid}@example.com`,
      role,
    })
    expect(inv.status, JSON.stringify(inv.body)).toBe(201)
    const ok = await who.post('/api/invitations/accept', { token: tokenOf(inv.body.link) })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
  }

  beforeAll(async () => {
    olga = caller(t, await t.bearer({ uid: 'olga' }))
    ada = caller(t, await t.bearer({ uid: 'ada' }))
    max = caller(t, await t.bearer({ uid: 'max' }))
    otto = caller(t, await t.bearer({ uid: 'otto' }))
    for (const c of [olga, ada, max, otto]) await c.get('/api/teams')
    teamId = (await olga.post('/api/teams', { name: 'Fast Club' })).body.id
    await invite(teamId, olga, ada, 'ada', 'admin')
    await invite(teamId, olga, max, 'max', 'member')
    ottoTeam = (await otto.post('/api/teams', { name: 'Other Club' })).body.id
  })

  const bodies = {
    courses: () => courseBody(),
    'rider-setups': () => setupBody(),
    optimizations: () => ({ type: 'pacing', name: 'Plan' }),
    devices: () => deviceBody(),
    'aero-sessions': () => sessionBody(),
  } as const

  for (const [path, body] of Object.entries(bodies)) {
    it(`${path}: the owner moves a personal item to the team and back; members then see it`, async () => {
      const made = await max.post(`/api/${path}`, body())
      expect(made.status).toBe(201)
      const id = made.body.id as string
      expect(made.body).toMatchObject({ owner: 'max', owner_type: 'user' })
      expect((await olga.get(`/api/${path}/${id}`)).status).toBe(404)

      const toTeam = await max.post(`/api/${path}/${id}/move`, { owner: teamId })
      expect(toTeam.status, JSON.stringify(toTeam.body)).toBe(200)
      expect(toTeam.body).toMatchObject({ id, owner: teamId, owner_type: 'team' })
      const seen = await olga.get(`/api/${path}/${id}`)
      expect(seen.body).toMatchObject({ owner: teamId, owner_type: 'team' })

      // A member may not take the team's item back; the owner may move it to herself.
      const byMember = await max.post(`/api/${path}/${id}/move`, { owner: 'max' })
      expect(byMember.status).toBe(403)
      expect(byMember.body.code).toBe('move-forbidden')
      const back = await olga.post(`/api/${path}/${id}/move`, { owner: 'olga' })
      expect(back.status, JSON.stringify(back.body)).toBe(200)
      expect(back.body).toMatchObject({ owner: 'olga', owner_type: 'user' })
      expect((await max.get(`/api/${path}/${id}`)).status).toBe(404)
    })
  }

  it('an admin moves a team item to herself; the list reports the new owner', async () => {
    const id = (await max.post('/api/devices', { ...deviceBody('AD-1'), owner: teamId })).body.id
    const moved = await ada.post(`/api/devices/${id}/move`, { owner: 'ada' })
    expect(moved.status, JSON.stringify(moved.body)).toBe(200)
    const list = await ada.get('/api/devices')
    const item = (list.body.items as { id: string; owner: string }[]).find((d) => d.id === id)
    expect(item).toMatchObject({ owner: 'ada', owner_type: 'user' })
  })

  it("someone else's item is 404; a team the caller is not in is 404 owner-not-found", async () => {
    const id = (await max.post('/api/courses', courseBody())).body.id
    const other = await otto.post(`/api/courses/${id}/move`, { owner: ottoTeam })
    expect(other.status).toBe(404)
    const stolen = await otto.post(`/api/courses/${id}/move`, { owner: 'otto' })
    expect(stolen.status).toBe(404)
    const foreign = await max.post(`/api/courses/${id}/move`, { owner: ottoTeam })
    expect(foreign.status).toBe(404)
    expect(foreign.body.code).toBe('owner-not-found')
    const bad = await max.post(`/api/courses/not-a-uuid/move`, { owner: teamId })
    expect(bad.status).toBe(404)
    const missing = await max.post(`/api/courses/${id}/move`, {})
    expect(missing.status).toBe(400)
    // Nothing changed.
    expect((await max.get(`/api/courses/${id}`)).body).toMatchObject({ owner: 'max' })
  })

  it('an optimization moving to the team must refer to the team’s course and setup (or samples)', async () => {
    const course = (await max.post('/api/courses', courseBody())).body.id
    const setup = (await max.post('/api/rider-setups', setupBody())).body.id
    const opt = await pacingOptimization(max, {
      name: 'Plan',
      course_id: course,
      rider_setup_id: setup,
    })
    const blocked = await max.post(`/api/optimizations/${opt}/move`, { owner: teamId })
    expect(blocked.status).toBe(400)
    expect(blocked.body.code).toBe('reference-not-shared')
    expect(blocked.body.message).toContain('course_id')

    expect((await max.post(`/api/courses/${course}/move`, { owner: teamId })).status).toBe(200)
    const stillBlocked = await max.post(`/api/optimizations/${opt}/move`, { owner: teamId })
    expect(stillBlocked.status).toBe(400)
    expect(stillBlocked.body.message).toContain('rider_setup_id')

    expect((await max.post(`/api/rider-setups/${setup}/move`, { owner: teamId })).status).toBe(200)
    const ok = await max.post(`/api/optimizations/${opt}/move`, { owner: teamId })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
    expect(ok.body).toMatchObject({ owner: teamId, course_id: course, rider_setup_id: setup })
  })

  it('an optimization on a sample course moves to the team (samples are shared)', async () => {
    const [sample] = await t.database.db
      .insert(courses)
      .values({ name: 'Sample: Kona', sample: true })
      .returning()
    const opt = await pacingOptimization(max, { name: 'S', course_id: sample!.id })
    const ok = await max.post(`/api/optimizations/${opt}/move`, { owner: teamId })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
  })

  it('an aero session moving to the team must use the team’s devices', async () => {
    const device = (await max.post('/api/devices', deviceBody('AS-9'))).body.id
    const made = await max.post('/api/aero-sessions', {
      ...sessionBody(),
      devices: [{ device_id: device }],
    })
    expect(made.status, JSON.stringify(made.body)).toBe(201)
    const blocked = await max.post(`/api/aero-sessions/${made.body.id}/move`, { owner: teamId })
    expect(blocked.status).toBe(400)
    expect(blocked.body.code).toBe('reference-not-shared')
    expect(blocked.body.message).toContain('devices.0.device_id')
    expect((await max.post(`/api/devices/${device}/move`, { owner: teamId })).status).toBe(200)
    const ok = await max.post(`/api/aero-sessions/${made.body.id}/move`, { owner: teamId })
    expect(ok.status, JSON.stringify(ok.body)).toBe(200)
  })

  it('moving a team item back to personal keeps its references (visible to the mover)', async () => {
    const course = (await olga.post('/api/courses', { ...courseBody(), owner: teamId })).body.id
    const opt = await pacingOptimization(olga, {
      name: 'Team plan',
      owner: teamId,
      course_id: course,
    })
    const back = await olga.post(`/api/optimizations/${opt}/move`, { owner: 'olga' })
    expect(back.status, JSON.stringify(back.body)).toBe(200)
    expect(back.body).toMatchObject({ owner: 'olga', owner_type: 'user', course_id: course })
  })

  it('a team course or setup used by a team optimization cannot leave the team (409 names it)', async () => {
    const course = (await olga.post('/api/courses', { ...courseBody(), owner: teamId })).body.id
    const setup = (await olga.post('/api/rider-setups', { ...setupBody(), owner: teamId })).body.id
    const opt = await pacingOptimization(max, {
      name: 'Club TT',
      owner: teamId,
      course_id: course,
      rider_setup_id: setup,
    })
    for (const [path, id] of [
      ['courses', course],
      ['rider-setups', setup],
    ] as const) {
      const out = await olga.post(`/api/${path}/${id}/move`, { owner: 'olga' })
      expect(out.status).toBe(409)
      expect(out.body.code).toBe('reference-in-use')
      expect(out.body.message).toContain(opt)
      expect((await max.get(`/api/${path}/${id}`)).body).toMatchObject({ owner: teamId })
    }
    // Once the optimization has left, nothing holds them.
    expect((await olga.post(`/api/optimizations/${opt}/move`, { owner: 'olga' })).status).toBe(200)
    expect((await olga.post(`/api/courses/${course}/move`, { owner: 'olga' })).status).toBe(200)
  })

  it('a team device used by a team session cannot leave the team', async () => {
    const device = (await olga.post('/api/devices', { ...deviceBody('AS-77'), owner: teamId })).body
      .id
    const session = await olga.post('/api/aero-sessions', {
      ...sessionBody(),
      owner: teamId,
      devices: [{ device_id: device }],
    })
    expect(session.status, JSON.stringify(session.body)).toBe(201)
    const out = await olga.post(`/api/devices/${device}/move`, { owner: 'olga' })
    expect(out.status).toBe(409)
    expect(out.body.message).toContain(session.body.id)
  })

  /** Max imports a GPX (the self-made climb; its file is stored as his, with the course). */
  async function importClimb() {
    const maxSim = await t.bearer({ uid: 'max', claims: { 'create:simulations': true } })
    const climbGpx = Buffer.from(syntheticClimb().gpx)
    const res = await postFile(t.app, '/api/courses/import', maxSim, 'climb.gpx', climbGpx)
    expect(res.statusCode, res.body).toBe(201)
    return res.json() as { id: string; source_file_id: string }
  }
  const fileOwner = async (id: string) =>
    (
      await t.database.db
        .select({ uid: files.ownerUid, team: files.ownerTeam })
        .from(files)
        .where(eq(files.id, id))
    )[0]

  it('an uploaded course moves with its own source file, to the team and back', async () => {
    const course = await importClimb()
    expect(await fileOwner(course.source_file_id)).toEqual({ uid: 'max', team: null })
    expect((await olga.get(`/api/files/${course.source_file_id}`)).status).toBe(404)

    const toTeam = await max.post(`/api/courses/${course.id}/move`, { owner: teamId })
    expect(toTeam.status, JSON.stringify(toTeam.body)).toBe(200)
    expect(toTeam.body).toMatchObject({ owner: teamId, source_file_id: course.source_file_id })
    // The file is the team's now: every member sees it, as the references rule wants.
    expect(await fileOwner(course.source_file_id)).toEqual({ uid: null, team: teamId })
    expect((await olga.get(`/api/files/${course.source_file_id}`)).status).toBe(200)

    const back = await olga.post(`/api/courses/${course.id}/move`, { owner: 'olga' })
    expect(back.status, JSON.stringify(back.body)).toBe(200)
    expect(await fileOwner(course.source_file_id)).toEqual({ uid: 'olga', team: null })
    expect((await max.get(`/api/files/${course.source_file_id}`)).status).toBe(404)
  })

  it('an aero session moves with the files read into it; a file another session also uses stays', async () => {
    const session = await max.post('/api/aero-sessions', sessionBody('Helmet day'))
    expect(session.status, JSON.stringify(session.body)).toBe(201)
    const id = session.body.id as string
    // a self-made field test (FIT: 1 Hz speed, power, altitude), read into the session as the
    // app uploads it
    const up = await postFile(
      t.app,
      `/api/aero-sessions/${id}/files`,
      await t.bearer({ uid: 'max' }),
      'helmet-test.fit',
      Buffer.from(fieldTestFit()),
    )
    expect(up.statusCode, up.body).toBe(201)
    const fileId = (await max.get(`/api/aero-sessions/${id}/files`)).body.items[0].file_id as string
    expect(await fileOwner(fileId)).toEqual({ uid: 'max', team: null })
    expect((await olga.get(`/api/files/${fileId}`)).status).toBe(404)

    const toTeam = await max.post(`/api/aero-sessions/${id}/move`, { owner: teamId })
    expect(toTeam.status, JSON.stringify(toTeam.body)).toBe(200)
    // every member can read the session's file now, as re-analysing and downloading need
    expect(await fileOwner(fileId)).toEqual({ uid: null, team: teamId })
    expect((await olga.get(`/api/files/${fileId}`)).status).toBe(200)

    // another session of the team refers to the same file: it no longer moves with the first one
    const twin = await olga.post('/api/aero-sessions', {
      ...sessionBody('Same file'),
      source_file_id: fileId,
      owner: teamId,
    })
    expect(twin.status, JSON.stringify(twin.body)).toBe(201)
    const back = await olga.post(`/api/aero-sessions/${id}/move`, { owner: 'olga' })
    expect(back.status, JSON.stringify(back.body)).toBe(200)
    expect(await fileOwner(fileId)).toEqual({ uid: null, team: teamId })
  })

  it('a source file another item also uses is not carried: the references rule refuses the move', async () => {
    const course = await importClimb()
    const twin = await max.post('/api/courses', {
      ...courseBody(),
      source_file_id: course.source_file_id,
    })
    expect(twin.status, JSON.stringify(twin.body)).toBe(201)
    const refused = await max.post(`/api/courses/${course.id}/move`, { owner: teamId })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: 'reference-not-shared' })
    expect(refused.body.message).toContain('source_file_id')
    // Nothing moved.
    expect(await fileOwner(course.source_file_id)).toEqual({ uid: 'max', team: null })
    expect((await max.get(`/api/courses/${course.id}`)).body).toMatchObject({ owner: 'max' })
    // Once the other course is gone, the file is the course's alone and goes with it.
    expect((await max.del(`/api/courses/${twin.body.id}`)).status).toBe(204)
    expect((await max.post(`/api/courses/${course.id}/move`, { owner: teamId })).status).toBe(200)
    expect(await fileOwner(course.source_file_id)).toEqual({ uid: null, team: teamId })
  })

  it('a file of another owner is never carried: shared, it stays; someone else’s, the rule refuses', async () => {
    const course = await importClimb()
    expect((await max.post(`/api/courses/${course.id}/move`, { owner: teamId })).status).toBe(200)
    // Olga makes a personal course from the team's file.
    const own = await olga.post('/api/courses', {
      ...courseBody(),
      source_file_id: course.source_file_id,
    })
    expect(own.status, JSON.stringify(own.body)).toBe(201)
    // The team's course leaves the team: the file is shared with Olga's course, so it stays.
    const out = await olga.post(`/api/courses/${course.id}/move`, { owner: 'olga' })
    expect(out.status, JSON.stringify(out.body)).toBe(200)
    expect(await fileOwner(course.source_file_id)).toEqual({ uid: null, team: teamId })
    // Olga's course now uses the file alone, but the file is the team's, not hers: moving the
    // course to another team of hers is refused on it.
    expect((await olga.del(`/api/courses/${course.id}`)).status).toBe(204)
    const second = (await olga.post('/api/teams', { name: 'Second Club' })).body.id as string
    const refused = await olga.post(`/api/courses/${own.body.id}/move`, { owner: second })
    expect(refused.status).toBe(400)
    expect(refused.body).toMatchObject({ code: 'reference-not-shared' })
    expect(await fileOwner(course.source_file_id)).toEqual({ uid: null, team: teamId })
  })
})
