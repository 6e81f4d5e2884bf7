// The race-plan inputs from the API to the engine: a rider setup keeps its durability and heat
// acclimatisation, an optimization keeps its target time, heat and altitude options, fuel and
// pacing rules; a bad value is refused naming the field and the value; a run rides the setup's
// durability (CP at the finish below the setup's CP) and the stored options.
import { beforeAll, describe, expect, it } from 'vitest'
import { riderSetupSchema } from '@veloptima/contracts'
import { suiteApp } from './helpers.ts'
import { createUser, tempDir } from './files-helpers.ts'
import { caller, setupBody, type Caller } from './platform-fixtures.ts'
import { settledJob, storedResult, syntheticSegments } from './runs-helpers.ts'

describe('race-plan inputs', () => {
  const t = suiteApp({ FILES_DIR: tempDir('race-plan-inputs') })
  let me: Caller
  let auth: { authorization: string }

  beforeAll(async () => {
    await createUser(t.database, 'racer')
    auth = await t.bearer({ uid: 'racer', claims: { 'create:simulations': true } })
    me = caller(t, auth)
    await t.app.jobs.start({ workers: 1 })
  })

  it('a setup round-trips durability and heat acclimatisation (none and false by default)', async () => {
    const plain = await me.post('/api/rider-setups', setupBody('Plain'))
    expect(plain.status).toBe(201)
    expect(plain.body).toMatchObject({ durability: null, heat_acclimatised: false })

    const made = await me.post('/api/rider-setups', {
      ...setupBody('Durable'),
      durability: 0.06,
      heat_acclimatised: true,
    })
    expect(made.status).toBe(201)
    const read = await me.get(`/api/rider-setups/${made.body.id}`)
    expect(read.body).toMatchObject({ durability: 0.06, heat_acclimatised: true })
    expect(riderSetupSchema.safeParse(read.body).success).toBe(true)

    const patched = await me.patch(`/api/rider-setups/${made.body.id}`, {
      durability: null,
      heat_acclimatised: false,
    })
    expect(patched.status).toBe(200)
    expect(patched.body).toMatchObject({ durability: null, heat_acclimatised: false })
  })

  it('refuses a bad durability or switch, naming the field and the value', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ durability: 0.7 }, 'durability: must be at most 0.5 (got 0.7)'],
      [{ durability: -0.1 }, 'durability: must be at least 0 (got -0.1)'],
      [{ heat_acclimatised: 'yes' }, 'heat_acclimatised: '],
    ]
    for (const [change, message] of cases) {
      const res = await me.post('/api/rider-setups', { ...setupBody(), ...change })
      expect(res.status, message).toBe(400)
      expect(res.body.message).toContain(message)
      expect(res.body.message).toContain(`(got ${JSON.stringify(Object.values(change)[0])})`)
    }
  })

  it('an optimization keeps its target time, options, fuel and rules', async () => {
    const inputs = {
      constraint: { type: 'target_time', time_s: 5400 },
      options: { heat: true, altitude: true },
      fuel: { gut_tolerance_g_per_h: 90 },
      rules: {
        easy_start: { duration_s: 600, max_cp_fraction: 0.85 },
        coast: { descent_grade: -0.05, before_braking: true },
        descent_cap: { grade: -0.04, power_w: 150 },
        stretches: [{ start_m: 100, end_m: 400, max_speed_mps: 12, label: 'village' }],
      },
    }
    const made = await me.post('/api/optimizations', { name: 'Race', type: 'pacing', inputs })
    expect(made.status).toBe(201)
    expect((await me.get(`/api/optimizations/${made.body.id}`)).body.inputs).toEqual(inputs)
  })

  it('refuses a bad race-plan input, naming the field and the value', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { constraint: { type: 'target_time', time_s: 30 } },
        /inputs\.constraint\.time_s: must be at least 60 s \(got 30\)/,
      ],
      [{ options: { heat: 'on' } }, /inputs\.options\.heat: .*\(got "on"\)/],
      [
        { fuel: { gut_tolerance_g_per_h: 200 } },
        /inputs\.fuel\.gut_tolerance_g_per_h: must be at most 150 g\/h \(got 200\)/,
      ],
      [
        { rules: { easy_start: { duration_s: 600, max_cp_fraction: 2 } } },
        /inputs\.rules\.easy_start\.max_cp_fraction: must be at most 1\.2 \(got 2\)/,
      ],
      [
        { rules: { descent_cap: { grade: 0.1, power_w: 100 } } },
        /inputs\.rules\.descent_cap\.grade: must be at most 0 \(got 0\.1\)/,
      ],
      [
        { rules: { stretches: [{ start_m: 500, end_m: 100 }] } },
        /inputs\.rules\.stretches\.0\.end_m: must be more than start_m \(got 100\)/,
      ],
    ]
    for (const [inputs, message] of cases) {
      const res = await me.post('/api/optimizations', { name: 'Bad', type: 'pacing', inputs })
      expect(res.status, String(message)).toBe(400)
      expect(res.body.message).toMatch(message)
    }
  })

  it('a run rides the setup’s durability and the heat option', async () => {
    const course = await me.post('/api/courses', {
      name: 'Rolling',
      source_format: 'json',
      segments: syntheticSegments(),
    })
    expect(course.status).toBe(201)
    const setup = await me.post('/api/rider-setups', {
      ...setupBody('Fading'),
      durability: 0.1,
      heat_acclimatised: true,
    })
    const optimization = await me.post('/api/optimizations', {
      name: 'Hot race',
      type: 'pacing',
      course_id: course.body.id,
      rider_setup_id: setup.body.id,
      inputs: {
        constraint: { type: 'w_prime_balance' },
        max_targets: 6,
        environment: { temperature_c: 32 },
        options: { heat: true },
        fuel: { gut_tolerance_g_per_h: 60 },
      },
    })
    expect(optimization.status).toBe(201)
    const started = await me.post(`/api/optimizations/${optimization.body.id}/run`)
    expect(started.status).toBe(202)
    const job = await settledJob(t.app, started.body.job_id as string, auth)
    expect(job.state).toBe('succeeded')
    const result = await storedResult(t.database.db, job.result_id)
    const snapshot = result.inputs as { rider_setup: Record<string, unknown> }
    expect(snapshot.rider_setup).toMatchObject({ durability: 0.1, heatAcclimatised: true })
    // 32 °C and the work done lower CP: the plan ends below the setup's 320 W
    const output = result.result as { finish_cp_w?: number }
    expect(output.finish_cp_w).toBeLessThan(320)
  })
})
