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
