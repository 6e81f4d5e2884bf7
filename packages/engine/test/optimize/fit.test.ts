// The optimizer's root searches on the W′ balance, checked by the public simulation. Fitting a plan
// to its constraint (exact.ts, fitToConstraint): the largest scale of the plan's power above CP
// that the rider's W′ allows, whether the bracket is grown from 1 or from an expected α (the
// equipment ranking's start). The best grade-proportional plan (structured.ts): for its slope, the
// largest feasible offset, whether each slope's search starts cold or from the last one's.
import { describe, expect, it } from 'vitest'
import { courseFromSegments, simulate, type Rider } from '../../src/index.ts'
import { prepareModel } from '../../src/sim/model.ts'
import { fitToConstraint, scaledPlan, type Judge } from '../../src/optimize/exact.ts'
import { buildControls, DEFAULT_CONTROL_OPTIONS } from '../../src/optimize/controls.ts'
import { bestGradeProportional } from '../../src/optimize/structured.ts'
import { forwardBuffers } from '../../src/optimize/problem.ts'
import { cpRider } from '../fixtures.ts'

const course = courseFromSegments(
  Array.from({ length: 300 }, (_, i) => ({
    lengthM: 25,
    grade: 0.04 * Math.sin(i / 30) + 0.01 * Math.sin(i / 6),
    headingDeg: 0,
  })),
)
const environment = { airDensityKgM3: 1.2 }
// a plan that spends W′ on the climbs: 20 % over CP where the grade is above 2 %, CP elsewhere
const plan = Float64Array.from({ length: course.n }, (_, i) =>
  course.grade[i]! > 0.02 ? 360 : 300,
)

function judgeOf(rider: Rider): Judge {
  return {
    model: prepareModel(course, rider, environment, {}),
    course,
    rider,
    options: {},
    constraint: { type: 'w_prime_balance' },
    v0: 0,
    buffers: forwardBuffers(course.n),
  }
}

/** The lowest W′ balance of the plan scaled by α, by the public simulation. */
function minBalance(j: Judge, alpha: number): number {
  const p = scaledPlan(j, plan, alpha, 0, 2000, new Float64Array(course.n))
  const sim = simulate({ course, rider: j.rider, environment, pacing: { type: 'plan', powerW: p } })
  return sim.minWPrimeBalanceJ!
}

describe('fitting a plan to the W′ balance', () => {
  // riders of 94 % to 103 % of the plan's CP (as an equipment option's power factor makes them)
  // and W′ from 8 to 30 kJ: the plan scaled down to a fraction of its effort above CP, or up
  for (const [factor, wPrimeJ] of [
    [0.94, 8000],
    [1, 8000],
    [1.03, 20000],
    [1, 30000],
  ] as const) {
    const rider: Rider = { ...cpRider, cpW: 300 * factor, wPrimeJ, maxPowerW: 900 }
    const j = judgeOf(rider)
    const fromOne = fitToConstraint(j, plan, 0, 2000, 2)!

    it(`${factor * 100} % CP, W′ ${wPrimeJ / 1000} kJ: the largest feasible α, from 1 or from any start`, () => {
      expect(fromOne).not.toBeNull()
      for (const start of [undefined, 0.05, 0.5, fromOne.alpha * 1.01, 1.9]) {
        const fit = fitToConstraint(j, plan, 0, 2000, 2, start)!
        // feasible by the simulation, and a step of the tolerance (10⁻⁵ of max(1, α)) more is not
        const tol = 1e-5 * Math.max(1, fit.alpha)
        expect(minBalance(j, fit.alpha)).toBeGreaterThanOrEqual(0)
        expect(minBalance(j, fit.alpha + 2 * tol)).toBeLessThan(0)
        expect(fit.verdict.feasible).toBe(true)
        expect(Math.abs(fit.alpha - fromOne.alpha)).toBeLessThan(2 * tol)
      }
    })

    it(`${factor * 100} % CP, W′ ${wPrimeJ / 1000} kJ: a start near the answer takes fewer simulations`, () => {
      const near = fitToConstraint(j, plan, 0, 2000, 2, fromOne.alpha * 1.001)!
      expect(near.simulations).toBeLessThanOrEqual(6)
      expect(near.simulations).toBeLessThanOrEqual(fromOne.simulations)
    })
  }
})

describe('the best grade-proportional plan P = a + b·grade', () => {
  const rider: Rider = { ...cpRider, wPrimeJ: 12000, maxPowerW: 900 }
  const j = judgeOf(rider)
  const controls = buildControls(course, j.model, DEFAULT_CONTROL_OPTIONS)
  const grade = new Float64Array(controls.count)
  for (let k = 0; k < controls.count; k++) {
    const [i0, i1] = [controls.first[k]!, controls.first[k + 1]!]
    grade[k] =
      (course.altitude[i1]! - course.altitude[i0]!) / (course.start[i1]! - course.start[i0]!)
  }
  const floor = new Float64Array(controls.count)
  const powerOf = (a: number, b: number) =>
    Array.from({ length: course.n }, (_, i) =>
      Math.min(900, Math.max(0, a + b * grade[controls.of[i]!]!)),
    )
  const ride = (a: number, b: number) =>
    simulate({ course, rider, environment, pacing: { type: 'plan', powerW: powerOf(a, b) } })

  it('its offset is the largest feasible one for its slope, from a cold start or a warm one', () => {
    const cold = bestGradeProportional(j, controls, grade, floor, 0, 900)!
    // the warm search starts at a constant power near b = 0's answer
    const warm = bestGradeProportional(j, controls, grade, floor, 0, 900, cold.a + 7)!
    for (const plan of [cold, warm]) {
      expect(plan.b).toBeGreaterThan(0)
      expect(ride(plan.a, plan.b).minWPrimeBalanceJ!).toBeGreaterThanOrEqual(0)
      expect(ride(plan.a + 2e-3, plan.b).minWPrimeBalanceJ!).toBeLessThan(0)
      expect(ride(plan.a, plan.b).timeS).toBeCloseTo(plan.timeS, 6)
    }
    expect(warm.b).toBe(cold.b)
    expect(Math.abs(warm.a - cold.a)).toBeLessThan(2e-3)
    expect(warm.simulations).toBeLessThan(cold.simulations)
  })
})
