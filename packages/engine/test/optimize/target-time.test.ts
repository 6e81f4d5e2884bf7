// The least-effort plan for a target time, against answers found without the optimizer: the
// constant power that reaches the same time and the best two-level plan (one power on the climbs,
// another elsewhere, each pair found by bisection on the public simulate()).
import { describe, expect, it } from 'vitest'
import {
  courseFromSegments,
  EngineInputError,
  optimizeResultToJson,
  parseOptimizeScenario,
  simulate,
  type Course,
} from '../../src/index.ts'
import { optimizeTargetTime } from '../../src/optimize/target-time.ts'
import { cpRider, cpRiderJson } from '../fixtures.ts'

const rider = { ...cpRider, maxPowerW: 700 }
const environment = { airDensityKgM3: 1.2 }

/** 12 km: flats, two 6 % climbs of 1 km and their descents. */
function hillyCourse(): Course {
  const parts: [number, number][] = [
    [2000, 0],
    [1000, 0.06],
    [1000, -0.06],
    [2000, 0.005],
    [1000, 0.06],
    [1000, -0.06],
    [4000, 0],
  ]
  const segments = parts.flatMap(([len, grade]) =>
    Array.from({ length: len / 20 }, () => ({ lengthM: 20, grade, headingDeg: 90 })),
  )
  return courseFromSegments(segments, 200)
}

const course = hillyCourse()
const ride = (powerW: ArrayLike<number>) =>
  simulate({ course, rider, environment, pacing: { type: 'plan', powerW } })

/** The power level of `shape(level)` whose ride takes `targetS` (bisection). */
function levelFor(shape: (level: number) => Float64Array, targetS: number): number {
  let lo = 50
  let hi = 700
  for (let k = 0; k < 50; k++) {
    const mid = (lo + hi) / 2
    if (ride(shape(mid)).timeS > targetS) lo = mid
    else hi = mid
  }
  return hi
}

const climbs = Array.from({ length: course.n }, (_, i) => course.grade[i]! > 0.02)
const twoLevel = (ratio: number) => (level: number) =>
  Float64Array.from(climbs, (up) => (up ? level * ratio : level))

describe('a target time', () => {
  const input = {
    course,
    rider,
    environment,
    pacing: { constraint: { type: 'w_prime_balance' as const } },
  }
  const fastest = optimizeTargetTime(input, 1).targetTime.fastestS

  for (const slower of [1.04, 1.12]) {
    it(`${slower}× the fastest time: within 0.5 %, less NP than constant power and than the best two-level plan`, () => {
      const targetS = fastest * slower
      const r = optimizeTargetTime(input, targetS)
      expect(r.status).toBe('optimal')
      expect(r.targetTime.reached).toBe(true)
      const plan = r.plan!
      // the plan as ridden through the public simulate()
      const sim = ride(plan.powerW)
      expect(Math.abs(sim.timeS - targetS) / targetS).toBeLessThan(0.005)
      expect(sim.minWPrimeBalanceJ!).toBeGreaterThanOrEqual(-1)
      const constant = levelFor((p) => new Float64Array(course.n).fill(p), sim.timeS)
      let bestTwoLevel = Infinity
      for (const ratio of [1.05, 1.1, 1.15, 1.2, 1.3, 1.4]) {
        const shape = twoLevel(ratio)
        const np = ride(shape(levelFor(shape, sim.timeS))).normalizedPowerW
        bestTwoLevel = Math.min(bestTwoLevel, np)
      }
      expect(sim.normalizedPowerW).toBeLessThan(constant)
      expect(sim.normalizedPowerW).toBeLessThanOrEqual(bestTwoLevel)
    })
  }

  it('faster than the fastest legal plan: not reachable, with that plan’s time', () => {
    const r = optimizeTargetTime(input, fastest * 0.9)
    expect(r.status).toBe('infeasible')
    expect(r.targetTime.reached).toBe(false)
    expect(r.reason).toMatch(/^not reachable: the fastest legal plan is \d+:\d\d:\d\d$/)
    // the fastest legal plan is the W′-balance plan: it spends W′ and not more
    const sim = ride(r.plan!.powerW)
    expect(sim.timeS).toBeCloseTo(fastest, 6)
    expect(sim.minWPrimeBalanceJ!).toBeGreaterThanOrEqual(0)
    expect(sim.minWPrimeBalanceJ!).toBeLessThan(0.05 * rider.wPrimeJ!)
  })

  it('needs CP and W′, and a time in range', () => {
    const noCp = { ...input, rider: { ...rider, cpW: undefined, wPrimeJ: undefined } }
    expect(() => optimizeTargetTime(noCp, 1800)).toThrow(EngineInputError)
    expect(() => optimizeTargetTime(input, -5)).toThrow(/constraint\.time_s.*-5/)
  })

  it('is read from a scenario and written to its result', () => {
    const scenario = (constraint: unknown, extra = {}) => ({
      course: { segments: [{ length_m: 5000, grade: 0.01, heading_deg: 0 }] },
      rider: { ...cpRiderJson, max_power_w: 700 },
      environment: { air_density_kg_m3: 1.2 },
      constraint,
      ...extra,
    })
    const p = parseOptimizeScenario(scenario({ type: 'target_time', time_s: 600 }))
    expect(p.targetTimeS).toBe(600)
    expect(p.input.pacing.constraint).toEqual({ type: 'w_prime_balance' })
    const json = optimizeResultToJson(optimizeTargetTime(p.input, 600), p.input.course, null)
    expect(json.target_time).toMatchObject({
      time_s: 600,
      reached: true,
      basis: 'normalized_power',
    })
    expect(Math.abs((json.plan_time_s as number) - 600)).toBeLessThan(3)
    expect(() => parseOptimizeScenario(scenario({ type: 'target_time', time_s: 0 }))).toThrow(
      /constraint\.time_s.*got 0/,
    )
    expect(() =>
      parseOptimizeScenario(
        scenario({ type: 'target_time', time_s: 600 }, { equipment: { groups: {} } }),
      ),
    ).toThrow(/target time plans one setup/)
  })
})
