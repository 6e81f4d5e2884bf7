// The browser's pacing preview on a real course (alpe-dhuez.gpx, imported as the API does) with
// the rows the API stores: invariants of the plan and the equipment ranking's physics.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { importCourse } from '@veloptima/formats'
import { engineInputsOf, type SegmentRow, type SetupLike } from './engine-input.ts'
import { computePreview } from './preview.ts'

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
  max_power: null,
}

describe('pacing preview', () => {
  const inputs = engineInputsOf(rows, undefined, setup, { max_targets: 8 })
  const s = computePreview(inputs, {}, 'pacing')

  it('is optimal with at most 8 targets; the saving is measured against the best constant power', () => {
    expect(s.status).toBe('optimal')
    expect(s.baseline).not.toBeNull()
    // The full-resolution optimum is never slower than the best constant power (engine contract).
    expect(s.optimumTimeSavedS!).toBeGreaterThanOrEqual(0)
    // The rideable plan's saving is its own time against the baseline (it may be slightly
    // negative on a steady climb, where merging into 8 targets costs more than pacing gains).
    expect(s.timeSavedS!).toBeCloseTo(s.baseline!.timeS - s.timeS, 9)
    expect(Math.abs(s.timeSavedS!)).toBeLessThan(0.01 * s.timeS)
    expect(s.sections.length).toBeGreaterThan(0)
    expect(s.sections.length).toBeLessThanOrEqual(8)
  })

  it('has sections covering the course end to end whose times add up to the predicted time', () => {
    expect(s.sections[0]!.startM).toBe(0)
    for (let i = 1; i < s.sections.length; i++) {
      expect(s.sections[i]!.startM).toBeCloseTo(s.sections[i - 1]!.endM, 6)
    }
    expect(s.sections.at(-1)!.endM).toBeCloseTo(built.start[built.n]!, 3)
    const total = s.sections.reduce((a, r) => a + r.durationS, 0)
    expect(total / s.timeS).toBeCloseTo(1, 6)
    expect(s.sections.at(-1)!.timeS).toBeCloseTo(s.timeS, 3)
    // Alpe d'Huez climbs ~1100 m over 13.6 km: the mean grade of the plan is positive.
    const rise = s.sections.reduce((a, r) => a + r.grade * (r.endM - r.startM), 0)
    expect(rise).toBeGreaterThan(900)
  })

  it('charts W′ balance that never goes below zero under the W′ constraint', () => {
    expect(Math.min(...s.series!.wPrimeJ!)).toBeGreaterThanOrEqual(-1)
    expect(s.series!.distanceM.at(-1)).toBeCloseTo(built.start[built.n]!, 3)
  })
})

describe('equipment ranking', () => {
  const optimization = {
    max_targets: 6,
    equipment: {
      groups: [
        {
          name: 'Wheels',
          options: [
            { name: 'Alloy', cda_delta: 0, mass_delta: 0, crr_factor: 1 },
            { name: 'Light climbing', cda_delta: 0, mass_delta: -0.6, crr_factor: 1 },
            { name: 'Heavy deep', cda_delta: -0.01, mass_delta: 1.5, crr_factor: 1 },
          ],
        },
      ],
    },
  }
  const s = computePreview(
    engineInputsOf(rows, undefined, setup, optimization),
    optimization,
    'equipment',
  )
  it('ranks by time: on a steep climb lighter wheels save time and 1.5 kg costs more than 0.01 m² saves', () => {
    const by = Object.fromEntries(s.variants!.map((v) => [v.name, v]))
    expect(by['Wheels: Light climbing']!.deltaS).toBeLessThan(0)
    expect(by['Wheels: Heavy deep']!.deltaS).toBeGreaterThan(0)
    expect(s.variants![0]!.name).toBe('Wheels: Light climbing')
  })
})
