// The fast pacing optimizer against independent truth: the dense DP reference (its own physics
// and solver), invariants (feasible by construction, never slower than the best constant power,
// reported time = simulate() of the returned plan), and a wall that cannot be climbed.
import { describe, expect, it } from 'vitest'
import { courseFromSegments, simulate, type Rider } from '../../src/index.ts'
import {
  optimizeWithoutPositions as optimizePacing,
  type PacingInput,
} from '../../src/optimize/pacing.ts'
import { referenceOptimize, type ReferenceConstraint } from '../../src/optimize/reference.ts'
import { randomCourse } from '../random.ts'
import { cpRider, referenceRider } from '../fixtures.ts'

const rider: Rider = { ...cpRider, maxPowerW: 600 }

/** A short rolling course, straight and calm: the reference's model applies exactly. */
function rolling(n: number, len: number, grades: number[]) {
  return courseFromSegments(
    Array.from({ length: n }, (_, i) => ({ lengthM: len, grade: grades[i % grades.length]! })),
  )
}

const GRADES_A = [0, 0.02, 0.05, 0.07, 0.04, 0.01, -0.02, -0.05, -0.03, 0, 0.03, 0.06]
const GRADES_B = [0.08, 0.03, -0.06, -0.01, 0.05, 0.1, 0.02, -0.08, 0, 0.04]

function referenceFor(
  course: ReturnType<typeof rolling>,
  c: ReferenceConstraint,
  minPowerW: number,
) {
  const n = course.n
  const length = new Float64Array(n)
  for (let i = 0; i < n; i++) length[i] = course.length[i]! * Math.sqrt(1 + course.grade[i]! ** 2)
  return referenceOptimize(
    {
      length,
      grade: course.grade,
      headwind: new Float64Array(n),
      rho: new Float64Array(n).fill(1.2),
    },
    { ...referenceRider, minPowerW },
    c,
    { levels: 400, powerStep: 2 },
  )!
}

function quasiSteady(
  course: ReturnType<typeof rolling>,
  constraint: PacingInput['pacing']['constraint'],
) {
  return optimizePacing({
    course,
    rider,
    environment: { airDensityKgM3: 1.2 },
    options: { kineticEnergy: false, cornering: false },
    pacing: { constraint, minPowerW: 100, controls: { grouping: 'every' } },
  })
}

describe('fast optimizer vs the dense DP reference (quasi-steady model, short courses)', () => {
  const cases: [string, ReturnType<typeof rolling>][] = [
    ['course A: 24 × 250 m', rolling(24, 250, GRADES_A)],
    ['course B: 30 × 200 m', rolling(30, 200, GRADES_B)],
  ]
  for (const [name, course] of cases) {
    it(`${name}, W′ balance ≥ 0: within 0.1 % of the reference finish time`, () => {
      const fast = quasiSteady(course, { type: 'w_prime_balance' })
      const ref = referenceFor(course, { type: 'w_prime_balance' }, 100)
      expect(fast.status).toBe('optimal')
      expect(Math.abs(fast.timeS - ref.timeS) / ref.timeS).toBeLessThan(0.001)
    })
    it(`${name}, mean power ≤ 260 W: within 0.1 % of the reference finish time`, () => {
      const fast = quasiSteady(course, { type: 'average_power', powerW: 260 })
      const ref = referenceFor(course, { type: 'average_power', powerW: 260 }, 100)
      expect(Math.abs(fast.timeS - ref.timeS) / ref.timeS).toBeLessThan(0.001)
    })
    it(`${name}, work ≤ 400 kJ: within 0.1 % of the reference finish time`, () => {
      const fast = quasiSteady(course, { type: 'work', workJ: 400000 })
      const ref = referenceFor(course, { type: 'work', workJ: 400000 }, 100)
      expect(Math.abs(fast.timeS - ref.timeS) / ref.timeS).toBeLessThan(0.001)
    })
  }
})

describe('invariants of the optimized ride (dynamic model: kinetic energy, corners, wind)', () => {
  const constraints: PacingInput['pacing']['constraint'][] = [
    { type: 'w_prime_balance' },
    { type: 'normalized_power', powerW: 270 },
    { type: 'average_power', powerW: 260 },
    { type: 'work', workJ: 500000 },
  ]
  for (const seed of [11, 12]) {
    for (const constraint of constraints) {
      it(`seed ${seed}, ${constraint.type}: feasible, never slower than the best constant power, time = simulate()`, () => {
        const course = randomCourse(seed, 150)
        const environment = {
          airDensityKgM3: 1.18,
          windSpeedMps: 3,
          windFromDeg: (40 * seed) % 360,
        }
        const input: PacingInput = {
          course,
          rider,
          environment,
          options: { startSpeedMps: 5 },
          pacing: { constraint, minPowerW: 50 },
        }
        const r = optimizePacing(input)
        expect(r.status).toBe('optimal')
        expect(r.baseline).not.toBeNull()
        expect(r.timeS).toBeLessThanOrEqual(r.baseline!.timeS)
        expect(r.timeSavedS).toBeGreaterThanOrEqual(0)
        // the public simulate() of a plan on the same course, rider, air and start
        const ride = (powerW: ArrayLike<number>) =>
          simulate({ ...input, pacing: { type: 'plan', powerW } })
        // the public simulate() on the returned plan gives exactly the reported ride
        const sim = ride(r.powerW)
        expect(sim.timeS).toBe(r.timeS)
        const c = constraint
        if (c.type === 'w_prime_balance') expect(sim.minWPrimeBalanceJ!).toBeGreaterThanOrEqual(0)
        if (c.type === 'normalized_power')
          expect(sim.normalizedPowerW).toBeLessThanOrEqual(c.powerW)
        if (c.type === 'average_power') expect(sim.averagePowerW).toBeLessThanOrEqual(c.powerW)
        if (c.type === 'work') expect(sim.workJ).toBeLessThanOrEqual(c.workJ)
        for (const p of r.powerW) {
          expect(p).toBeGreaterThanOrEqual(50)
          expect(p).toBeLessThanOrEqual(rider.maxPowerW!)
        }
        // the rideable plan: at most 12 targets (the default) over labelled sections covering the
        // course, feasible, never slower than the best constant power, never faster than the
        // bound, and its reported time is its own simulated time
        const plan = r.plan!
        expect(plan.targets.length).toBeLessThanOrEqual(12)
        expect(plan.timeS).toBeLessThanOrEqual(r.baseline!.timeS)
        expect(plan.timeS).toBeGreaterThanOrEqual(r.timeS)
        expect(plan.sections[0]!.startM).toBe(0)
        expect(plan.sections[plan.sections.length - 1]!.endM).toBeCloseTo(
          course.start[course.n]!,
          6,
        )
        const planSim = ride(plan.powerW)
        expect(planSim.timeS).toBe(plan.timeS)
        if (c.type === 'w_prime_balance')
          expect(planSim.minWPrimeBalanceJ!).toBeGreaterThanOrEqual(0)
      })
    }
  }

  it('with the Skiba 2012 W′ model: feasible under that model (the repair judges with it)', () => {
    const course = randomCourse(21, 150)
    const options = { wPrimeModel: 'skiba2012' as const }
    const environment = { airDensityKgM3: 1.2 }
    const r = optimizePacing({
      course,
      rider,
      environment,
      options,
      pacing: { constraint: { type: 'w_prime_balance' } },
    })
    expect(r.status).toBe('optimal')
    const sim = simulate({
      course,
      rider,
      environment,
      options,
      pacing: { type: 'plan', powerW: r.powerW },
    })
    expect(sim.minWPrimeBalanceJ!).toBeGreaterThanOrEqual(0)
    expect(sim.timeS).toBe(r.timeS)
    expect(r.timeS).toBeLessThanOrEqual(r.baseline!.timeS)
  })

  it('is deterministic: the same input gives the same plan, bit for bit', () => {
    const input: PacingInput = {
      course: randomCourse(13, 120),
      rider,
      environment: { airDensityKgM3: 1.2 },
      pacing: { constraint: { type: 'w_prime_balance' } },
    }
    const a = optimizePacing(input)
    const b = optimizePacing(input)
    expect(Array.from(a.powerW)).toEqual(Array.from(b.powerW))
    expect(a.timeS).toBe(b.timeS)
  })

  it('reports a wall that cannot be climbed within W′ as infeasible, with the reason', () => {
    // 1 km at 20 %: even at the 1 m/s minimum speed the climb needs ≈ 170 W for 1000 s, far
    // more above CP 120 W than W′ 10 kJ allows.
    const course = courseFromSegments([
      { lengthM: 500, grade: 0 },
      ...Array.from({ length: 100 }, () => ({ lengthM: 10, grade: 0.2 })),
      { lengthM: 500, grade: 0 },
    ])
    const r = optimizePacing({
      course,
      rider: { ...rider, cpW: 120, wPrimeJ: 10000, maxPowerW: 400 },
      environment: { airDensityKgM3: 1.2 },
      pacing: { constraint: { type: 'w_prime_balance' } },
    })
    expect(r.status).toBe('infeasible')
    expect(r.reason).toMatch(/W′|cannot keep moving/)
    expect(r.simulation).toBeNull()
  })

  it('rejects bad settings with a message naming the field', () => {
    const base: PacingInput = {
      course: randomCourse(1, 20),
      rider,
      environment: { airDensityKgM3: 1.2 },
      pacing: { constraint: { type: 'average_power', powerW: 250 } },
    }
    expect(() =>
      optimizePacing({ ...base, pacing: { constraint: { type: 'speed' } as never } }),
    ).toThrow(/constraint.type: expected one of/)
    expect(() =>
      optimizePacing({ ...base, pacing: { constraint: { type: 'average_power', powerW: -3 } } }),
    ).toThrow(/constraint.power_w: expected a number > 0/)
    expect(() =>
      optimizePacing({
        ...base,
        rider: { ...rider, cpW: undefined },
        pacing: { constraint: { type: 'w_prime_balance' } },
      }),
    ).toThrow(/rider.cp_w/)
  })
})
