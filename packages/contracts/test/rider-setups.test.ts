// The rider-setup rules shared by the web app and the API: what a pacing plan needs of a setup
// and the default max power from CP and W′ (docs/engine/science.md §3.1).
import { describe, expect, it } from 'vitest'
import {
  defaultMaxPower,
  maxPowerAgainstStored,
  pacingGaps,
  riderSetupCreateSchema,
  riderSetupFormSchema,
  riderSetupPatchSchema,
} from '../src/index.ts'

const complete = {
  rider_mass: 70,
  positions: [
    { cda: 0.33, name: 'Drops' },
    { cda: 0.37, name: 'Hoods' },
  ],
  cp: 250,
  w_prime: 18000,
}

describe('default max power: the one-minute power of the critical-power relation', () => {
  it('CP 250 W and W′ 18 kJ give 250 + 18000/60 = 550 W', () => {
    expect(defaultMaxPower(250, 18000)).toBe(550)
  })

  it('is a power the rider holds for one minute: W′/(P − CP) = 60 s (Monod & Scherrer)', () => {
    for (const [cp, wPrime] of [
      [180, 12000],
      [260, 18000],
      [320, 22000],
      [400, 30000],
      [700, 60000],
    ] as const) {
      const p = defaultMaxPower(cp, wPrime)
      // Whole watts: the time to exhaustion is 60 s up to the rounding of half a watt.
      expect(Math.abs(wPrime / (p - cp) - 60)).toBeLessThan((60 * 0.5) / (p - cp) + 1e-9)
    }
  })

  it('is always above CP and inside the setup’s max power range (100–3000 W)', () => {
    for (const cp of [50, 80, 300, 700]) {
      for (const wPrime of [1000, 20000, 60000]) {
        const p = defaultMaxPower(cp, wPrime)
        expect(p).toBeGreaterThan(cp)
        expect(p).toBeGreaterThanOrEqual(100)
        expect(p).toBeLessThanOrEqual(3000)
        expect(riderSetupPatchSchema.safeParse({ cp, w_prime: wPrime, max_power: p }).success).toBe(
          true,
        )
      }
    }
  })
})

describe('pacingGaps: what a setup lacks for a pacing plan', () => {
  it('is empty for a setup with mass, a CdA per position, CP and W′ (max power may be absent)', () => {
    expect(pacingGaps(complete)).toEqual([])
  })

  it('names CP and W′ of a setup stored without them', () => {
    expect(pacingGaps({ ...complete, cp: null, w_prime: null })).toEqual([
      { field: 'cp', label: 'CP' },
      { field: 'w_prime', label: 'W′' },
    ])
  })

  it('names a position without a CdA, a missing mass and no positions at all', () => {
    const noCda = { ...complete, positions: [{ cda: 0.3 }, { cda: null }] }
    expect(pacingGaps(noCda).map((g) => g.field)).toEqual(['positions'])
    expect(pacingGaps({ ...complete, positions: [] }).map((g) => g.field)).toEqual(['positions'])
    expect(pacingGaps({ ...complete, rider_mass: undefined }).map((g) => g.field)).toEqual([
      'rider_mass',
    ])
  })
})

describe('the API’s setup schema', () => {
  const body = {
    name: 'Road',
    rider_mass: 70,
    bike_mass: 8,
    positions: [{ name: 'Drops', cda: 0.33, min_speed: 0, max_speed: 30 }],
    crr: { smooth: 0.003, normal: 0.004, rough: 0.006 },
    cp: 250,
    w_prime: 18000,
  }

  it('accepts a setup with no gaps and refuses one without CP or W′', () => {
    expect(riderSetupCreateSchema.safeParse(body).success).toBe(true)
    const { cp: _cp, ...noCp } = body
    const r = riderSetupCreateSchema.safeParse(noCp)
    expect(r.success).toBe(false)
    expect(r.error?.issues.map((i) => i.path.join('.'))).toEqual(['cp'])
  })

  it('refuses max power at or below CP, on create and in a patch against the stored CP', () => {
    const r = riderSetupCreateSchema.safeParse({ ...body, max_power: 250 })
    expect(r.error?.issues[0]).toMatchObject({
      path: ['max_power'],
      message: 'must be above cp (250 W)',
    })
    expect(maxPowerAgainstStored({ max_power: 240 }, { cp: 250, max_power: 550 })).toEqual({
      path: ['max_power'],
      message: 'must be above cp (250 W)',
    })
    expect(maxPowerAgainstStored({ cp: 560 }, { cp: 250, max_power: 550 })?.message).toBe(
      'must be above cp (560 W)',
    )
    // A patch that touches neither (a rename) never fails on an old row.
    expect(maxPowerAgainstStored({}, { cp: 300, max_power: 200 })).toBeNull()
    expect(maxPowerAgainstStored({ max_power: null }, { cp: 300, max_power: 200 })).toBeNull()
  })
})

describe('the setup form’s body', () => {
  const body = {
    name: 'Road',
    bike_type: 'road_race',
    rider_mass: 70,
    bike_mass: 8,
    extra_mass: 1.5,
    positions: [
      { name: 'Drops', cda: 0.33, min_speed: 6.9, max_speed: 30 },
      { name: 'Hoods', cda: 0.37, min_speed: 0, max_speed: 6.9 },
    ],
    crr: { smooth: 0.0032, normal: 0.004, rough: 0.0055 },
    drivetrain_efficiency: 0.976,
    cp: 250,
    w_prime: 18000,
    max_power: 550,
    extras: { rider_name: 'Fiona', rider_height: 1.76, tyre: 'race_butyl' },
  }

  it('is a body the API takes for a new setup (with an owner) and as a patch', () => {
    const form = riderSetupFormSchema.parse(body)
    expect(riderSetupCreateSchema.safeParse({ ...form, owner: 'uid-1' }).success).toBe(true)
    expect(riderSetupPatchSchema.safeParse(form).success).toBe(true)
    expect(pacingGaps(form)).toEqual([])
  })

  it('needs CP and W′ and keeps max power above CP', () => {
    const r = riderSetupFormSchema.safeParse({ ...body, cp: null, w_prime: undefined })
    expect(r.error?.issues.map((i) => i.path.join('.'))).toEqual(['cp', 'w_prime'])
    expect(
      riderSetupFormSchema.safeParse({ ...body, max_power: 250 }).error?.issues[0],
    ).toMatchObject({ path: ['max_power'], message: 'must be above cp (250 W)' })
    expect(riderSetupFormSchema.safeParse({ ...body, max_power: null }).success).toBe(true)
  })

  it('refuses what the form does not send (the owner is chosen beside it)', () => {
    expect(riderSetupFormSchema.safeParse({ ...body, owner: 'uid-1' }).success).toBe(false)
  })
})
