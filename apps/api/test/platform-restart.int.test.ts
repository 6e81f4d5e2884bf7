import { afterAll, describe, expect, it } from 'vitest'
import { notifications } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { loadSessionTokens } from '../src/services/session-token.ts'
import { persistentDatabase, type PersistentDb } from './persistent-db.ts'
import { caller, courseBody, deviceBody, sessionBody, setupBody } from './platform-fixtures.ts'

async function boot(store: PersistentDb) {
  const database = await store.open()
  const config = loadConfig({ LOG_LEVEL: 'silent', ...store.env })
  const sessionTokens = await loadSessionTokens(database, config.publicUrl)
  const app = await buildApp({ config, database, sessionTokens })
  await app.ready()
  const { token } = await sessionTokens.sign({
    uid: 'rita',
    email: 'rita@example.com',
    displayName: 'Rita',
    claims: { 'create:simulations': true, 'access:aerooptimization': true },
  })
  return {
    app,
    database,
    me: caller({ app } as never, { authorization: `Bearer ${token}` }),
    token,
    async close() {
      await app.close()
      await database.close()
    },
  }
}

describe(`restart on the same data on ${testDriver()}`, () => {
  let store: PersistentDb
  afterAll(() => store?.cleanup())

  it('keeps everything written before the restart, and the old session token still works', async () => {
    store = await persistentDatabase()
    const first = await boot(store)
    const { me } = first
    await me.patch('/api/users/rita', { use_imperial_units: true })
    await me.post('/api/users/rita/trial')
    await me.put('/api/rider-profiles/rita', { rider_height: 1.7, rider_weight: 60, cp: 250 })
    const team = (await me.post('/api/teams', { name: 'Rita Racing' })).body
    await me.patch('/api/users/rita', { current_team: team.id })
    const setup = (await me.post('/api/rider-setups', { ...setupBody(), owner: team.id })).body
    const course = (await me.post('/api/courses', courseBody())).body
    const opt = (
      await me.post('/api/optimizations', {
        type: 'pacing',
        name: 'Plan',
        course_id: course.id,
        rider_setup_id: setup.id,
      })
    ).body
    const device = (await me.post('/api/devices', deviceBody())).body
    const session = (await me.post('/api/aero-sessions', sessionBody())).body
    const run = (await me.post(`/api/aero-sessions/${session.id}/runs`, { name: 'Base' })).body
    await first.database.db.insert(notifications).values({ uid: 'rita', title: 'Kept' })
    /** What the caller reads of everything made above. */
    const readAll = async (c: typeof me) => ({
      user: (await c.get('/api/users/rita')).body,
      profile: (await c.get('/api/rider-profiles/rita')).body,
      teams: (await c.get('/api/teams')).body,
      setups: (await c.get('/api/rider-setups')).body,
      course: (await c.get(`/api/courses/${course.id}`)).body,
      opt: (await c.get(`/api/optimizations/${opt.id}`)).body,
      device: (await c.get(`/api/devices/${device.id}`)).body,
      runs: (await c.get(`/api/aero-sessions/${session.id}/runs`)).body,
      notifications: (await c.get('/api/notifications?showed=false')).body,
    })
    const before = await readAll(me)
    expect(before.user.trial_used).toBe(true)
    expect(before.runs.items[0].id).toBe(run.id)
    await first.close()

    const second = await boot(store)
    const again = second.me
    const after = await readAll(again)
    expect(after).toEqual(before)
    // The trial stays used across the restart.
    expect((await again.post('/api/users/rita/trial')).status).toBe(409)
    // A token signed before the restart is still accepted (the key is persisted).
    const old = caller({ app: second.app } as never, { authorization: `Bearer ${first.token}` })
    expect((await old.get('/api/users/rita')).body).toEqual(before.user)
    await second.close()
  })
})
