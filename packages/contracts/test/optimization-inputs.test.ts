// The checks an optimization's inputs get when saved (POST/PATCH /api/optimizations): the fields
// this format adds (wind per stretch, event start, setup override) are refused with the field
// named; everything else passes through to the engine, which checks it when a run starts.
import { describe, expect, it } from 'vitest'
import {
  optimizationCreateSchema,
  optimizationInputsSchema,
  optimizationPatchSchema,
} from '../src/index.ts'

const issues = (inputs: unknown) => {
  const r = optimizationInputsSchema.safeParse(inputs)
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`)
}

describe('optimization inputs', () => {
  const good = {
    environment: {
      temperature_c: 18,
      wind_speed_mps: 2,
      wind_from_deg: 270,
      wind_segments: [
        { start_m: 0, end_m: 5000, wind_speed_mps: 4, wind_from_deg: 200 },
        { start_m: 5000, end_m: 9000, wind_speed_mps: 1, wind_from_deg: 20 },
      ],
      event_start: '2026-07-14T09:30',
    },
    rider_override: {
      rider_mass: 68,
      positions: [{ name: 'aero', cda: 0.24, min_speed: 7, max_speed: 20 }],
      crr: { rough: 0.006 },
      max_power: null,
    },
    constraint: { type: 'w_prime_balance' },
    max_targets: 12,
    equipment: { groups: { Wheels: [{ name: 'Alloy' }] } },
  }

  it('accepts the stored format and keeps every field (the rest is the engine’s to check)', () => {
    expect(issues(good)).toEqual([])
    expect(optimizationInputsSchema.parse(good)).toEqual(good)
  })

  it.each([
    [{ rider_override: { rider_mass: -5 } }, /^rider_override\.rider_mass: must be at least 25/],
    [{ rider_override: { bike_type: 'tt' } }, /^rider_override: .*bike_type/i],
    [
      { rider_override: { positions: [{ cda: 0.3, min_speed: 9, max_speed: 4 }] } },
      /^rider_override\.positions\.0\.max_speed/,
    ],
    [
      {
        environment: {
          wind_segments: [
            { start_m: 0, end_m: 500, wind_speed_mps: 3, wind_from_deg: 0 },
            { start_m: 400, end_m: 900, wind_speed_mps: 3, wind_from_deg: 0 },
          ],
        },
      },
      /^environment\.wind_segments\.1\.start_m: .*\(500\)/,
    ],
    [
      {
        environment: {
          wind_segments: [{ start_m: 9, end_m: 9, wind_speed_mps: 1, wind_from_deg: 0 }],
        },
      },
      /^environment\.wind_segments\.0\.end_m: must be more than start_m/,
    ],
    [
      {
        environment: {
          wind_segments: [{ start_m: 0, end_m: 9, wind_speed_mps: -1, wind_from_deg: 0 }],
        },
      },
      /^environment\.wind_segments\.0\.wind_speed_mps: must be at least 0/,
    ],
    [
      {
        environment: {
          wind_segments: [{ start_m: 0, end_m: 9, wind_speed_mps: 1, wind_from_deg: 361 }],
        },
      },
      /^environment\.wind_segments\.0\.wind_from_deg: must be at most 360/,
    ],
    [{ environment: { event_start: '14/07/2026 9:30' } }, /^environment\.event_start: must be/],
  ])('refuses bad values naming the field (%#)', (inputs, message) => {
    expect(issues(inputs).join('; ')).toMatch(message)
  })

  it('accepts a target time, the heat and altitude options, the fuel and the pacing rules', () => {
    const raceInputs = {
      constraint: { type: 'target_time', time_s: 9000 },
      options: { heat: true, altitude: false },
      fuel: { gut_tolerance_g_per_h: 90, glycogen_store_g: 500 },
      rules: {
        easy_start: { duration_s: 600, max_cp_fraction: 0.85 },
        coast: { descent_grade: -0.05, before_braking: true },
        descent_cap: { grade: -0.04, power_w: 150 },
        stretches: [{ start_m: 1000, end_m: 2000, max_speed_mps: 12, label: 'village' }],
      },
    }
    expect(issues(raceInputs)).toEqual([])
    expect(optimizationInputsSchema.parse(raceInputs)).toEqual(raceInputs)
  })

  it.each([
    [
      { constraint: { type: 'target_time', time_s: 30 } },
      /^constraint\.time_s: must be at least 60 s/,
    ],
    [
      { constraint: { type: 'target_time', time_s: 8 * 86400 } },
      /^constraint\.time_s: must be at most 604800 s/,
    ],
    [{ options: { heat: 'yes' } }, /^options\.heat: /],
    [{ options: { wind: true } }, /^options: .*wind/i],
    [
      { fuel: { gut_tolerance_g_per_h: 200 } },
      /^fuel\.gut_tolerance_g_per_h: must be at most 150 g\/h/,
    ],
    [{ fuel: { glycogen_store_g: 50 } }, /^fuel\.glycogen_store_g: must be at least 100 g/],
    [
      { rules: { easy_start: { duration_s: 20_000, max_cp_fraction: 0.8 } } },
      /^rules\.easy_start\.duration_s: must be at most 14400 s/,
    ],
    [
      { rules: { easy_start: { duration_s: 600, max_cp_fraction: 0.1 } } },
      /^rules\.easy_start\.max_cp_fraction: must be at least 0\.3/,
    ],
    [
      { rules: { coast: { descent_grade: 0.05 } } },
      /^rules\.coast\.descent_grade: must be at most 0/,
    ],
    [
      { rules: { descent_cap: { grade: -0.5, power_w: 100 } } },
      /^rules\.descent_cap\.grade: must be at least -0\.3/,
    ],
    [
      { rules: { descent_cap: { grade: -0.05, power_w: 5000 } } },
      /^rules\.descent_cap\.power_w: must be at most 3000 W/,
    ],
    [
      { rules: { stretches: [{ start_m: 2000, end_m: 1000, power_w: 200 }] } },
      /^rules\.stretches\.0\.end_m: must be more than start_m/,
    ],
    [
      { rules: { stretches: [{ start_m: 0, end_m: 1000 }] } },
      /^rules\.stretches\.0: needs max_power_w, power_w or max_speed_mps/,
    ],
    [
      { rules: { stretches: [{ start_m: 0, end_m: 100, max_speed_mps: 0.1 }] } },
      /^rules\.stretches\.0\.max_speed_mps: must be at least 0\.5 m\/s/,
    ],
    [
      {
        rules: { stretches: Array.from({ length: 51 }, (_, i) => ({ start_m: i, end_m: i + 1 })) },
      },
      /^rules\.stretches: /,
    ],
    [{ rules: { drafting: true } }, /^rules: .*drafting/i],
  ])('refuses a bad race-plan input naming the field (%#)', (inputs, message) => {
    expect(issues(inputs).join('; ')).toMatch(message)
  })

  it('is checked on create and on patch, the issue naming the field', () => {
    const inputs = { rider_override: { rider_mass: -5 } }
    const paths = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
      r.success ? [] : r.error!.issues.map((i) => i.path.join('.'))
    expect(paths(optimizationPatchSchema.safeParse({ inputs }))).toEqual([
      'inputs.rider_override.rider_mass',
    ])
    expect(
      paths(optimizationCreateSchema.safeParse({ name: 'Race', type: 'pacing', inputs })),
    ).toEqual(['inputs.rider_override.rider_mass'])
    expect(optimizationCreateSchema.safeParse({ name: 'Race', type: 'pacing' }).success).toBe(true)
    expect(optimizationPatchSchema.safeParse({ inputs: good }).success).toBe(true)
  })
})
