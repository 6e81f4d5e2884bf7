// `veloptima optimize`, spawned as the real command, on the self-made climb and on every
// real-world course (scripts/test-data.ts; skipped with the reason when absent).
import { describe, expect, it } from 'vitest'
import { dataFile, realFilesIn } from '../../../scripts/test-data.ts'
import { itWith } from '../../../scripts/test-data-vitest.ts'
import { syntheticClimb } from '../../formats/test/fixtures/synthetic-climb.ts'
import { jsonOf, veloptima, writeInput as write, scenarioRider } from './run-cli.ts'

const climbFile = write(syntheticClimb().gpx, 'gpx')
const courseFile = (name: string): string =>
  name === 'synthetic-climb.gpx' ? climbFile : (dataFile(`courses/${name}`) ?? name)

const rider = { ...scenarioRider, max_power_w: 700 }
const environment = { air_density_kg_m3: 1.2 }

describe('veloptima optimize', () => {
  it('prints the optimized ride with segment_power_w, plan, baseline, time_saved_s, status; simulate agrees', () => {
    const scenario = {
      course: { file: climbFile },
      rider,
      environment,
      constraint: { type: 'w_prime_balance' },
      max_targets: 8,
    }
    const r = veloptima('optimize', write(scenario))
    const out = jsonOf(r)
    for (const k of [
      'segment_power_w',
      'plan',
      'baseline',
      'time_saved_s',
      'status',
      'time_s',
      'segments',
    ]) {
      expect(out).toHaveProperty(k)
    }
    expect(out.status).toBe('optimal')
    expect(out.segment_power_w).toHaveLength(out.segments.length)
    expect(out.plan.length).toBeGreaterThan(0)
    // at most 8 target powers (a target applies to a group of sections)
    expect(out.targets.length).toBeLessThanOrEqual(8)
    for (const s of out.plan)
      expect(Object.keys(s)).toEqual(['start_m', 'end_m', 'power_w', 'label'])
    expect(out.baseline.time_s).toBeGreaterThanOrEqual(out.time_s)
    expect(out.time_saved_s).toBeCloseTo(out.baseline.time_s - out.time_s, 2)
    expect(out.min_w_prime_balance_j).toBeGreaterThanOrEqual(0)
    // the same plan through `veloptima simulate` gives the same ride (powers rounded to 0.01 W)
    const sim = veloptima(
      'simulate',
      write({
        ...scenario,
        constraint: undefined,
        max_targets: undefined,
        pacing: { type: 'plan', power_w: out.segment_power_w },
      }),
    )
    expect(sim.code).toBe(0)
    expect(Math.abs(JSON.parse(sim.stdout).time_s - out.time_s)).toBeLessThan(0.01)
  })

  for (const file of ['synthetic-climb.gpx', ...realFilesIn('courses')]) {
    const files = file === 'synthetic-climb.gpx' ? [] : [`courses/${file}`]
    itWith(files, `runs on ${file}: feasible, never slower than the best constant power`, () => {
      const r = veloptima(
        'optimize',
        write({
          course: { file: courseFile(file) },
          rider,
          environment,
          constraint: { type: 'w_prime_balance' },
        }),
      )
      const out = jsonOf(r)
      expect(out.status).toBe('optimal')
      expect(out.min_w_prime_balance_j).toBeGreaterThanOrEqual(0)
      expect(out.time_s).toBeLessThanOrEqual(out.baseline.time_s)
      expect(out.targets.length).toBeLessThanOrEqual(12)
      // time_s is the rideable plan's; the per-segment optimum is its bound
      expect(out.plan_time_s).toBe(out.time_s)
      expect(out.bound_time_s).toBeLessThanOrEqual(out.time_s)
    })
  }

  it('ranks equipment combinations, fastest first, with Δ against the baseline combination', () => {
    const segments = Array.from({ length: 60 }, (_, i) => ({
      length_m: 100,
      grade: [0, 0.03, -0.02, 0.05, 0.01][i % 5],
      heading_deg: (i * 30) % 360,
    }))
    const r = veloptima(
      'optimize',
      write({
        course: { segments },
        rider,
        environment: { ...environment, wind_speed_mps: 4, wind_from_deg: 90 },
        constraint: { type: 'average_power', power_w: 260 },
        equipment: {
          groups: {
            helmet: [
              { name: 'road', cda_delta_m2: 0 },
              { name: 'aero', cda_delta_m2: -0.008, mass_delta_kg: 0.15 },
            ],
            front: [
              { name: 'shallow', cda_delta_m2: 0 },
              {
                name: 'deep',
                cda_delta_by_yaw: [
                  [0, -0.004],
                  [10, -0.008],
                  [20, -0.006],
                ],
                mass_delta_kg: 0.3,
              },
            ],
            tyre: [
              { name: 'training', crr: 0.005 },
              { name: 'race', crr: 0.0032 },
            ],
          },
          baseline: { helmet: 'road', front: 'shallow', tyre: 'training' },
        },
      }),
    )
    const out = jsonOf(r)
    expect(out.ranking).toHaveLength(8)
    for (let k = 1; k < out.ranking.length; k++) {
      expect(out.ranking[k].time_s).toBeGreaterThanOrEqual(out.ranking[k - 1].time_s)
    }
    const base = out.ranking.find(
      (c: { choices: Record<string, string> }) =>
        c.choices.helmet === 'road' &&
        c.choices.front === 'shallow' &&
        c.choices.tyre === 'training',
    )
    expect(base.delta_s).toBe(0)
    // less drag and rolling resistance at the same mean power: the all-fast set wins
    expect(out.ranking[0].choices).toEqual({ helmet: 'aero', front: 'deep', tyre: 'race' })
    expect(out.ranking[0].delta_s).toBeLessThan(0)
    // the ranking compares the combinations' optima (bounds); time_s is the best one's rideable plan
    expect(out.bound_time_s).toBeCloseTo(out.ranking[0].time_s, 2)
    expect(out.time_s).toBeGreaterThanOrEqual(out.bound_time_s)
    expect(out.ranking[0].delta_time.length).toBeGreaterThan(10)
  })

  it('a wall that cannot be climbed within W′: status "infeasible" with a reason', () => {
    const segments = [
      { length_m: 300, grade: 0 },
      ...Array.from({ length: 50 }, () => ({ length_m: 20, grade: 0.2 })),
    ]
    const r = veloptima(
      'optimize',
      write({
        course: { segments },
        rider: { ...rider, cp_w: 120, w_prime_j: 10000, max_power_w: 400 },
        environment,
        constraint: { type: 'w_prime_balance' },
      }),
    )
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out.status).toBe('infeasible')
    expect(out.reason).toMatch(/W′/)
    expect(out.segment_power_w).toEqual([])
  })

  it('bad input: one line naming the field on stderr, exit 2', () => {
    const r = veloptima(
      'optimize',
      write({
        course: { segments: [{ length_m: 100, grade: 0 }] },
        rider,
        environment,
        constraint: { type: 'np', power_w: 250 },
      }),
    )
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).toMatch(/^veloptima optimize: constraint.type: expected/)
  })
})
