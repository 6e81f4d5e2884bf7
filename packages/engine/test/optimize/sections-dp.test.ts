// The W′ DP over section ends and powers jointly (sections-dp.ts), against a plain
// exhaustive search: every split of a short course into sections of at least 200 m, every power of
// the grid on every section, each plan ridden by `simulate` itself (quasi-steady, as the DP's
// tables), the fastest that keeps W′ ≥ 0 wins.
import { describe, expect, it } from 'vitest'
import {
  courseFromSegments,
  prepareModel,
  simulate,
  type Course,
  type Rider,
} from '../../src/index.ts'
import type { Controls } from '../../src/optimize/controls.ts'
import { dpCut } from '../../src/optimize/sections-dp.ts'
import { cpRider } from '../fixtures.ts'

const rider: Rider = { ...cpRider, wPrimeJ: 4000, maxPowerW: 600 }
const environment = { airDensityKgM3: 1.2 }
const options = { kineticEnergy: false, cornering: false }

/** Run ends of every split of K controls of `len` m into sections of at least `min` m. */
function splits(K: number, len: number, min: number): number[][] {
  const need = Math.ceil(min / len - 1e-9)
  const out: number[][] = []
  const go = (at: number, ends: number[]) => {
    if (at === K) out.push([...ends])
    for (let e = at + need; e <= K; e++) go(e, [...ends, e])
  }
  go(0, [])
  return out
}

function ride(course: Course, power: Float64Array) {
  const sim = simulate({
    course,
    rider,
    environment,
    options,
    pacing: { type: 'plan', powerW: power },
  })
  return { timeS: sim.timeS, minW: sim.minWPrimeBalanceJ! }
}

describe('the joint cut: sections and powers under W′ by one DP', () => {
  // 16 controls of 50 m: a climb, a dip and a ramp
  const grades = [
    0.06, 0.08, 0.08, 0.07, 0.02, -0.04, -0.05, -0.02, 0.01, 0.05, 0.1, 0.1, 0.09, 0.03, 0, 0,
  ]
  const course = courseFromSegments(grades.map((grade) => ({ lengthM: 50, grade })))
  const K = course.n
  const qs = prepareModel(course, rider, environment, { ...options, kineticEnergy: false })
  const ke = prepareModel(course, rider, environment, options)
  const controls: Controls = {
    count: K,
    of: Int32Array.from({ length: K }, (_, i) => i),
    first: Int32Array.from({ length: K + 1 }, (_, i) => i),
  }
  const length = Float64Array.from({ length: K }, (_, i) => course.length[i]!)
  const grid = [220, 280, 300, 340, 400, 480]

  it('no split and choice of powers rides faster within W′ (plain exhaustive search over simulate)', () => {
    const r = dpCut({
      qs,
      ke,
      controls,
      length,
      floor: new Float64Array(K),
      powers: Float64Array.from(grid),
      cpW: rider.cpW!,
      wPrimeJ: rider.wPrimeJ!,
      minLength: 200,
      wLevels: 400,
    })!
    expect(r).not.toBeNull()
    // its plan, as ridden: sections ≥ 200 m, W′ ≥ 0, the DP's own time
    const plan = Float64Array.from({ length: K }, (_, k) => grid[r.level[k]!]!)
    const mine = ride(course, plan)
    expect(mine.minW).toBeGreaterThanOrEqual(-1e-6)
    expect(mine.timeS).toBeCloseTo(r.timeS, 6)
    let a = 0
    for (let k = 1; k <= K; k++) {
      if (k === K || r.section[k] !== r.section[k - 1]) {
        expect(50 * (k - a)).toBeGreaterThanOrEqual(200)
        a = k
      }
    }
    // the exhaustive search (here the DP's W′ grid, 10 J steps, does not cost it the optimum;
    // its plan is feasible, so it cannot beat the search either)
    let best = Infinity
    let tried = 0
    for (const ends of splits(K, 50, 200)) {
      const S = ends.length
      const pick = new Array<number>(S).fill(0)
      for (;;) {
        const p = new Float64Array(K)
        let q = 0
        for (let s = 0; s < S; s++) {
          for (; q < ends[s]!; q++) p[q] = grid[pick[s]!]!
        }
        const x = ride(course, p)
        tried++
        if (x.minW >= 0 && x.timeS < best) best = x.timeS
        let s = 0
        while (s < S && ++pick[s]! === grid.length) pick[s++] = 0
        if (s === S) break
      }
    }
    expect(tried).toBeGreaterThan(1000)
    expect(Math.abs(r.timeS - best)).toBeLessThan(1e-9)
    // the constraint binds (the fastest plan is not simply the hardest one)
    expect(mine.minW).toBeLessThan(100)
  })
})
