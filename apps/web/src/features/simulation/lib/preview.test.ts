// The browser's optimization (the scenario the server runs, parsed by the engine) on the self-made
// climb (packages/formats/test/fixtures/synthetic-climb.ts, imported as the API does) with the rows
// the API stores; its first answer against the refined one also on the real Alpe d'Huez (skipped,
// naming it, when absent).
import { describe, expect, it } from 'vitest'
import { importCourse } from '@veloptima/formats'
import { optimizerInputOf, type SegmentRow, type SetupLike } from './engine-input.ts'
import { previewSetup, segmentRowsOf, syntheticClimbCourse } from './preview-fixtures.ts'
import { mergeSegments } from '@veloptima/engine'
import { computePreview, firstAnswer, preparePreview, refinedAnswer } from './preview.ts'
import { choicesLabel, type EquipmentOutput, type PacingOutput } from './run-output.ts'

import { needs } from '../../../../../../scripts/test-data.ts'
import { describeWith } from '../../../../../../scripts/test-data-vitest.ts'
import { syntheticClimb } from '../../../../../../packages/formats/test/fixtures/synthetic-climb.ts'

const ALPE = 'courses/alpe-dhuez.gpx'
const climb = syntheticClimb()
const built = syntheticClimbCourse()
const rows: SegmentRow[] = segmentRowsOf(built)
const setup: SetupLike = previewSetup({ positions: [{ cda: 0.32 }, { cda: 0.36 }] })
const length = built.start[built.n]!

describe('pacing preview', () => {
  const s = computePreview(
    optimizerInputOf(rows, undefined, setup, { max_targets: 8 }, 'pacing'),
    'pacing',
  ) as PacingOutput

  it('is optimal with at most 8 targets; savings are measured against the best constant power', () => {
    expect(s.status).toBe('optimal')
    // The per-segment optimum (the bound) is never slower than the best constant power.
    expect(s.bound_time_saved_s!).toBeGreaterThanOrEqual(0)
    expect(s.bound_time_s).toBeLessThanOrEqual(s.time_s)
    // The rideable plan's saving is its own time against the baseline, never negative (the
    // steady power is the plan when nothing rideable beats it).
    expect(s.time_saved_s!).toBeCloseTo(s.baseline!.time_s - s.time_s, 9)
    expect(s.time_saved_s!).toBeGreaterThanOrEqual(0)
    expect(s.time_saved_s!).toBeLessThanOrEqual(s.bound_time_saved_s! + 1e-9)
    expect(s.plan.length).toBeGreaterThan(0)
    expect(s.targets.length).toBeLessThanOrEqual(8)
    for (const row of s.plan) expect(s.targets[row.target!]!.power_w).toBe(row.power_w)
  })

  it('has sections covering the course end to end whose times add up to the predicted time', () => {
    expect(s.plan[0]!.start_m).toBe(0)
    for (let i = 1; i < s.plan.length; i++) expect(s.plan[i]!.start_m).toBe(s.plan[i - 1]!.end_m)
    expect(s.plan.at(-1)!.end_m).toBeCloseTo(length, 0)
    const total = s.plan.reduce((a, r) => a + r.duration_s, 0)
    expect(Math.abs(total - s.time_s)).toBeLessThan(0.1 * s.plan.length)
    expect(s.plan.at(-1)!.elapsed_s).toBeCloseTo(s.time_s, 0)
    // The self-made climb rises its ascent by construction (no descent).
    const rise = s.plan.reduce((a, r) => a + r.grade * (r.end_m - r.start_m), 0)
    expect(Math.abs(rise / climb.ascentM - 1)).toBeLessThan(0.01)
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

describe('merging segments (the engine’s mergeSegments, for long courses)', () => {
  it('keeps a tight bend as a piece of its own, so its speed limit holds over the bend only', () => {
    const road = (radiusM?: number) => ({
      lengthM: 20,
      grade: 0.05,
      ...(radiusM ? { radiusM } : {}),
    })
    const m = mergeSegments([road(), road(), road(12), road(), road(), road()], 80, {
      keepBendsBelowM: 30,
    })
    expect(m.map((s) => [s.lengthM, s.radiusM])).toEqual([
      [40, undefined],
      [20, 12],
      [60, undefined],
    ])
    // without the option the bend's radius holds over a whole 80 m piece
    expect(mergeSegments([road(), road(), road(12), road(), road(), road()], 80)[0]).toMatchObject({
      lengthM: 80,
      radiusM: 12,
    })
  })

  it('a straight road keeps its heading when merged (the chord of collinear pieces)', () => {
    const m = mergeSegments(
      [
        { lengthM: 10, grade: 0.02, headingDeg: 350 },
        { lengthM: 10, grade: 0.04, headingDeg: 350 },
      ],
      20,
    )
    expect(m).toHaveLength(1)
    expect(m[0]!.headingDeg).toBeCloseTo(350, 9)
    expect(m[0]!.grade).toBeCloseTo(0.03, 12)
  })
})

describe('the first answer of a pacing preview', () => {
  const input = optimizerInputOf(rows, undefined, setup, { max_targets: 8 }, 'pacing')
  const prepared = preparePreview(input)
  const first = firstAnswer(prepared, 'pacing') as PacingOutput
  const refined = refinedAnswer(prepared, 'pacing') as PacingOutput

  it('has the steady power and the per-segment optimum, and no rideable plan yet', () => {
    expect(first.status).toBe('optimal')
    expect(first.plan).toEqual([])
    expect(first.targets).toEqual([])
    // the same best constant power as the refined answer (one bisection on the same ride)
    expect(first.baseline).toEqual(refined.baseline)
    // the per-segment optimum beats the steady power, and the refined answer (which also tries
    // finer control segments) is never slower than it
    expect(first.bound_time_saved_s!).toBeGreaterThanOrEqual(0)
    expect(refined.bound_time_s).toBeLessThanOrEqual(first.bound_time_s + 1e-6)
    // its ride along the course for the charts, W′ never below zero
    expect(first.series!.distance_m.at(-1)).toBeCloseTo(length, 0)
    expect(Math.min(...first.series!.w_prime_balance_j)).toBeGreaterThanOrEqual(-1)
  })

  it('is none for an equipment ranking, which answers once', () => {
    const equipment = optimizerInputOf(
      rows,
      undefined,
      setup,
      { equipment: { groups: { Wheels: [{ name: 'Alloy' }, { name: 'Light' }] } } },
      'equipment',
    )
    expect(firstAnswer(preparePreview(equipment), 'equipment')).toBeNull()
  })
})

describeWith([ALPE], 'the first answer on a real climb', () => {
  it('on Alpe d’Huez at 10 m: the per-segment optimum within 0.2 % of the refined one, the same steady power', () => {
    const fine = importCourse(needs(ALPE).read(ALPE), 'alpe-dhuez.gpx', {}).course
    const rows10: SegmentRow[] = segmentRowsOf(fine)
    const prepared = preparePreview(optimizerInputOf(rows10, undefined, setup, {}, 'pacing'))
    const first = firstAnswer(prepared, 'pacing') as PacingOutput
    const refined = refinedAnswer(prepared, 'pacing') as PacingOutput
    expect(first.baseline).toEqual(refined.baseline)
    expect(refined.bound_time_s).toBeLessThanOrEqual(first.bound_time_s + 1e-6)
    expect(first.bound_time_s / refined.bound_time_s - 1).toBeLessThan(0.002)
  })
})
