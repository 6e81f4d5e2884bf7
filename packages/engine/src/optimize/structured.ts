// Structured starts of the optimizer's multi-start (decision 0002): plain plans that a true optimum is
// never slower than. Here: the best grade-proportional plan P = a + b·grade (one power per control
// segment, from its mean grade), by a root search on a for each b of a grid, then a finer grid
// around the best b. Judged by the optimizer's quick forward pass on the coarse copy of the course
// (a third of the work); the winner is then made feasible on the fine course exactly like every
// other candidate.
import type { Controls } from './controls.ts'
import { prober, quickJudge, type Judge } from './exact.ts'
import { boundaryOf } from './root.ts'

/** Slopes b tried first (W per unit grade: 1000 W is +10 W per 1 % of grade). */
const SLOPES = [0, 1000, 2000, 3000, 4000]

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
 * are per control.
 */
export function bestGradeProportional(
  j: Judge,
  controls: Controls,
  grade: Float64Array,
  floor: Float64Array,
  lo: number,
  hi: number,
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
  const tryB = (b: number): number => {
    // more a, more power everywhere: the constraint's excess grows with a (a stall counts as
    // "not over": more power can only help it)
    const aLo = lo - Math.max(0, b * gMax)
    const aHi = hi - Math.min(0, b * gMin)
    const eHi = at(aHi, b).excess
    let a = aHi
    if (eHi > 0) {
      const eLo = at(aLo, b).excess
      if (eLo > 0) return Infinity
      a = boundaryOf((x) => at(x, b).excess, aLo, eLo, aHi, eHi, 1e-3)
    }
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
