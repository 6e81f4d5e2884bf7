// The browser's optimization (the scenario the server runs, parsed by the engine) on a real course
// (alpe-dhuez.gpx, imported as the API does) with the rows the API stores.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importCourse } from '@veloptima/formats'
import { optimizerInputOf, type SegmentRow, type SetupLike } from './engine-input.ts'
import { computePreview } from './preview.ts'
import { choicesLabel, type EquipmentOutput, type PacingOutput } from './run-output.ts'

const file = resolve(import.meta.dirname, '../../../../../../../shared/data/courses/alpe-dhuez.gpx')
const built = importCourse(readFileSync(file), 'alpe-dhuez.gpx', { segmentLengthM: 20 }).course
const rows: SegmentRow[] = Array.from({ length: built.n }, (_, i) => ({
  start: built.start[i]!,
  end: built.start[i + 1]!,
  grade: built.grade[i]!,
  heading: (built.heading[i]! * 180) / Math.PI,
  radius: Number.isFinite(built.radius[i]!) ? built.radius[i]! : null,
  altitude: built.altitude[i]!,
}))
const setup: SetupLike = {
  rider_mass: 70,
  bike_mass: 8,
  extra_mass: 1,
  positions: [{ cda: 0.32 }, { cda: 0.36 }],
  crr: { smooth: 0.0032, normal: 0.004, rough: 0.0055 },
  drivetrain_efficiency: 0.976,
  wheel_inertia: 0.14,
  cp: 280,
  w_prime: 20000,
  max_power: 700,
}
const length = built.start[built.n]!

describe('pacing preview', () => {
  const s = computePreview(
    optimizerInputOf(rows, undefined, setup, { max_targets: 8 }, 'pacing'),
    'pacing',
  ) as PacingOutput

  it('is optimal with at most 8 targets; savings are measured against the best constant power', () => {
    expect(s.status).toBe('optimal')
    // The full-resolution optimum is never slower than the best constant power (engine contract).
    expect(s.optimal_time_saved_s!).toBeGreaterThanOrEqual(0)
    // The rideable plan's saving is its own time against the baseline (it may be slightly negative
    // on a steady climb, where merging into 8 targets costs more than pacing gains).
    expect(s.time_saved_s!).toBeCloseTo(s.baseline!.time_s - s.time_s, 9)
    expect(Math.abs(s.time_saved_s!)).toBeLessThan(0.01 * s.time_s)
    expect(s.plan.length).toBeGreaterThan(0)
    expect(s.plan.length).toBeLessThanOrEqual(8)
  })

  it('has sections covering the course end to end whose times add up to the predicted time', () => {
    expect(s.plan[0]!.start_m).toBe(0)
    for (let i = 1; i < s.plan.length; i++) expect(s.plan[i]!.start_m).toBe(s.plan[i - 1]!.end_m)
    expect(s.plan.at(-1)!.end_m).toBeCloseTo(length, 0)
    const total = s.plan.reduce((a, r) => a + r.duration_s, 0)
    expect(Math.abs(total - s.time_s)).toBeLessThan(0.1 * s.plan.length)
    expect(s.plan.at(-1)!.elapsed_s).toBeCloseTo(s.time_s, 0)
    // Alpe d'Huez climbs ~1100 m over 13.6 km.
    const rise = s.plan.reduce((a, r) => a + r.grade * (r.end_m - r.start_m), 0)
    expect(rise).toBeGreaterThan(900)
  })

  it('charts W′ balance that never goes below zero under the W′ constraint', () => {
    expect(Math.min(...s.series!.w_prime_balance_j)).toBeGreaterThanOrEqual(-1)
    expect(s.series!.distance_m.at(-1)).toBeCloseTo(length, 0)
  })

  it('without max power caps the plan at 2 × CP, as the server’s run does (one builder)', () => {
    const input = optimizerInputOf(rows, undefined, { ...setup, max_power: null }, {}, 'pacing')
    expect((input.scenario.rider as { max_power_w: number }).max_power_w).toBe(2 * setup.cp!)
  })

  it('refuses a bad setup override with the engine’s message naming the field and value', () => {
    expect(() =>
      optimizerInputOf(rows, undefined, setup, { rider_override: { rider_mass: -5 } }, 'pacing'),
    ).toThrow(/rider_override\.rider_mass.*-5/)
  })
})

describe('equipment ranking', () => {
  const inputs = {
    max_targets: 6,
    equipment: {
      groups: {
        Wheels: [
          { name: 'Alloy' },
          { name: 'Light climbing', mass_delta_kg: -0.6 },
          { name: 'Heavy deep', cda_delta_m2: -0.01, mass_delta_kg: 1.5 },
        ],
      },
      baseline: { Wheels: 'Alloy' },
    },
  }
  const s = computePreview(
    optimizerInputOf(rows, undefined, setup, inputs, 'equipment'),
    'equipment',
  ) as EquipmentOutput

  it('ranks by time: on a steep climb lighter wheels save time and 1.5 kg costs more than 0.01 m² saves', () => {
    const by = Object.fromEntries(s.ranking.map((c) => [choicesLabel(c.choices), c]))
    expect(by['Wheels: Light climbing']!.delta_s).toBeLessThan(0)
    expect(by['Wheels: Heavy deep']!.delta_s).toBeGreaterThan(0)
    expect(by['Wheels: Alloy']!.delta_s).toBe(0)
    expect(choicesLabel(s.ranking[0]!.choices)).toBe('Wheels: Light climbing')
    expect(s.best.plan.length).toBeGreaterThan(0)
  })
})
