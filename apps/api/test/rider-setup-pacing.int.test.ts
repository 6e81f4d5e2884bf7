// A rider setup the API saves has what a pacing plan needs (CP and W′, max power above CP); a
// setup stored before this rule stays readable and is named by pacingGaps, and the run refuses
// exactly what pacingGaps names (packages/contracts riders.ts).
import { beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { jobs as jobsTable, riderSetups } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import { pacingGaps, riderSetupSchema } from '@veloptima/contracts'
import { suiteApp } from './helpers.ts'
import { tempDir } from './files-helpers.ts'
import { eventually } from './runs-helpers.ts'
import { caller, courseBody, setupBody, type Caller } from './platform-fixtures.ts'

describe(`rider setups hold what a pacing plan needs on ${testDriver()}`, () => {
  const t = suiteApp({ FILES_DIR: tempDir('setup-pacing') })
  let me: Caller
  beforeAll(async () => {
    me = caller(t, await t.bearer({ uid: 'petra' }))
    await t.app.jobs.start({ workers: 1 })
  })

  it('refuses a new setup without CP or W′, naming the field, the range and the value', async () => {
    const { cp: _cp, ...noCp } = setupBody()
    const cases: [Record<string, unknown>, string][] = [
      [
        noCp,
        'cp: the critical power (CP) is needed by every pacing plan: enter a value from 50 to 700 W',
      ],
      [
        { ...setupBody(), cp: null },
        'cp: the critical power (CP) is needed by every pacing plan: enter a value from 50 to 700 W (got null)',
      ],
      [
        { ...setupBody(), w_prime: null },
        'w_prime: W′ (the work above CP) is needed by every pacing plan: enter a value from 1000 to 60000 J (got null)',
      ],
      [{ ...setupBody(), cp: 'lots' }, 'cp: must be a number in W (got "lots")'],
      [{ ...setupBody(), max_power: 300 }, 'max_power: must be above cp (320 W) (got 300)'],
    ]
    for (const [body, message] of cases) {
      const res = await me.post('/api/rider-setups', body)
      expect(res.status, message).toBe(400)
      expect(res.body.code).toBe('invalid-request')
      expect(res.body.message).toBe(message)
    }
    expect((await me.get('/api/rider-setups')).body.items).toEqual([])
    const ok = await me.post('/api/rider-setups', { ...setupBody(), max_power: 680 })
    expect(ok.status).toBe(201)
    expect(pacingGaps(ok.body as never)).toEqual([])
  })

  it('keeps a setup stored without CP and W′ readable and renamable; a patch cannot clear them', async () => {
    const made = (await me.post('/api/rider-setups', setupBody('Old setup'))).body
    await t.database.db
      .update(riderSetups)
      .set({ cp: null, wPrime: null, maxPower: null })
      .where(eq(riderSetups.id, made.id))
    const old = await me.get(`/api/rider-setups/${made.id}`)
    expect(old.status).toBe(200)
    expect(riderSetupSchema.safeParse(old.body).success).toBe(true)
    expect(pacingGaps(old.body as never).map((g) => g.field)).toEqual(['cp', 'w_prime'])
    expect((await me.patch(`/api/rider-setups/${made.id}`, { name: 'Renamed' })).status).toBe(200)
    const cleared = await me.patch(`/api/rider-setups/${made.id}`, { cp: null })
    expect(cleared.status).toBe(400)
    expect(cleared.body.message).toContain('cp: the critical power (CP) is needed')

    // Max power against the CP it keeps: refused below it, accepted above it.
    const full = (await me.post('/api/rider-setups', setupBody('Full'))).body
    const low = await me.patch(`/api/rider-setups/${full.id}`, { max_power: 250 })
    expect(low.status).toBe(400)
    expect(low.body.message).toBe('max_power: must be above cp (320 W) (got 250)')
    const lowCp = await me.patch(`/api/rider-setups/${full.id}`, { cp: 300, max_power: 300 })
    expect(lowCp.body.message).toBe('max_power: must be above cp (300 W) (got 300)')
    expect((await me.patch(`/api/rider-setups/${full.id}`, { max_power: 700 })).status).toBe(200)
    const raised = await me.patch(`/api/rider-setups/${full.id}`, { cp: 700 })
    expect(raised.body.message).toBe('max_power: must be above cp (700 W)')
  })

  it('a run is refused at once on the setup pacingGaps names, and runs once CP and W′ are set', async () => {
    const course = (await me.post('/api/courses', courseBody('Gap loop'))).body
    const made = (await me.post('/api/rider-setups', setupBody('Gap setup'))).body
    await t.database.db
      .update(riderSetups)
      .set({ cp: null, wPrime: null, maxPower: null })
      .where(eq(riderSetups.id, made.id))
    const optimization = (
      await me.post('/api/optimizations', {
        type: 'pacing',
        name: 'First plan',
        course_id: course.id,
        rider_setup_id: made.id,
      })
    ).body
    const run = async () => {
      const started = await me.post(`/api/optimizations/${optimization.id}/run`)
      expect(started.status, JSON.stringify(started.body)).toBe(202)
      return eventually(async () => {
        const job = (await me.get(`/api/jobs/${started.body.job_id}`)).body
        return ['succeeded', 'failed'].includes(job.state) && job
      }, 60_000)
    }
    // Refused before any job is queued, naming the field the W′ balance needs.
    const refused = await me.post(`/api/optimizations/${optimization.id}/run`)
    expect(refused.status).toBe(400)
    expect(refused.body.code).toBe('invalid-inputs')
    expect(refused.body.message).toContain('rider.cp_w')
    const jobs = await t.database.db.select().from(jobsTable)
    expect(jobs.filter((j) => j.subjectType === 'optimization_result')).toEqual([])

    const fixed = await me.patch(`/api/rider-setups/${made.id}`, { cp: 260, w_prime: 18000 })
    expect(pacingGaps(fixed.body as never)).toEqual([])
    const ran = await run()
    expect(ran.state, JSON.stringify(ran.error)).toBe('succeeded')
  })
})
