// Structured starts of the optimizer's multi-start (decision 0002): plain plans that a true optimum is
// never slower than. Here: the best grade-proportional plan P = a + b·grade (one power per control
// segment, from its mean grade), by a root search on a for each b of a grid, then a finer grid
// around the best b. Judged by the optimizer's quick forward pass on the coarse copy of the course
// (a third of the work); the winner is then made feasible on the fine course exactly like every
// other candidate.
import type { Controls } from './controls.ts'
import { prober, quickJudge, type Judge } from './exact.ts'
import { boundaryOf, grow, steps } from './root.ts'

/** Slopes b tried first (W per unit grade: 1000 W is +10 W per 1 % of grade). */
const SLOPES = [0, 1000, 2000, 3000, 4000]
/** The first step (W) of a bracket grown from the last slope's root. */
const WARM_STEP_W = 2

export interface GradePlan {
  /** power per control (W) */
  power: Float64Array
  timeS: number
  a: number
  b: number
  simulations: number
}

/**
 * `j` judges on the course whose segments `controls` groups (the coarse copy); `grade` and `floor`
 * are per control. `constantW`: the best constant power, where the search for b = 0 begins.
 */
export function bestGradeProportional(
  j: Judge,
  controls: Controls,
  grade: Float64Array,
  floor: Float64Array,
  lo: number,
  hi: number,
  constantW?: number,
): GradePlan | null {
  const K = controls.count
  const n = j.model.n
  const probe = prober(j)
  const fine = new Float64Array(n)
  const power = new Float64Array(K)
  let simulations = 0
  let gMin = Infinity
  let gMax = -Infinity
  for (let k = 0; k < K; k++) {
    gMin = Math.min(gMin, grade[k]!)
    gMax = Math.max(gMax, grade[k]!)
  }
  const fill = (a: number, b: number) => {
    for (let k = 0; k < K; k++) {
      power[k] = Math.min(hi, Math.max(lo, floor[k]!, a + b * grade[k]!))
    }
    for (let i = 0; i < n; i++) fine[i] = power[controls.of[i]!]!
    return fine
  }
  const at = (a: number, b: number) => {
    simulations++
    return probe(fill(a, b))
  }
  let best: GradePlan | null = null
  // the last slope's a (at first the best constant power, b = 0's answer on the fine course): the
  // next slope's root is near it, so its bracket is grown from there
  let lastA: number | null = constantW ?? null
  const rootOf = (b: number, aLo: number, aHi: number): number | null => {
    const excess = (x: number) => at(x, b).excess
    if (lastA === null) {
      const eHi = excess(aHi)
      if (eHi <= 0) return aHi
      const eLo = excess(aLo)
      if (eLo > 0) return null
      return boundaryOf(excess, aLo, eLo, aHi, eHi, 1e-3)
    }
    const a0 = Math.min(aHi, Math.max(aLo, lastA))
    const br = grow(excess, a0, steps(a0, aHi, WARM_STEP_W), steps(a0, aLo, WARM_STEP_W))
    if (br.good < 0) return null
    if (br.bad < 0) return br.good
    return boundaryOf(excess, br.good, br.eGood, br.bad, br.eBad, 1e-3)
  }
  const tryB = (b: number): number => {
    // more a, more power everywhere: the constraint's excess grows with a (a stall counts as
    // "not over": more power can only help it)
    const aLo = lo - Math.max(0, b * gMax)
    const aHi = hi - Math.min(0, b * gMin)
    const a = rootOf(b, aLo, aHi)
    if (a === null) return Infinity
    lastA = a
    const v = at(a, b)
    if (!v.feasible) return Infinity
    simulations++
    const timeS = quickJudge(j, fill(a, b)).timeS
    if (!best || timeS < best.timeS) {
      best = { power: Float64Array.from(fill(a, b)), timeS, a, b, simulations: 0 }
    }
    return timeS
  }
  let bestB = 0
  let bestT = Infinity
  for (const b of SLOPES) {
    const t = tryB(b)
    if (t < bestT) {
      bestT = t
      bestB = b
    }
  }
  // finer steps around the best slope
  for (const step of [500, 250]) {
    const centre = bestB
    for (const b of [centre - step, centre + step]) {
      if (b < 0) continue
      const t = tryB(b)
      if (t < bestT) {
        bestT = t
        bestB = b
      }
    }
  }
  const found = best as GradePlan | null
  if (found) found.simulations = simulations
  return found
}
