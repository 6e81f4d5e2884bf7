// The SQP of the reduced W′ problem (sqp.ts) against answers found without it: on two- and
// three-target courses, a grid over the other targets' powers with the last target's largest
// feasible power found by bisection, every plan ridden by the simulation itself (`simulate`).
import { describe, expect, it } from 'vitest'
import { courseFromSegments, simulate, type Course, type Rider } from '../../src/index.ts'
import { prepareModel } from '../../src/sim/model.ts'
import { workspace } from '../../src/optimize/problem.ts'
import { sqpTargets } from '../../src/optimize/sqp.ts'
import { cpRider } from '../fixtures.ts'

const rider: Rider = { ...cpRider, maxPowerW: 900 }

/** Finish time and lowest W′ balance of the plan with target powers x (piece k rides x[of[k]]). */
function ride(course: Course, of: Int32Array, x: ArrayLike<number>) {
  const powerW = Float64Array.from(of, (t) => x[t]!)
  const sim = simulate({ course, rider, pacing: { type: 'plan', powerW } })
  return { timeS: sim.timeS, minW: sim.minWPrimeBalanceJ! }
}

/** The largest power of the last target that keeps W′ ≥ 0 with the others at `head` (bisection). */
function lastTarget(course: Course, of: Int32Array, head: number[]): number {
  let lo = 0
  let hi = 900
  for (let k = 0; k < 40; k++) {
    const mid = (lo + hi) / 2
    if (ride(course, of, [...head, mid]).minW >= 0) lo = mid
    else hi = mid
  }
  return lo
}

function solve(course: Course, of: Int32Array, T: number, x0: number[]) {
  const model = prepareModel(course, rider, {}, {})
  return sqpTargets(
    {
      model,
      v0: 0,
      of,
      T,
      spec: { type: 'w_prime_balance', cpW: rider.cpW!, wPrimeJ: rider.wPrimeJ! },
      lower: new Float64Array(T).fill(0),
      upper: new Float64Array(T).fill(900),
      segmentFloor: null,
      ws: workspace(model.n),
    },
    Float64Array.from(x0),
  )
}

describe('the reduced W′ problem by SQP', () => {
  it('two targets (flat, then a 6 % climb): the time of a grid with bisection, in tens of passes', () => {
    const legs: [number, number][] = [
      [3000, 0],
      [2000, 0.06],
    ]
    const segs = legs.flatMap(([m, grade]) =>
      Array.from({ length: m / 50 }, () => ({ lengthM: 50, grade })),
    )
    const course = courseFromSegments(segs)
    const of = Int32Array.from(segs, (s) => (s.grade > 0 ? 1 : 0))
    let best = { timeS: Infinity, x: [0, 0] }
    for (let p0 = 250; p0 <= 320; p0 += 0.5) {
      const p1 = lastTarget(course, of, [p0])
      const r = ride(course, of, [p0, p1])
      if (r.timeS < best.timeS) best = { timeS: r.timeS, x: [p0, p1] }
    }
    const r = solve(course, of, 2, [300, 300])
    expect(r.ok).toBe(true)
    expect(r.evaluations).toBeLessThan(80)
    const got = ride(course, of, r.x)
    // on the balance's floor (the SQP's smoothing of the kink at CP is ±0.3 W), not above the grid
    expect(got.minW).toBeGreaterThan(-0.002 * rider.wPrimeJ!)
    expect(got.timeS).toBeLessThan(best.timeS + 0.05)
    expect(Math.abs(r.x[0]! - best.x[0]!)).toBeLessThan(2)
  })

  it('three targets (climb, descent, climb): the grid over the first two, to 0.1 s', () => {
    const legs: [number, number][] = [
      [1500, 0.05],
      [1500, -0.04],
      [1500, 0.07],
    ]
    const segs = legs.flatMap(([m, grade], leg) =>
      Array.from({ length: m / 50 }, () => ({ lengthM: 50, grade, leg })),
    )
    const course = courseFromSegments(segs.map(({ lengthM, grade }) => ({ lengthM, grade })))
    const of = Int32Array.from(segs, (s) => s.leg)
    let best = { timeS: Infinity, x: [0, 0, 0] }
    for (let p0 = 300; p0 <= 380; p0 += 4) {
      for (let p1 = 0; p1 <= 200; p1 += 20) {
        const p2 = lastTarget(course, of, [p0, p1])
        const r = ride(course, of, [p0, p1, p2])
        if (r.timeS < best.timeS) best = { timeS: r.timeS, x: [p0, p1, p2] }
      }
    }
    const r = solve(course, of, 3, [300, 300, 300])
    expect(r.ok).toBe(true)
    const got = ride(course, of, r.x)
    expect(got.minW).toBeGreaterThan(-0.002 * rider.wPrimeJ!)
    expect(got.timeS).toBeLessThan(best.timeS + 0.1)
  })
})
