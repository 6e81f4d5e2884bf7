// Numeric inputs stay in their documented ranges (docs/limits-input.md) and unknown keys are
// refused: an optimization's inputs, a device's calibration, an aero session's environment, a
// rider setup; a 400 names the field and the range, and nothing is stored. What the web app's
// forms send still passes. JSON bodies are limited in size (413) and depth (400), never a 500.
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { aeroSessions, devices, optimizations, riderSetups } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import { suiteApp } from './helpers.ts'
import { setupBody } from './platform-fixtures.ts'

/** Inputs as the optimization form writes them (apps/web/src/features/simulation/lib/optimization-form.ts). */
const formInputs = () => ({
  environment: {
    temperature_c: 18,
    pressure_altitude_m: 300,
    wind_speed_mps: 3,
    wind_from_deg: 225,
    wind_segments: [{ start_m: 0, end_m: 4000, wind_speed_mps: 5, wind_from_deg: 180 }],
    event_start: '2026-06-14T09:30',
  },
  constraint: { type: 'normalized_power', power_w: 260 },
  max_targets: 12,
  rider_override: { rider_mass: 68, crr: { normal: 0.004 } },
  equipment: {
    groups: {
      Wheels: [
        { name: 'Shallow alloy', mass_delta_kg: 0, cda_delta_m2: 0 },
        {
          name: 'Deep carbon',
          mass_delta_kg: 0.3,
          cda_delta_by_yaw: [
            [0, -0.01],
            [10, -0.014],
          ],
          crr: 0.004,
          power_factor: 0.98,
        },
      ],
    },
    baseline: { Wheels: 'Shallow alloy' },
  },
})

describe(`numeric inputs in range, unknown keys refused (${testDriver()})`, () => {
  const t = suiteApp()
  let auth: { authorization: string }
  const send = (method: 'POST' | 'PATCH', url: string, payload: unknown) =>
    t.app.inject({ method, url, headers: auth, payload: payload as never })
  /** POSTs `text` as it is, as a JSON body. */
  const postText = (url: string, text: string) =>
    t.app.inject({
      method: 'POST',
      url,
      headers: { ...auth, 'content-type': 'application/json' },
      payload: text,
    })

  beforeAll(async () => {
    auth = await t.signIn({ uid: 'nu' })
  })

  const rows = async (
    table: typeof optimizations | typeof devices | typeof aeroSessions | typeof riderSetups,
  ) =>
    (await t.database.db.select({ id: table.id }).from(table).where(eq(table.ownerUid, 'nu')))
      .length

  it('optimization inputs as the form writes them are stored as sent', async () => {
    const res = await send('POST', '/api/optimizations', {
      type: 'equipment',
      name: 'Form',
      inputs: formInputs(),
    })
    expect(res.statusCode).toBe(201)
    expect(res.json().inputs).toEqual(formInputs())
  })

  it('refuses out-of-range optimization inputs and unknown keys, naming the field and the range', async () => {
    const before = await rows(optimizations)
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ max_targets: 1e9 }, /^inputs\.max_targets: must be at most 20 \(got 1000000000\)/],
      [{ max_targets: 2.5 }, /^inputs\.max_targets: must be a whole number/],
      [{ min_power_w: -1e6 }, /^inputs\.min_power_w: must be at least 0 W \(got -1000000\)/],
      [
        { environment: { temperature_c: 1e6 } },
        /^inputs\.environment\.temperature_c: must be at most 60 °C/,
      ],
      [
        { environment: { pressure_pa: 5 } },
        /^inputs\.environment\.pressure_pa: must be at least 30000 Pa/,
      ],
      [
        { environment: { wind_speed_mps: 1e9 } },
        /^inputs\.environment\.wind_speed_mps: must be at most 60 m\/s/,
      ],
      [
        { environment: { altitude_m: -1e4 } },
        /^inputs\.environment\.altitude_m: must be at least -500 m/,
      ],
      [
        { environment: { relative_humidity: 2 } },
        /^inputs\.environment\.relative_humidity: must be at most 1/,
      ],
      [
        { constraint: { type: 'average_power', power_w: 1e7 } },
        /^inputs\.constraint\.power_w: must be at most 3000 W/,
      ],
      [
        { constraint: { type: 'work', work_j: -1 } },
        /^inputs\.constraint\.work_j: must be at least 1 J/,
      ],
      [{ constraint: 'wbal' }, /^inputs\.constraint: /],
      [
        { rider_override: { positions: [{ cda: 0.3, drag: 1 }] } },
        /^inputs\.rider_override\.positions\.0: Unrecognized key/,
      ],
      [
        { equipment: { groups: { W: [{ name: 'a', cda_delta_m2: 5 }] } } },
        /^inputs\.equipment\.groups\.W\.0\.cda_delta_m2: must be at most 0\.2 m²/,
      ],
      [
        { equipment: { groups: [{ name: 'W', options: [{ name: 'a', mass_delta: 1e6 }] }] } },
        /^inputs\.equipment\.groups\.0\.options\.0\.mass_delta: must be at most 50 kg/,
      ],
      [{ junk: 'x'.repeat(1000) }, /^inputs: Unrecognized key: "junk"/],
      [
        { environment: { temperature: 25 } },
        /^inputs\.environment: Unrecognized key: "temperature"/,
      ],
    ]
    for (const [inputs, message] of cases) {
      const res = await send('POST', '/api/optimizations', { type: 'pacing', name: 'x', inputs })
      expect(res.statusCode, JSON.stringify(inputs)).toBe(400)
      expect(res.json().message).toMatch(message)
    }
    // A patch is held to the same rules.
    const created = (await send('POST', '/api/optimizations', { type: 'pacing', name: 'p' })).json()
    const patched = await send('PATCH', `/api/optimizations/${created.id}`, {
      inputs: { max_targets: 1e9 },
    })
    expect(patched.statusCode).toBe(400)
    expect(await rows(optimizations)).toBe(before + 1)
    const [row] = await t.database.db
      .select()
      .from(optimizations)
      .where(eq(optimizations.id, created.id))
    expect(row!.inputs).toEqual({})
  })

  it('a body of 1.9 MB of unknown keys in inputs is refused with a short message', async () => {
    const inputs: Record<string, number> = {}
    for (let i = 0; i < 100_000; i++) inputs[`k${i}`] = i
    const res = await send('POST', '/api/optimizations', { type: 'pacing', name: 'big', inputs })
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toMatch(/^inputs: Unrecognized keys: "k0", "k1"/)
    expect(res.json().message.length).toBeLessThan(1000)
  })

  it('device calibration: the form’s factor passes; −1e9 and unknown keys are refused', async () => {
    const ok = await send('POST', '/api/devices', {
      serial: 'AS-1',
      name: 'Front',
      calibration: { calibration_factor: 1.4 },
    })
    expect(ok.statusCode).toBe(201)
    const before = await rows(devices)
    const bad = await send('POST', '/api/devices', {
      serial: 'AS-2',
      name: 'x',
      calibration: { factor: -1e9 },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toMatch(
      /^calibration\.factor: must be at least 0\.5 \(got -1000000000\)/,
    )
    const unknown = await send('PATCH', `/api/devices/${ok.json().id}`, {
      calibration: { gain: 2 },
    })
    expect(unknown.statusCode).toBe(400)
    expect(unknown.json().message).toMatch(/^calibration: Unrecognized key: "gain"/)
    expect(await rows(devices)).toBe(before)
  })

  it('aero session environment: the settings form’s values pass; temperature 1e6 is refused', async () => {
    const settings = {
      mass_kg: 82,
      crr: null,
      drivetrain_efficiency: 0.976,
      air_density_kg_m3: null,
      temperature_c: 21,
      pressure_pa: 101_300,
      humidity: 0.5,
      reference_speed_mps: 11.1,
      reference_power_w: 250,
      calibration_factor: null,
      method: 'auto',
    }
    const ok = await send('POST', '/api/aero-sessions', { name: 'S', environment: settings })
    expect(ok.statusCode).toBe(201)
    const before = await rows(aeroSessions)
    const bad = await send('PATCH', `/api/aero-sessions/${ok.json().id}`, {
      environment: { ...settings, temperature_c: 1e6 },
    })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toMatch(/^environment\.temperature_c: .*50.*\(got 1000000\)/)
    const unknown = await send('POST', '/api/aero-sessions', {
      name: 'U',
      environment: { wind: 3 },
    })
    expect(unknown.statusCode).toBe(400)
    expect(await rows(aeroSessions)).toBe(before)
    const [row] = await t.database.db
      .select()
      .from(aeroSessions)
      .where(eq(aeroSessions.id, ok.json().id))
    expect(row!.environment).toEqual(settings)
  })

  it('rider setups: the form’s extras pass; unknown keys and out-of-range values are refused', async () => {
    const form = {
      ...setupBody('Form'),
      extras: { rider_name: 'Ann', tyre: 'custom', rider_height: 1.72 },
    }
    expect((await send('POST', '/api/rider-setups', form)).statusCode).toBe(201)
    const before = await rows(riderSetups)
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { extras: { rider_height: 25 } },
        /^extras\.rider_height: must be at most 2\.5 m \(got 25\)/,
      ],
      [{ extras: { blob: 'x' } }, /^extras: Unrecognized key: "blob"/],
      [
        { crr: { smooth: 0.003, normal: 0.004, rough: 0.006, ice: 0.1 } },
        /^crr: Unrecognized key: "ice"/,
      ],
      [{ rider_mass: 1e6 }, /^rider_mass: must be at most 250 kg/],
    ]
    for (const [edit, message] of cases) {
      const res = await send('POST', '/api/rider-setups', { ...setupBody('Bad'), ...edit })
      expect(res.statusCode, JSON.stringify(edit)).toBe(400)
      expect(res.json().message).toMatch(message)
    }
    expect(await rows(riderSetups)).toBe(before)
  })

  it('JSON bodies: 10,000 nested arrays in 20 KB → 400, more than 2 MB → 413, never a 500', async () => {
    const deep = '['.repeat(10_000) + ']'.repeat(10_000)
    for (const url of ['/api/courses', '/api/optimizations', '/api/rider-setups']) {
      const res = await postText(url, `{"name":"x","inputs":${deep}}`)
      expect(res.statusCode).toBe(400)
      expect(res.json()).toMatchObject({ code: 'body-too-deep' })
      expect(res.json().message).toContain('64 levels')
    }
    // 64 levels are accepted by the reader (and then judged by the schema).
    const at64 = `{"name":"x","type":"pacing","inputs":{"a":${'['.repeat(62)}${']'.repeat(62)}}}`
    const ok = await postText('/api/optimizations', at64)
    expect(ok.statusCode).toBe(400)
    expect(ok.json().code).toBe('invalid-request')
    // Brackets inside strings are text, not nesting.
    const text = await send('POST', '/api/optimizations', { type: 'pacing', name: '['.repeat(150) })
    expect(text.statusCode).toBe(201)
    const big = JSON.stringify({ name: 'x', notes: 'y'.repeat(3 * 1024 * 1024) })
    const large = await postText('/api/aero-sessions', big)
    expect(large.statusCode).toBe(413)
    expect(large.json()).toMatchObject({ code: 'body-too-large' })
    expect(large.json().message).toMatch(/larger than 2 MB \(2097152 bytes\)/)
    const broken = await postText('/api/rider-setups', '{"name": "x", "__proto__": {"a": 1}}')
    expect(broken.statusCode).toBe(400)
  })
})
