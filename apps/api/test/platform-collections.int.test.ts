import { beforeAll, describe, expect, it } from 'vitest'
import { courses, files, jobs, notifications, optimizationResults } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import { suiteApp } from './helpers.ts'
import {
  caller,
  courseBody,
  deviceBody,
  sessionBody,
  setupBody,
  type Caller,
} from './platform-fixtures.ts'

describe(`owned collections on ${testDriver()}`, () => {
  const t = suiteApp()
  let me: Caller
  let teamId: string
  beforeAll(async () => {
    me = caller(t, await t.bearer({ uid: 'carla' }))
    teamId = (await me.post('/api/teams', { name: 'Carla Coaching' })).body.id
  })

  it('rider setups: create with defaults, read, patch, delete', async () => {
    const created = await me.post('/api/rider-setups', setupBody())
    expect(created.status).toBe(201)
    const s = created.body
    expect(s).toMatchObject({
      owner: 'carla',
      owner_type: 'user',
      name: 'TT bike',
      bike_type: 'time_trial',
      extra_mass: 0,
      drivetrain_efficiency: 0.976,
      wheel_inertia: 0.14,
      max_power: null,
      max_lateral_acceleration: 4,
      extras: {},
    })
    expect(s.positions).toHaveLength(2)
    expect((await me.get(`/api/rider-setups/${s.id}`)).body).toEqual(s)
    const patched = await me.patch(`/api/rider-setups/${s.id}`, { rider_mass: 70.5, name: 'TT' })
    expect(patched.status).toBe(200)
    expect(patched.body).toMatchObject({ rider_mass: 70.5, name: 'TT', bike_mass: 8.6 })
    expect(Date.parse(patched.body.updated_at)).toBeGreaterThanOrEqual(Date.parse(s.updated_at))
    expect((await me.del(`/api/rider-setups/${s.id}`)).status).toBe(204)
    expect((await me.get(`/api/rider-setups/${s.id}`)).status).toBe(404)
    expect((await me.del(`/api/rider-setups/${s.id}`)).status).toBe(404)
  })

  it('rider setups: validation names the field and the value', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ ...setupBody(), rider_mass: -3 }, 'rider_mass: must be at least 25 kg (got -3)'],
      [{ ...setupBody(), positions: [] }, 'positions'],
      [
        {
          ...setupBody(),
          positions: [{ name: 'x', cda: 0.25, min_speed: 12, max_speed: 5 }],
        },
        'positions.0.min_speed: min_speed must not exceed max_speed',
      ],
      [{ ...setupBody(), bike_type: 'bmx' }, 'bike_type'],
      [{ ...setupBody(), drivetrain_efficiency: 1.2 }, 'drivetrain_efficiency'],
      [{ ...setupBody(), colour: 'red' }, 'colour'],
      [{ name: 'only a name' }, 'rider_mass'],
    ]
    for (const [body, message] of cases) {
      const res = await me.post('/api/rider-setups', body)
      expect(res.status, message).toBe(400)
      expect(res.body.code).toBe('invalid-request')
      expect(res.body.message).toContain(message)
    }
    const s = (await me.post('/api/rider-setups', setupBody())).body
    const bad = await me.patch(`/api/rider-setups/${s.id}`, { crr: { smooth: 1 } })
    expect(bad.status).toBe(400)
    expect(bad.body.message).toContain('crr')
    expect((await me.patch('/api/rider-setups/not-an-id', { name: 'x' })).status).toBe(404)
  })

  it('the specification’s existence query: owner in [uid, teamId], limit 1', async () => {
    const other = caller(t, await t.bearer({ uid: 'newcomer' }))
    const none = await other.get(`/api/rider-setups?owner=newcomer,${teamId}&limit=1`)
    expect(none).toEqual({ status: 200, body: { items: [], next_cursor: null } })
    await me.post('/api/rider-setups', setupBody('Second'))
    const res = await me.get(`/api/rider-setups?owner=carla,${teamId}&limit=1`)
    expect(res.status).toBe(200)
    expect(res.body.items).toHaveLength(1)
    expect(typeof res.body.next_cursor).toBe('string')
    // A team-owned setup also counts, and only the team's list shows it.
    const teamSetup = (await me.post('/api/rider-setups', { ...setupBody('Team'), owner: teamId }))
      .body
    expect(teamSetup).toMatchObject({ owner: teamId, owner_type: 'team' })
    const teamOnly = await me.get(`/api/rider-setups?owner=${teamId}`)
    expect(teamOnly.body.items.map((s: { id: string }) => s.id)).toEqual([teamSetup.id])
    expect((await me.get('/api/rider-setups?limit=0')).status).toBe(400)
    expect((await me.get('/api/rider-setups?limit=201')).status).toBe(400)
  })

  it('pages through a list newest first without gaps or repeats', async () => {
    const made: string[] = []
    for (let i = 0; i < 7; i++)
      made.push((await me.post('/api/devices', deviceBody(`S${i}`))).body.id)
    const seen: string[] = []
    let cursor: string | null = null
    let pages = 0
    do {
      const url: string = `/api/devices?limit=3${cursor ? `&cursor=${cursor}` : ''}`
      const res = await me.get(url)
      expect(res.status).toBe(200)
      seen.push(...res.body.items.map((d: { id: string }) => d.id))
      cursor = res.body.next_cursor
      pages++
    } while (cursor)
    expect(pages).toBe(3)
    expect(seen).toEqual([...made].reverse())
    const broken = await me.get('/api/devices?cursor=garbage')
    expect(broken.status).toBe(400)
    expect(broken.body.message).toContain('cursor')
  })

  it('courses: metadata list without the track; samples are readable by all and changeable by none', async () => {
    const c = await me.post('/api/courses', courseBody())
    expect(c.status).toBe(201)
    expect(c.body).toMatchObject({ owner: 'carla', sample: false, source_format: 'gpx' })
    expect(c.body.track.distance).toEqual([0, 134.2])
    const list = await me.get('/api/courses')
    const listed = list.body.items.find((x: { id: string }) => x.id === c.body.id)
    expect(listed.track).toBeUndefined()
    expect(listed.segments).toBeUndefined()
    expect(listed.stats.distance).toBe(134.2)
    const renamed = await me.patch(`/api/courses/${c.body.id}`, {
      name: 'Hill loop (trimmed)',
      settings: { trim: { start: 10, end: 120 } },
    })
    expect(renamed.body).toMatchObject({
      name: 'Hill loop (trimmed)',
      settings: { trim: { start: 10, end: 120 } },
    })
    const badTrack = await me.post('/api/courses', {
      name: 'x',
      track: { lat: [1, 2], lon: [1], ele: [1, 2], distance: [0, 1] },
    })
    expect(badTrack.status).toBe(400)
    expect(badTrack.body.message).toContain('same length')

    const [sample] = await t.database.db
      .insert(courses)
      .values({ name: 'Sample: Kona', sample: true })
      .returning()
    const stranger = caller(t, await t.bearer({ uid: 'stranger' }))
    const seen = await stranger.get(`/api/courses/${sample!.id}`)
    expect(seen.status).toBe(200)
    expect(seen.body).toMatchObject({ owner: null, owner_type: 'sample', sample: true })
    expect((await stranger.patch(`/api/courses/${sample!.id}`, { name: 'Mine' })).status).toBe(404)
    expect((await stranger.del(`/api/courses/${sample!.id}`)).status).toBe(404)
    expect((await me.del(`/api/courses/${sample!.id}`)).status).toBe(404)
  })

  it('optimizations: create with course and setup references, filter by type, refuse unknown references', async () => {
    const course = (await me.post('/api/courses', courseBody('Opt course'))).body
    const setup = (await me.post('/api/rider-setups', setupBody('Opt setup'))).body
    const pacing = await me.post('/api/optimizations', {
      type: 'pacing',
      name: 'Race plan',
      course_id: course.id,
      rider_setup_id: setup.id,
      inputs: { environment: { temperature_c: 25 }, constraint: { type: 'w_prime_balance' } },
    })
    expect(pacing.status).toBe(201)
    expect(pacing.body).toMatchObject({
      type: 'pacing',
      course_id: course.id,
      rider_setup_id: setup.id,
    })
    await me.post('/api/optimizations', { type: 'equipment', name: 'Wheels' })
    const onlyPacing = await me.get('/api/optimizations?type=pacing')
    expect(onlyPacing.body.items.map((o: { name: string }) => o.name)).toEqual(['Race plan'])
    expect((await me.get('/api/optimizations?type=other')).status).toBe(400)
    const missing = await me.post('/api/optimizations', {
      type: 'pacing',
      name: 'x',
      course_id: '00000000-0000-4000-8000-000000000000',
    })
    expect(missing.status).toBe(404)
    expect(missing.body.message).toContain('course_id')
    const patched = await me.patch(`/api/optimizations/${pacing.body.id}`, {
      inputs: { max_targets: 8 },
    })
    expect(patched.body.inputs).toEqual({ max_targets: 8 })
  })

  it('optimization results: versions listed newest first without the snapshot; read one; label; delete', async () => {
    const opt = (await me.post('/api/optimizations', { type: 'pacing', name: 'Versions' })).body
    const db = t.database.db
    for (const version of [1, 2]) {
      await db.insert(optimizationResults).values({
        optimizationId: opt.id,
        version,
        status: 'succeeded',
        progress: 100,
        inputs: { course: { name: 'Hill loop' }, version },
        result: { time: 3600 - version },
      })
    }
    const list = await me.get(`/api/optimizations/${opt.id}/results?limit=1`)
    expect(list.body.items).toHaveLength(1)
    expect(list.body.items[0]).toMatchObject({ version: 2, status: 'succeeded', progress: 100 })
    expect(list.body.items[0].inputs).toBeUndefined()
    const next = await me.get(
      `/api/optimizations/${opt.id}/results?limit=1&cursor=${list.body.next_cursor}`,
    )
    expect(next.body.items[0].version).toBe(1)
    expect(next.body.next_cursor).toBeNull()
    const one = await me.get(`/api/optimization-results/${list.body.items[0].id}`)
    expect(one.body).toMatchObject({ inputs: { version: 2 }, result: { time: 3598 } })
    const labelled = await me.patch(`/api/optimization-results/${one.body.id}`, { label: 'windy' })
    expect(labelled.body.label).toBe('windy')
    expect((await me.del(`/api/optimization-results/${one.body.id}`)).status).toBe(204)
    expect((await me.get(`/api/optimization-results/${one.body.id}`)).status).toBe(404)
  })

  it('devices and aero sessions with runs and data blocks', async () => {
    const device = (await me.post('/api/devices', deviceBody('AS-77'))).body
    expect(device).toMatchObject({ serial: 'AS-77', calibration: { calibration_factor: 1.02 } })
    const created = await me.post('/api/aero-sessions', {
      ...sessionBody(),
      devices: [{ device_id: device.id, calibration_factor: 1.01 }],
    })
    expect(created.status).toBe(201)
    const session = created.body
    expect(session).toMatchObject({ format: 'v6', started_at: '2026-05-03T08:30:00.000Z' })
    const unknownDevice = await me.post('/api/aero-sessions', {
      name: 'x',
      devices: [{ device_id: '00000000-0000-4000-8000-000000000000' }],
    })
    expect(unknownDevice.status).toBe(404)
    expect(unknownDevice.body.message).toContain('devices.0.device_id')

    const base = await me.post(`/api/aero-sessions/${session.id}/runs`, {
      name: 'Baseline 1',
      position: 0,
      is_baseline: true,
      start_time: 0,
      end_time: 300,
      configuration: { helmet: 'road' },
    })
    expect(base.status).toBe(201)
    const second = (
      await me.post(`/api/aero-sessions/${session.id}/runs`, {
        name: 'TT helmet',
        position: 1,
        start_time: 320,
        end_time: 620,
        configuration: { helmet: 'tt' },
      })
    ).body
    const backwards = await me.post(`/api/aero-sessions/${session.id}/runs`, {
      name: 'x',
      start_time: 50,
      end_time: 10,
    })
    expect(backwards.status).toBe(400)
    expect(backwards.body.message).toContain('start_time')
    const runs = await me.get(`/api/aero-sessions/${session.id}/runs?limit=1`)
    expect(runs.body.items[0].name).toBe('Baseline 1')
    const runs2 = await me.get(
      `/api/aero-sessions/${session.id}/runs?cursor=${runs.body.next_cursor}`,
    )
    expect(runs2.body.items.map((r: { name: string }) => r.name)).toEqual(['TT helmet'])
    const patched = await me.patch(`/api/aero-runs/${second.id}`, {
      results: { cda: 0.231, cda_sd: 0.002 },
    })
    expect(patched.body.results).toEqual({ cda: 0.231, cda_sd: 0.002 })
    expect((await me.patch(`/api/aero-runs/${second.id}`, { end_time: 100 })).status).toBe(400)

    const block = await me.post(`/api/aero-sessions/${session.id}/data-blocks`, {
      kind: 'cdam',
      run_id: second.id,
      device_id: device.id,
      sequence: 1,
      start_time: 320,
      end_time: 350,
      data: { t: [320, 321], cda: [0.23, 0.232] },
    })
    expect(block.status).toBe(201)
    await me.post(`/api/aero-sessions/${session.id}/data-blocks`, { kind: 'run', data: { t: [] } })
    const rawInV6 = await me.post(`/api/aero-sessions/${session.id}/data-blocks`, {
      kind: 'raw',
      data: {},
    })
    expect(rawInV6.status).toBe(400)
    expect(rawInV6.body.message).toBe('kind: a v6 session holds cdam and run blocks, not raw.')
    const v5 = (await me.post('/api/aero-sessions', { name: 'Old file', format: 'v5' })).body
    const raw = await me.post(`/api/aero-sessions/${v5.id}/data-blocks`, {
      kind: 'raw',
      data: { t: [0, 1], power: [250, 252] },
    })
    expect(raw.status).toBe(201)
    expect(
      (await me.post(`/api/aero-sessions/${v5.id}/data-blocks`, { kind: 'cdam', data: {} })).status,
    ).toBe(400)
    const reformat = await me.patch(`/api/aero-sessions/${v5.id}`, { format: 'v6' })
    expect(reformat.status).toBe(400)
    expect(reformat.body.message).toContain('format')
    const cdam = await me.get(`/api/aero-sessions/${session.id}/data-blocks?kind=cdam`)
    expect(cdam.body.items.map((b: { id: string }) => b.id)).toEqual([block.body.id])
    expect((await me.get(`/api/aero-data-blocks/${block.body.id}`)).body.data.cda).toEqual([
      0.23, 0.232,
    ])
    const badKind = await me.post(`/api/aero-sessions/${session.id}/data-blocks`, {
      kind: 'x',
      data: {},
    })
    expect(badKind.status).toBe(400)
    expect(badKind.body.message).toContain('kind')
    expect((await me.del(`/api/aero-data-blocks/${block.body.id}`)).status).toBe(204)
    expect((await me.del(`/api/aero-runs/${second.id}`)).status).toBe(204)
    expect((await me.get(`/api/aero-runs/${second.id}`)).status).toBe(404)
    // Deleting the session takes its runs with it.
    expect((await me.del(`/api/aero-sessions/${session.id}`)).status).toBe(204)
    expect((await me.get(`/api/aero-runs/${base.body.id}`)).status).toBe(404)
  })

  it('files metadata: list and rename (upload is the files routes’)', async () => {
    const [f] = await t.database.db
      .insert(files)
      .values({
        ownerUid: 'carla',
        name: 'ride.fit',
        contentType: 'application/vnd.ant.fit',
        size: 1234,
        storageKey: `test/${Math.random()}`,
        sha256: 'a'.repeat(64),
      })
      .returning()
    const list = await me.get('/api/files')
    expect(list.body.items[0]).toMatchObject({
      id: f!.id,
      name: 'ride.fit',
      size: 1234,
      owner: 'carla',
    })
    expect(list.body.items[0].storage_key).toBeUndefined()
    const renamed = await me.patch(`/api/files/${f!.id}`, { name: 'race.fit' })
    expect(renamed.body.name).toBe('race.fit')
    expect((await me.patch(`/api/files/${f!.id}`, { name: '' })).status).toBe(400)
  })

  it('notifications: list unshown, mark showed with merge semantics, delete', async () => {
    const db = t.database.db
    await db.insert(notifications).values([
      { uid: 'carla', type: 'success', title: 'Optimization finished', text: 'Race plan v2' },
      { uid: 'carla', type: 'info', title: 'Export ready', downloadBlob: 'file-1' },
    ])
    const unshown = await me.get('/api/notifications?showed=false')
    expect(unshown.body.items.map((n: { title: string }) => n.title)).toEqual([
      'Export ready',
      'Optimization finished',
    ])
    const n = unshown.body.items[0]
    expect(n).toMatchObject({ user: 'carla', download_blob: 'file-1', showed: false })
    const marked = await me.patch(`/api/notifications/${n.id}`, { showed: true })
    expect(marked.body).toMatchObject({
      showed: true,
      title: 'Export ready',
      download_blob: 'file-1',
    })
    const merged = await me.patch(`/api/notifications/${n.id}`, {})
    expect(merged.body.showed).toBe(true)
    expect((await me.get('/api/notifications?showed=false')).body.items).toHaveLength(1)
    expect((await me.get('/api/notifications?showed=true')).body.items).toHaveLength(1)
    expect((await me.patch(`/api/notifications/${n.id}`, { title: 'x' })).status).toBe(400)
    const first = await me.get('/api/notifications?limit=1')
    expect(first.body.items.map((x: { title: string }) => x.title)).toEqual(['Export ready'])
    const second = await me.get(`/api/notifications?limit=1&cursor=${first.body.next_cursor}`)
    expect(second.body.items.map((x: { title: string }) => x.title)).toEqual([
      'Optimization finished',
    ])
    expect(second.body.next_cursor).toBeNull()
    expect((await me.del(`/api/notifications/${n.id}`)).status).toBe(204)
    expect((await me.get(`/api/notifications/${n.id}`)).status).toBe(404)
  })

  it('every write endpoint answers 400 invalid-request naming the field', async () => {
    const opt = (await me.post('/api/optimizations', { type: 'pacing', name: 'V' })).body
    const course = (await me.post('/api/courses', courseBody('V'))).body
    const device = (await me.post('/api/devices', deviceBody('V'))).body
    const session = (await me.post('/api/aero-sessions', sessionBody('V'))).body
    const run = (await me.post(`/api/aero-sessions/${session.id}/runs`, { name: 'R' })).body
    const [result] = await t.database.db
      .insert(optimizationResults)
      .values({ optimizationId: opt.id, version: 1, inputs: {} })
      .returning()
    const [note] = await t.database.db
      .insert(notifications)
      .values({ uid: 'carla', title: 'n' })
      .returning()
    const cases: [string, string, unknown, string][] = [
      ['POST', '/api/courses', { name: '' }, 'name'],
      ['PATCH', `/api/courses/${course.id}`, { settings: { surface: 'ice' } }, 'settings.surface'],
      ['POST', '/api/optimizations', { type: 'speed', name: 'x' }, 'type'],
      ['PATCH', `/api/optimizations/${opt.id}`, { course_id: 'abc' }, 'course_id'],
      ['PATCH', `/api/optimization-results/${result!.id}`, { label: 7 }, 'label'],
      ['POST', '/api/devices', { name: 'no serial' }, 'serial'],
      ['PATCH', `/api/devices/${device.id}`, { calibration: 'x' }, 'calibration'],
      ['POST', '/api/aero-sessions', { name: 'x', started_at: 'yesterday' }, 'started_at'],
      [
        'PATCH',
        `/api/aero-sessions/${session.id}`,
        { devices: [{ device_id: 'x' }] },
        'devices.0.device_id',
      ],
      ['POST', `/api/aero-sessions/${session.id}/runs`, { name: 'x', lap: -1 }, 'lap'],
      [
        'PATCH',
        `/api/aero-runs/${run.id}`,
        { configuration: { helmet: 3 } },
        'configuration.helmet',
      ],
      ['POST', `/api/aero-sessions/${session.id}/data-blocks`, { kind: 'cdam' }, 'data'],
      ['PATCH', `/api/notifications/${note!.id}`, { showed: 'yes' }, 'showed'],
      ['POST', `/api/teams/${teamId}/members`, { email: 'not-an-email' }, 'email'],
      ['POST', `/api/teams/${teamId}/members`, { email: 'a@b.c', uid: 'x' }, 'exactly one'],
      ['PATCH', `/api/teams/${teamId}/members/carla`, { role: 'boss' }, 'role'],
      ['PATCH', `/api/teams/${teamId}`, { name: '' }, 'name'],
      ['GET', '/api/notifications?showed=maybe', undefined, 'showed'],
      ['GET', '/api/aero-sessions/' + session.id + '/data-blocks?kind=x', undefined, 'kind'],
    ]
    for (const [method, url, body, field] of cases) {
      const res = await t.app.inject({
        method: method as 'POST',
        url,
        headers: await t.bearer({ uid: 'carla' }),
        payload: body as never,
      })
      expect(res.statusCode, `${method} ${url}`).toBe(400)
      expect(res.json().code, `${method} ${url}`).toBe('invalid-request')
      expect(res.json().message, `${method} ${url}`).toContain(field)
    }
  })

  it('a disabled user’s still-valid session stops working', async () => {
    const dora = caller(t, await t.bearer({ uid: 'dora' }))
    expect((await dora.get('/api/users/dora')).status).toBe(200)
    const { users } = await import('@veloptima/db')
    const { eq } = await import('drizzle-orm')
    await t.database.db.update(users).set({ disabled: true }).where(eq(users.uid, 'dora'))
    t.app.platform.users.forget('dora')
    const res = await dora.get('/api/rider-setups')
    expect(res.status).toBe(403)
    expect(res.body.code).toBe('user-disabled')
  })

  it('keeps job bookkeeping rows for the files/jobs helper (progress within 0–100)', async () => {
    const db = t.database.db
    await expect(
      db.insert(jobs).values({ ownerUid: 'carla', kind: 'import', progress: 120 }),
    ).rejects.toThrow()
  })
})
