// The reduced problems of the rideable plan (decision 0002): its defaults and budgets, the setup the
// reduced optimizations share with the optimizer, and the exact best powers of a fixed structure
// of targets (split from rideable.ts).
import type { Course } from '../course/types.ts'
import type { SimModel } from '../sim/model.ts'
import type { CoarseCourse } from './coarse.ts'
import type { Controls } from './controls.ts'
import { fitToConstraint, scaledPlan, type Judge, type Verdict } from './exact.ts'
import { controlPowers, makePolishSetup, polish } from './polish.ts'
import { sqpTargets } from './sqp.ts'
import { type AugmentedState, type ConstraintSpec, type Workspace, workspace } from './problem.ts'

/** Defaults of the rideable plan (docs/engine/pacing.md). */
export const DEFAULT_MAX_TARGETS = 12
export const MAX_TARGETS_LIMIT = 20
export const DEFAULT_MIN_SECTION_M = 200

/** Everything the reduced optimizations share with the optimizer that calls them. */
export interface ReducedSetup {
  j: Judge
  course: Course
  /** the fine model (as judged) */
  model: SimModel
  controls: Controls
  /** the coarse copy the polish runs on, and its prepared model (kinetic energy on) */
  coarse: CoarseCourse
  im: SimModel
  /** the coarse model without kinetic energy (the W′ DP's quasi-steady times) */
  qs: SimModel | null
  ws: Workspace
  /** stall floor of each control (W) */
  floorC: Float64Array
  lo: number
  hi: number
  spec: ConstraintSpec
  v0: number
  timeScale: number
  pRef: number
  /**
   * the augmented-Lagrangian state to start from: the optimum's final multiplier, penalty and
   * sharpness, so the reduced problems (the same constraint, a few variables) converge in a round
   * or two
   */
  al: AugmentedState
  tol: number
}

/**
 * Work of one reduced polish: augmented-Lagrangian rounds × inner L-BFGS iterations. The reduced
 * problem's sharp W′ aggregate converges slowly: measured on the real courses
 * (docs/engine/pacing.md's rider), 5 × 60 leaves the sections' and the levels' powers 0.3–0.9 s short (Alpe d'Huez's
 * section plans 3395.8–3396.3 s against 3395.4–3396.0 s with 8 × 200); 15 × 300 gains nothing more.
 * The polish stops earlier when it has converged.
 */
export const REDUCED_BUDGET = { rounds: 8, inner: 200 }

/**
 * Rounds a polish of a plan's target powers (at most MAX_TARGETS_LIMIT variables; not on very
 * long courses, whose one level polish must stay within the budget) runs at least:
 * one at the W′ aggregate's full sharpness after the round that made it feasible. Two rounds end
 * feasible but 0.1–1 s short of the structure's best powers (a second polish from where the first
 * stopped still gains that much); the third costs a few tens of gradients on these few variables.
 */
export const LEVEL_MIN_ROUNDS = 3

/** Work of the last polish of the chosen plan's powers, on the fine course. */
export const FINE_BUDGET = { rounds: 4, inner: 50 }

/** The same on very long courses (> LONG_COARSE pieces), where the second must hold. */
export const LONG_BUDGET = { rounds: 5, inner: 60 }

/** A coarse copy longer than this is a very long course (the 180 km bench course has 6 000). */
export const LONG_COARSE = 3000

/** Most sections whose optimum is polished with inertia before the levels are read from it. */
export const SECTION_POLISH_MAX = 300

/**
 * How many cuts' section optima are polished with inertia: those whose DP (quasi-steady, judged on
 * the fine course) is fastest. Each polish costs 300–500 gradients; the DP's ranking put the
 * cut whose polished optimum was fastest among its first two on 9 of the twelve bench cases'
 * fine grids, and the plans of the other three were within 0.6 s (decision 0002).
 */
export const SECTION_POLISHES = 2

/** A plan of T targets: the target of each control, its powers, and the plan made feasible. */
export interface TargetPlan {
  /** target of each control segment */
  targetOf: Int32Array
  count: number
  /** the feasible plan, per fine segment (W) */
  powerW: Float64Array
  verdict: Verdict
  simulations: number
  gradients: number
  /** the augmented-Lagrangian state where the polish ended (prices the constraint) */
  al: AugmentedState
}

/**
 * The exact best powers of a fixed structure: under W′ with at most MAX_TARGETS_LIMIT targets the
 * SQP of sqp.ts (the polish where it cannot take a first step, and on a very long course's coarse
 * copy), otherwise the polish, over T variables (one per target) from each of `starts` (one
 * power per target each: the reduced problem can have several local minima,
 * e.g. hard climbs and coasted descents against steadier climbs), on the coarse copy or, with
 * `fine`, on the fine course itself, then the repair to exact feasibility on the fine course. The starts themselves are also repaired; the fastest plan is
 * returned (null: none is feasible).
 */
export function optimizeTargets(
  s: ReducedSetup,
  targetOf: Int32Array,
  starts: Float64Array[],
  budget: { rounds: number; inner: number } = s.im.n > LONG_COARSE ? LONG_BUDGET : REDUCED_BUDGET,
  fine = false,
): TargetPlan | null {
  const T = starts[0]!.length
  const { controls, j, lo, hi } = s
  const m = fine ? s.model : s.im
  const pieceControl = fine ? s.controls.of : s.coarse.controls.of
  const ws = fine ? workspace(m.n) : s.ws
  // the step's Newton solves start afresh, not from the speeds of the problem solved before: the
  // answer is then a function of this problem alone, whichever candidates were solved before it
  ws.b.u.fill(0)
  const of = new Int32Array(m.n)
  for (let i = 0; i < m.n; i++) of[i] = targetOf[pieceControl[i]!]!
  // each piece keeps its control's stall floor under the target's power; a target's own bound is
  // its lowest floor (a target spans gentle and steep controls)
  const segmentFloor = new Float64Array(m.n)
  for (let i = 0; i < m.n; i++) segmentFloor[i] = s.floorC[pieceControl[i]!]!
  const floor = new Float64Array(T).fill(Infinity)
  for (let k = 0; k < controls.count; k++) {
    const t = targetOf[k]!
    floor[t] = Math.min(floor[t]!, s.floorC[k]!)
  }
  const candidates: Float64Array[] = []
  const states: AugmentedState[] = []
  let gradients = 0
  for (const start of starts) {
    // under W′, a few targets: the SQP (sqp.ts), tens of passes where the polish takes hundreds.
    // Not on a very long course's coarse copy, which has no polish on the fine course after it:
    // the SQP meets W′ ≥ 0 exactly on the coarse copy, and the fine course then needs a deep repair
    // (180 km bench course: the plan scaled by 0.90 and 12.6 s slower, where the polish's
    // conservative aggregate needs 0.97)
    if (
      s.spec.type === 'w_prime_balance' &&
      T <= MAX_TARGETS_LIMIT &&
      (fine || m.n <= LONG_COARSE)
    ) {
      const r = sqpTargets(
        {
          model: m,
          v0: s.v0,
          of,
          T,
          spec: s.spec,
          lower: floor,
          upper: new Float64Array(T).fill(hi),
          segmentFloor,
          ws,
        },
        start,
      )
      if (r.ok) {
        gradients += r.evaluations
        candidates.push(r.x)
        states.push(s.al)
        continue
      }
    }
    const { setup, u0 } = makePolishSetup({
      model: m,
      v0: s.v0,
      of,
      K: T,
      spec: s.spec,
      timeScale: s.timeScale,
      x0: start,
      floor,
      hi,
      pRef: s.pRef,
      ws,
      segmentFloor,
    })
    // the optimum's multiplier, a fresh penalty (the start may be far from feasible) and the
    // W′ aggregate already fairly sharp (few variables: no need to start smooth)
    const W = s.spec.type === 'w_prime_balance'
    const al: AugmentedState = { lambda: s.al.lambda, mu: 100, ks: W ? 900 : 0 }
    const minRounds = T <= MAX_TARGETS_LIMIT && s.im.n <= LONG_COARSE ? LEVEL_MIN_ROUNDS : 0
    const r = polish(setup, u0, al, budget.rounds, budget.inner, s.tol, minRounds)
    gradients += r.evaluations
    candidates.push(controlPowers(setup, r.u))
    states.push(al)
  }
  const n = s.course.n
  let best: TargetPlan | null = null
  let simulations = 0
  const repair = (powers: Float64Array, al: AugmentedState): TargetPlan | null => {
    const fine = new Float64Array(n)
    for (let i = 0; i < n; i++) fine[i] = powers[targetOf[controls.of[i]!]!]!
    const fit = fitToConstraint(j, fine, lo, hi, 2)
    if (!fit) return null
    simulations += fit.simulations
    if (!fit.verdict.sim) return null
    return {
      targetOf,
      count: T,
      powerW: scaledPlan(j, fine, fit.alpha, lo, hi, new Float64Array(n)),
      verdict: fit.verdict,
      simulations: 0,
      gradients: 0,
      al,
    }
  }
  // the starts are repaired only when no polished plan can be (e.g. every trial stalled)
  for (const list of [candidates, starts]) {
    for (let q = 0; q < list.length; q++) {
      const r = repair(list[q]!, states[q] ?? s.al)
      if (r && (!best || r.verdict.sim!.timeS < best.verdict.sim!.timeS)) best = r
    }
    if (best) break
  }
  if (best) {
    best.simulations = simulations
    best.gradients = gradients
  }
  return best
}

/** The power of each target in a plan (its lowest segment power: stall floors only raise). */
export function targetPowers(r: TargetPlan, controls: Controls): Float64Array {
  const out = new Float64Array(r.count).fill(Infinity)
  for (let i = 0; i < r.powerW.length; i++) {
    const t = r.targetOf[controls.of[i]!]!
    if (r.powerW[i]! < out[t]!) out[t] = r.powerW[i]!
  }
  return out
}

/** Time-unweighted mean power of each target over its fine segments (a start for the polish). */
export function targetMeansOf(
  targetOf: Int32Array,
  T: number,
  fine: Float64Array,
  controls: Controls,
): Float64Array {
  const sum = new Float64Array(T)
  const count = new Float64Array(T)
  for (let i = 0; i < fine.length; i++) {
    const t = targetOf[controls.of[i]!]!
    sum[t] = sum[t]! + fine[i]!
    count[t] = count[t]! + 1
  }
  for (let t = 0; t < T; t++) sum[t] = count[t]! > 0 ? sum[t]! / count[t]! : 0
  return sum
}
