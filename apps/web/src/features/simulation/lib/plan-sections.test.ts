import { describe, expect, it } from 'vitest'
import { optimizePacing, pacingOutput, type PacingInput } from '@veloptima/engine'
import { exportSections, importCourse, planTargets as exportTargets } from '@veloptima/formats'
import {
  courseSectionsOf,
  formatRanges,
  planTargets,
  sectionNamesFor,
  sectionsOfSettings,
} from './plan-sections.ts'
import { needs } from '../../../../../../scripts/test-data.ts'
import { describeWith } from '../../../../../../scripts/test-data-vitest.ts'
import { syntheticClimb } from '../../../../../../packages/formats/test/fixtures/synthetic-climb.ts'

const sections = [
  { start_m: 0, end_m: 1000, name: 'Start loop' },
  { start_m: 1000, end_m: 2500 },
  { start_m: 2500, end_m: 4000, name: 'Bridge climb' },
]

describe('section names on the plan', () => {
  it('lists the named sections a row overlaps, not those it only touches', () => {
    expect(sectionNamesFor({ start_m: 0, end_m: 1000 }, sections)).toEqual(['Start loop'])
    expect(sectionNamesFor({ start_m: 1000, end_m: 2500 }, sections)).toEqual([])
    expect(sectionNamesFor({ start_m: 500, end_m: 3000 }, sections)).toEqual([
      'Start loop',
      'Bridge climb',
    ])
    expect(sectionNamesFor({ start_m: 0, end_m: 10 }, null)).toEqual([])
  })

  it('reads the sections of a stored settings object (a result’s snapshot)', () => {
    expect(sectionsOfSettings({ surface: 'normal', sections })).toBe(sections)
    expect(sectionsOfSettings({ surface: 'normal' })).toBeNull()
    expect(sectionsOfSettings(null)).toBeNull()
  })

  it('uses the stored sections while they cover the course', () => {
    const segments = [0, 1000, 2000, 3000].map((start) => ({
      start,
      end: start + 1000,
      grade: 0,
    }))
    expect(courseSectionsOf({ segments, settings: { sections } } as never)).toEqual(sections)
  })
})

// The race sheet's rows on real plans from the engine (as a run stores them, pacingOutput): the
// self-made climb (packages/formats/test/fixtures/synthetic-climb.ts) with 8 targets and, when the
// real-world file is there, Alpe d'Huez with 12.
const rider: PacingInput['rider'] = {
  massKg: 72,
  bikeMassKg: 8,
  cdaM2: 0.3,
  crr: 0.004,
  drivetrainEfficiency: 0.976,
  cpW: 280,
  wPrimeJ: 20000,
  maxPowerW: 700,
}

function targetsOn(bytes: Uint8Array, name: string, maxTargets: number) {
  const course = importCourse(bytes, name, { segmentLengthM: 20 }).course
  const result = optimizePacing({
    course,
    rider,
    pacing: { constraint: { type: 'w_prime_balance' }, maxTargets },
  })
  const output = pacingOutput(result, course)
  return { output, length: course.start[course.n]!, rows: planTargets(output.plan) }
}

function sheetInvariants(run: () => ReturnType<typeof targetsOn>, maxTargets: number) {
  // computed by the first test that runs (a suite skipped for a missing file computes nothing)
  let plan: ReturnType<typeof targetsOn> | undefined
  const get = () => (plan ??= run())
  it('has one row per target of the plan, several of them, keyed in course order', () => {
    const { output, rows } = get()
    expect(rows.length).toBe(output.targets.length)
    expect(rows.length).toBeGreaterThan(2)
    expect(rows.length).toBeLessThanOrEqual(maxTargets)
    expect(rows.map((r) => r.key)).toEqual(rows.map((_, k) => String.fromCharCode(65 + k)))
    const firsts = rows.map((r) => r.ranges[0]!.start_m)
    expect(firsts).toEqual([...firsts].sort((a, b) => a - b))
  })
  it('has km ranges that cover the course once, adding up to its length', () => {
    const { length, rows } = get()
    const ranges = rows.flatMap((r) => r.ranges).sort((a, b) => a.start_m - b.start_m)
    expect(ranges[0]!.start_m).toBe(0)
    for (let i = 1; i < ranges.length; i++) {
      expect(ranges[i]!.start_m).toBeCloseTo(ranges[i - 1]!.end_m, 6)
    }
    const total = ranges.reduce((sum, r) => sum + r.end_m - r.start_m, 0)
    expect(Math.abs(total - length)).toBeLessThanOrEqual(0.1)
  })
  it('has times in the targets that add up to the plan’s finish time', () => {
    const { output, rows } = get()
    // each section's time is stored to 0.1 s
    const total = rows.reduce((sum, r) => sum + r.duration_s, 0)
    expect(Math.abs(total - output.time_s)).toBeLessThanOrEqual(0.05 * output.plan.length + 1e-9)
  })
  it('shows the same targets as the exports write', () => {
    const { output, rows } = get()
    const written = exportTargets(exportSections(output.plan, output.targets))
    expect(rows.map((r) => [r.key, r.power_w, r.label, r.ranges, r.duration_s])).toEqual(
      written.map((t) => [
        t.key,
        t.powerW,
        t.label,
        t.ranges.map((g) => ({ start_m: g.startM, end_m: g.endM })),
        t.durationS,
      ]),
    )
  })
}

describe('the race sheet’s targets on the self-made climb', () => {
  sheetInvariants(
    () => targetsOn(new TextEncoder().encode(syntheticClimb().gpx), 'synthetic-climb.gpx', 8),
    8,
  )
})

const ALPE = 'courses/alpe-dhuez.gpx'
describeWith([ALPE], 'the race sheet’s targets on Alpe d’Huez', () => {
  sheetInvariants(() => targetsOn(needs(ALPE).read(ALPE), 'alpe-dhuez.gpx', 12), 12)
})

describe('target rows of a plan', () => {
  const row = { label: 'climb', grade: 0.05, speed_mps: 4, elapsed_s: 0 }
  it('merges adjacent sections of one target and groups older plans by power', () => {
    const plan = [
      { ...row, start_m: 0, end_m: 2400, power_w: 310, duration_s: 600, target: 0 },
      { ...row, start_m: 2400, end_m: 5100, power_w: 250, duration_s: 500, target: 1 },
      { ...row, start_m: 5100, end_m: 6000, power_w: 310, duration_s: 200, target: 0 },
    ]
    const rows = planTargets(plan)
    expect(rows.map((r) => [r.key, r.power_w, r.duration_s])).toEqual([
      ['A', 310, 800],
      ['B', 250, 500],
    ])
    expect(formatRanges(rows[0]!.ranges, (m) => m / 1000)).toBe('0.0–2.4, 5.1–6.0')
    const older = plan.map(({ target: _t, ...r }) => r)
    expect(planTargets(older).map((r) => r.ranges.length)).toEqual([2, 1])
  })
})
