import { describe, expect, it } from 'vitest'
import { riderProfilePutSchema, riderSetupPatchSchema, type RiderSetup } from '@veloptima/contracts'
import { profileFormSchema, setupUpdatesFor, toFormValues, toProfilePut } from './profile-form.ts'

const values = (over: Partial<Record<string, string>> = {}) => ({
  rider_name: 'Anna',
  rider_height: '',
  rider_weight: '',
  cp: '',
  w_prime: '',
  ...over,
})

const messages = (system: 'metric' | 'imperial', v: ReturnType<typeof values>) => {
  const r = profileFormSchema(system).safeParse(v)
  return r.success ? [] : r.error.issues.map((i) => i.message)
}

describe('rider profile form', () => {
  it('accepts empty optional numbers and sends null for them', () => {
    expect(messages('metric', values())).toEqual([])
    expect(toProfilePut(values(), 'metric')).toEqual({
      rider_name: 'Anna',
      rider_height: null,
      rider_weight: null,
      cp: null,
      w_prime: null,
    })
  })

  it('validates the height in cm (metric) and in inches (imperial), naming field and value', () => {
    expect(messages('metric', values({ rider_height: '300' }))).toEqual([
      'Rider height must be between 100 and 250 cm (got 300 cm).',
    ])
    // 1.0–2.5 m is 39.4–98.4 in (1 in = 2.54 cm exactly).
    expect(messages('imperial', values({ rider_height: '30' }))).toEqual([
      'Rider height must be between 39.4 and 98.4 in (got 30 in).',
    ])
    expect(messages('imperial', values({ rider_height: '70.9' }))).toEqual([])
  })

  it('validates the weight in kg or lb and refuses text', () => {
    expect(messages('metric', values({ rider_weight: 'heavy' }))).toEqual([
      'Rider weight must be a number (got "heavy").',
    ])
    // 250 kg = 551.2 lb (1 lb = 0.45359237 kg).
    expect(messages('imperial', values({ rider_weight: '600' }))).toEqual([
      'Rider weight must be between 55.1 and 551.2 lb (got 600 lb).',
    ])
  })

  it('converts imperial input to SI that the API contract accepts', () => {
    const body = toProfilePut(
      values({ rider_height: '71', rider_weight: '160', cp: '280', w_prime: '20' }),
      'imperial',
    )
    expect(body.rider_height).toBeCloseTo(71 * 0.0254, 4)
    expect(body.rider_weight).toBeCloseTo(160 * 0.45359237, 3)
    expect(body.w_prime).toBe(20000)
    expect(riderProfilePutSchema.safeParse(body).success).toBe(true)
  })

  it('round-trips a stored profile through the form in both unit systems', () => {
    const stored = {
      uid: 'u',
      rider_name: 'Anna',
      rider_height: 1.8,
      rider_weight: 72,
      cp: 280,
      w_prime: 20000,
      updated_at: '2026-01-01T00:00:00Z',
    }
    for (const system of ['metric', 'imperial'] as const) {
      const back = toProfilePut(toFormValues(stored, system), system)
      expect(back.rider_height).toBeCloseTo(1.8, 2)
      expect(back.rider_weight).toBeCloseTo(72, 1)
      expect(back.cp).toBe(280)
      expect(back.w_prime).toBe(20000)
    }
    expect(toFormValues(stored, 'metric')).toMatchObject({
      rider_height: '180',
      rider_weight: '72',
    })
  })
})

describe('editing the profile offers to update the setups that used it', () => {
  // A setup made from the profile 176 cm, 70 kg, CP 250 W, W′ 18 kJ with the default max power
  // 250 + 18000/60 = 550 W; another typed by hand.
  const before = { rider_height: 1.76, rider_weight: 70, cp: 250, w_prime: 18000 }
  const setup = (over: Partial<RiderSetup>): RiderSetup => ({
    id: 'a',
    owner: 'u',
    owner_type: 'user',
    name: 'My road bike',
    bike_type: 'road_race',
    rider_mass: 70,
    bike_mass: 8,
    extra_mass: 1.5,
    positions: [{ name: 'Drops', cda: 0.331, min_speed: 6.9, max_speed: 30 }],
    crr: { smooth: 0.0032, normal: 0.004, rough: 0.0055 },
    drivetrain_efficiency: 0.976,
    wheel_inertia: 0.14,
    cp: 250,
    w_prime: 18000,
    max_power: 550,
    max_lateral_acceleration: 4,
    durability: null,
    heat_acclimatised: false,
    extras: { rider_name: '', rider_height: 1.76, tyre: 'race_butyl' },
    created_at: '',
    updated_at: '',
    ...over,
  })

  it('lists the setup holding the old values with each change, and the patch', () => {
    const after = { ...before, rider_weight: 72, cp: 260 }
    const [u, ...rest] = setupUpdatesFor([setup({})], before, after, 'metric')
    expect(rest).toEqual([])
    expect(u!.name).toBe('My road bike')
    expect(u!.changes).toEqual([
      { label: 'Rider weight', from: '70 kg', to: '72 kg' },
      { label: 'CP', from: '250 W', to: '260 W' },
      // The default follows: 260 + 18000/60 = 560 W.
      { label: 'Max power (CP + W′/60 s)', from: '550 W', to: '560 W' },
    ])
    expect(u!.patch).toEqual({ rider_mass: 72, cp: 260, max_power: 560 })
    expect(riderSetupPatchSchema.safeParse(u!.patch).success).toBe(true)
  })

  it('leaves alone setups whose values were typed there, and a max power of one’s own', () => {
    const typed = setup({ id: 'b', name: 'TT', rider_mass: 68, cp: 300, max_power: 700 })
    expect(setupUpdatesFor([typed], before, { ...before, rider_weight: 72 }, 'metric')).toEqual([])
    const own = setup({ max_power: 800 })
    const [u] = setupUpdatesFor([own], before, { ...before, cp: 260 }, 'metric')
    expect(u!.patch).toEqual({ cp: 260 })
  })

  it('raises a max power that the new CP would reach, so the server accepts the patch', () => {
    const own = setup({ max_power: 400 })
    const [u] = setupUpdatesFor([own], before, { ...before, cp: 420 }, 'metric')
    expect(u!.patch).toEqual({ cp: 420, max_power: 720 })
  })

  it('carries the height into the setup’s extras, shown in the user’s units', () => {
    const [u] = setupUpdatesFor([setup({})], before, { ...before, rider_height: 1.8 }, 'imperial')
    expect(u!.changes).toEqual([{ label: 'Rider height', from: '69.3 in', to: '70.9 in' }])
    expect(u!.patch).toEqual({
      extras: { rider_name: '', rider_height: 1.8, tyre: 'race_butyl' },
    })
  })

  it('offers nothing when nothing changed, a value was cleared, or there was no profile', () => {
    expect(setupUpdatesFor([setup({})], before, before, 'metric')).toEqual([])
    expect(setupUpdatesFor([setup({})], before, { ...before, cp: null }, 'metric')).toEqual([])
    expect(setupUpdatesFor([setup({})], null, before, 'metric')).toEqual([])
  })
})
