// The rideable plan, optimized as such (issue 15): at most `maxTargets` target powers, each target
// applied to a group of sections (e.g. every climb, every descent), each section at least
// `minSectionM` long. The structure (which control segment rides which target) comes from the
// optimum over sections of that length and from the terrain; the target powers are then optimized
// exactly under the constraint by the same augmented-Lagrangian polish as the optimum, over the
// reduced vector of target powers, and the plan is repaired and timed by the simulation itself.
// The time and the time saved handed to the rider are this plan's; the per-segment optimum is
// only the bound (docs/decisions/0002).
import type { Course } from '../course/types.ts'
import type { SimModel } from '../sim/model.ts'
import type { SimulationResult } from '../sim/simulate.ts'
import type { CoarseCourse } from './coarse.ts'
import type { Controls } from './controls.ts'
import { fitToConstraint, scaledPlan, type Judge, type Verdict } from './exact.ts'
import { sectionLabel, type PlanSection, type PlanTarget, type SimplifiedPlan } from './plan.ts'
import { controlPowers, makePolishSetup, polish } from './polish.ts'
import { dpWprimeTwoPass } from './dp.ts'
import {
  augmentedObjective,
  type AugmentedState,
  type ConstraintSpec,
  type Workspace,
} from './problem.ts'

/** Defaults of the rideable plan (issue 15). */
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
 * Work of one reduced polish: augmented-Lagrangian rounds × inner L-BFGS iterations. Measured on
 * the real courses (issue 15): 2 × 40 keeps the plans within a few tenths of a second of 5 × 60
 * at a third of the gradients.
 */
export const REDUCED_BUDGET = { rounds: 5, inner: 60 }

/** Work of the last polish of the chosen plan's powers. */
export const FINAL_BUDGET = { rounds: 8, inner: 200 }

/** A coarse copy longer than this is a very long course (the 180 km bench course has 6 000). */
export const LONG_COARSE = 3000

/** Most sections whose optimum is polished with inertia before the levels are read from it. */
export const SECTION_POLISH_MAX = 300

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

/** Renumbers targets 0…T−1 in order of first use; returns T. */
export function compactTargets(targetOf: Int32Array): number {
  const map = new Map<number, number>()
  for (let k = 0; k < targetOf.length; k++) {
    const t = targetOf[k]!
    let m = map.get(t)
    if (m === undefined) {
      m = map.size
      map.set(t, m)
    }
    targetOf[k] = m
  }
  return map.size
}

/**
 * The exact best powers of a fixed structure: the polish over T variables (one per target) from
 * each of `starts` (one power per target each: the reduced problem can have several local minima,
 * e.g. hard climbs and coasted descents against steadier climbs), then the repair to exact
 * feasibility on the fine course. The starts themselves are also repaired; the fastest plan is
 * returned (null: none is feasible).
 */
export function optimizeTargets(
  s: ReducedSetup,
  targetOf: Int32Array,
  starts: Float64Array[],
  budget: { rounds: number; inner: number } = REDUCED_BUDGET,
): TargetPlan | null {
  const T = starts[0]!.length
  const { controls, j, lo, hi } = s
  const m = s.im
  const pieceControl = s.coarse.controls.of
  const ws = s.ws
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
    const r = polish(setup, u0, al, budget.rounds, budget.inner, s.tol)
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

/**
 * The W′ optimum over contiguous sections (one power each) by the two-pass DP of the optimizer
 * (dp.ts), run with the sections as its control segments; made feasible on the fine course.
 */
function sectionDp(s: ReducedSetup, sec: Int32Array, S: number): TargetPlan | null {
  if (s.spec.type !== 'w_prime_balance' || !s.qs) return null
  const ic = s.coarse.controls
  const of = new Int32Array(s.im.n)
  const first = new Int32Array(S + 1)
  let q = -1
  for (let i = 0; i < s.im.n; i++) {
    of[i] = sec[ic.of[i]!]!
    if (of[i] !== q) {
      q = of[i]!
      first[q] = i
    }
  }
  first[S] = s.im.n
  const sections: Controls = { count: S, of, first }
  const plans = dpWprimeTwoPass(
    s.qs,
    s.im,
    sections,
    s.spec.cpW,
    s.spec.wPrimeJ,
    s.lo,
    s.hi,
    [s.spec.cpW],
    s.v0,
  )
  let best: TargetPlan | null = null
  let simulations = 0
  const n = s.course.n
  for (const p of plans) {
    const fine = new Float64Array(n)
    for (let i = 0; i < n; i++) fine[i] = p.power[sec[s.controls.of[i]!]!]!
    const fit = fitToConstraint(s.j, fine, s.lo, s.hi, 2)
    if (!fit?.verdict.sim) continue
    simulations += fit.simulations
    if (!best || fit.verdict.sim.timeS < best.verdict.sim!.timeS) {
      best = {
        targetOf: sec,
        count: S,
        powerW: scaledPlan(s.j, fine, fit.alpha, s.lo, s.hi, new Float64Array(n)),
        verdict: fit.verdict,
        simulations: 0,
        gradients: 0,
        al: s.al,
      }
    }
  }
  if (best) best.simulations = simulations
  return best
}

/** The power of each target in a plan (its lowest segment power: stall floors only raise). */
function targetPowers(r: TargetPlan, controls: Controls): Float64Array {
  const out = new Float64Array(r.count).fill(Infinity)
  for (let i = 0; i < r.powerW.length; i++) {
    const t = r.targetOf[controls.of[i]!]!
    if (r.powerW[i]! < out[t]!) out[t] = r.powerW[i]!
  }
  return out
}

/**
 * ∂J/∂(power of each control) of the augmented objective at a plan (one power per control), on
 * the coarse model, with the constraint priced by `al`: one forward pass and one reverse sweep.
 * Returns the derivative for a power increase and for a decrease (they differ at CP, the kink of
 * the W′ model).
 */
function controlGradient(
  s: ReducedSetup,
  power: Float64Array,
  al: AugmentedState,
): { up: Float64Array; down: Float64Array } {
  const K = s.controls.count
  const split = s.spec.type === 'w_prime_balance'
  const cp = s.spec.type === 'w_prime_balance' ? s.spec.cpW : 0
  const x = new Float64Array(split ? 2 * K : K)
  for (let k = 0; k < K; k++) {
    if (split) {
      x[k] = Math.max(0, power[k]! - cp)
      x[K + k] = Math.max(0, cp - power[k]!)
    } else x[k] = power[k]!
  }
  const g = new Float64Array(x.length)
  const ic = s.coarse.controls
  const floor = new Float64Array(s.im.n)
  for (let i = 0; i < s.im.n; i++) floor[i] = s.floorC[ic.of[i]!]!
  augmentedObjective(
    s.im,
    s.v0,
    ic.of,
    K,
    s.spec,
    { ...al },
    s.timeScale,
    x,
    g,
    s.ws,
    split ? 0.01 * cp : 0,
    floor,
  )
  const up = new Float64Array(K)
  const down = new Float64Array(K)
  for (let k = 0; k < K; k++) {
    if (!split) {
      up[k] = g[k]!
      down[k] = g[k]!
    } else {
      up[k] = power[k]! >= cp ? g[k]! : -g[K + k]!
      down[k] = power[k]! > cp ? g[k]! : -g[K + k]!
    }
  }
  return { up, down }
}

/**
 * Boundary moves: the control at either end of each section may change to its neighbour's
 * target when the augmented objective's derivative says the plan gains by it (second-order
 * estimate, curvature of a ride's time in power ≈ t/P²) and both sections stay at least
 * `minLength` long; the target powers are then re-optimized and the plan re-timed, and the moves
 * are kept while the plan gets faster (at most `rounds` times).
 */
export function refineBoundaries(
  s: ReducedSetup,
  start: TargetPlan,
  length: Float64Array,
  minLength: number,
  rounds: number,
  maxMoves = Infinity,
): { plan: TargetPlan; simulations: number; gradients: number } {
  const { controls } = s
  const K = controls.count
  let plan = start
  let simulations = 0
  let gradients = 0
  for (let round = 0; round < rounds; round++) {
    const tp = targetPowers(plan, controls)
    const power = new Float64Array(K)
    const time = new Float64Array(K)
    const sim = plan.verdict.sim!
    for (let i = 0; i < s.course.n; i++) {
      time[controls.of[i]!] = time[controls.of[i]!]! + sim.segments.duration[i]!
    }
    for (let k = 0; k < K; k++) power[k] = tp[plan.targetOf[k]!]!
    const g = controlGradient(s, power, plan.al)
    gradients++
    const targetOf = Int32Array.from(plan.targetOf)
    // run lengths, kept current as controls move
    const runLen = new Float64Array(K)
    const runOf = new Int32Array(K)
    let run = -1
    for (let k = 0; k < K; k++) {
      if (k === 0 || targetOf[k] !== targetOf[k - 1]) run++
      runOf[k] = run
      runLen[run] = runLen[run]! + length[k]!
    }
    // the estimated gain of each boundary's better move; only the best few are made (the
    // estimates are local: many moves at once interact through W′, measured to lose)
    const cands: { k: number; left: boolean; gain: number }[] = []
    for (let k = 0; k + 1 < K; k++) {
      if (runOf[k] === runOf[k + 1]) continue
      const a = targetOf[k]!
      const b = targetOf[k + 1]!
      const gain = (q: number, to: number) => {
        const dP = tp[to]! - power[q]!
        const slope = dP > 0 ? g.up[q]! : g.down[q]!
        const curv = time[q]! / Math.max(1, power[q]! * power[q]!) / s.timeScale
        return slope * dP + 0.5 * curv * dP * dP
      }
      const ra = runOf[k]!
      const rb = runOf[k + 1]!
      const left = runLen[ra]! - length[k]! >= minLength - 1e-9 ? gain(k, b) : Infinity
      const right = runLen[rb]! - length[k + 1]! >= minLength - 1e-9 ? gain(k + 1, a) : Infinity
      if (Math.min(left, right) >= 0) continue
      cands.push({ k, left: left <= right, gain: Math.min(left, right) })
    }
    cands.sort((x, y) => x.gain - y.gain)
    const touched = new Uint8Array(K)
    let moves = 0
    for (const c of cands) {
      if (moves >= maxMoves) break
      const ra = runOf[c.k]!
      const rb = runOf[c.k + 1]!
      if (touched[ra] || touched[rb]) continue
      touched[ra] = 1
      touched[rb] = 1
      if (c.left) targetOf[c.k] = targetOf[c.k + 1]!
      else targetOf[c.k + 1] = targetOf[c.k]!
      moves++
    }
    if (moves === 0) break
    const next = optimizeTargets(s, targetOf, [tp], { rounds: 2, inner: 25 })
    if (!next) break
    simulations += next.simulations
    gradients += next.gradients
    if (next.verdict.sim!.timeS >= plan.verdict.sim!.timeS) break
    plan = next
  }
  return { plan, simulations, gradients }
}

/** Time-weighted moving mean of `power` over ±`half` controls. */
function movingMean(power: Float64Array, time: Float64Array, half: number): Float64Array {
  const K = power.length
  const out = new Float64Array(K)
  for (let k = 0; k < K; k++) {
    let e = 0
    let t = 0
    for (let q = Math.max(0, k - half); q <= Math.min(K - 1, k + half); q++) {
      e += power[q]! * time[q]!
      t += time[q]!
    }
    out[k] = t > 0 ? e / t : power[k]!
  }
  return out
}

/** Time-weighted mean of `power` over the controls of each target. */
function targetMeans(targetOf: Int32Array, T: number, power: Float64Array, time: Float64Array) {
  const e = new Float64Array(T)
  const t = new Float64Array(T)
  for (let k = 0; k < targetOf.length; k++) {
    e[targetOf[k]!] = e[targetOf[k]!]! + power[k]! * time[k]!
    t[targetOf[k]!] = t[targetOf[k]!]! + time[k]!
  }
  for (let q = 0; q < T; q++) e[q] = t[q]! > 0 ? e[q]! / t[q]! : 0
  return e
}

/**
 * Sections at least `minLength` long: the shortest run of one target shorter than that joins the
 * neighbouring run whose target power is closer to the run's own power (the per-segment optimum's),
 * until none is left. Rewrites targetOf in place.
 */
export function enforceMinLength(
  targetOf: Int32Array,
  level: Float64Array,
  power: Float64Array,
  time: Float64Array,
  length: Float64Array,
  minLength: number,
): void {
  type Run = { first: number; last: number; target: number; len: number; e: number; t: number }
  const runs: Run[] = []
  for (let k = 0; k < targetOf.length; k++) {
    const prev = runs[runs.length - 1]
    const tk = time[k]!
    if (prev && prev.target === targetOf[k]) {
      prev.last = k
      prev.len += length[k]!
      prev.e += power[k]! * tk
      prev.t += tk
    } else {
      runs.push({
        first: k,
        last: k,
        target: targetOf[k]!,
        len: length[k]!,
        e: power[k]! * tk,
        t: tk,
      })
    }
  }
  const join = (a: Run, b: Run) => {
    a.last = b.last
    a.len += b.len
    a.e += b.e
    a.t += b.t
  }
  while (runs.length > 1) {
    let g = -1
    for (let q = 0; q < runs.length; q++) {
      if (runs[q]!.len < minLength - 1e-9 && (g < 0 || runs[q]!.len < runs[g]!.len)) g = q
    }
    if (g < 0) break
    const r = runs[g]!
    const p = r.t > 0 ? r.e / r.t : 0
    const left = runs[g - 1]
    const right = runs[g + 1]
    const dl = left ? Math.abs(level[left.target]! - p) : Infinity
    const dr = right ? Math.abs(level[right.target]! - p) : Infinity
    const into = dl <= dr ? left! : right!
    r.target = into.target
    // the run takes its neighbour's target; equal neighbours become one run
    if (left && left.target === r.target) {
      join(left, r)
      runs.splice(g, 1)
      g--
    }
    const cur = runs[g]!
    const nxt = runs[g + 1]
    if (nxt && nxt.target === cur.target) {
      join(cur, nxt)
      runs.splice(g + 1, 1)
    }
  }
  for (const r of runs) for (let k = r.first; k <= r.last; k++) targetOf[k] = r.target
}

/**
 * Optimal 1-D clustering of the controls' powers into at most M levels, minimizing the
 * time-weighted squared deviation (dynamic programming over the sorted powers, rounded to 0.5 W).
 * Returns the level of each control.
 */
export function clusterLevels(power: Float64Array, time: Float64Array, M: number): Int32Array {
  const K = power.length
  const keyOf = new Float64Array(K)
  const byKey = new Map<number, number>()
  for (let k = 0; k < K; k++) {
    keyOf[k] = Math.round(power[k]! * 2) / 2
    byKey.set(keyOf[k]!, (byKey.get(keyOf[k]!) ?? 0) + Math.max(time[k]!, 1e-9))
  }
  const values = [...byKey.keys()].sort((a, b) => a - b)
  const U = values.length
  const L = Math.min(M, U)
  // prefix sums of weight, weight·x, weight·x²
  const w = new Float64Array(U + 1)
  const wx = new Float64Array(U + 1)
  const wxx = new Float64Array(U + 1)
  for (let u = 0; u < U; u++) {
    const x = values[u]!
    const wt = byKey.get(x)!
    w[u + 1] = w[u]! + wt
    wx[u + 1] = wx[u]! + wt * x
    wxx[u + 1] = wxx[u]! + wt * x * x
  }
  const cost = (a: number, b: number) => {
    // values a…b−1
    const W = w[b]! - w[a]!
    const S = wx[b]! - wx[a]!
    return Math.max(0, wxx[b]! - wxx[a]! - (S * S) / W)
  }
  // D[l][b]: best cost of the first b values in l clusters
  const D = new Float64Array((L + 1) * (U + 1)).fill(Infinity)
  const arg = new Int32Array((L + 1) * (U + 1))
  D[0] = 0
  for (let l = 1; l <= L; l++) {
    for (let b = l; b <= U; b++) {
      let m = Infinity
      let am = l - 1
      for (let a = l - 1; a < b; a++) {
        const c = D[(l - 1) * (U + 1) + a]! + cost(a, b)
        if (c < m) {
          m = c
          am = a
        }
      }
      D[l * (U + 1) + b] = m
      arg[l * (U + 1) + b] = am
    }
  }
  const clusterOfValue = new Int32Array(U)
  let b = U
  for (let l = L; l >= 1; l--) {
    const a = arg[l * (U + 1) + b]!
    for (let u = a; u < b; u++) clusterOfValue[u] = l - 1
    b = a
  }
  const index = new Map<number, number>()
  values.forEach((v, u) => index.set(v, clusterOfValue[u]!))
  const out = new Int32Array(K)
  for (let k = 0; k < K; k++) out[k] = index.get(keyOf[k]!)!
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

/**
 * Sections of at least `minLength` over the controls, each riding one of the given levels, that
 * deviate least from the per-segment optimum (Σ time·(power − level)²): dynamic programming over
 * the section ends. A section of 2·minLength + the longest control or more can always be cut in
 * two at the same level and the same cost, so only shorter last sections are searched.
 */
export function segmentLevels(
  power: Float64Array,
  time: Float64Array,
  length: Float64Array,
  levels: Float64Array,
  minLength: number,
): Int32Array {
  const K = power.length
  const s0 = new Float64Array(K + 1)
  const s1 = new Float64Array(K + 1)
  const s2 = new Float64Array(K + 1)
  const at = new Float64Array(K + 1)
  let longest = 0
  for (let k = 0; k < K; k++) {
    const w = Math.max(time[k]!, 1e-9)
    s0[k + 1] = s0[k]! + w
    s1[k + 1] = s1[k]! + w * power[k]!
    s2[k + 1] = s2[k]! + w * power[k]! * power[k]!
    at[k + 1] = at[k]! + length[k]!
    longest = Math.max(longest, length[k]!)
  }
  const window = 2 * minLength + longest
  const f = new Float64Array(K + 1).fill(Infinity)
  const from = new Int32Array(K + 1)
  const lev = new Int32Array(K + 1)
  f[0] = 0
  const L = levels.length
  for (let k = 1; k <= K; k++) {
    for (let j = k - 1; j >= 0; j--) {
      const len = at[k]! - at[j]!
      if (len > window && f[k]! < Infinity) break
      // too short, unless it is the whole course (shorter than one section)
      if (len < minLength - 1e-9 && !(j === 0 && k === K)) continue
      if (f[j] === Infinity) continue
      const w0 = s0[k]! - s0[j]!
      const w1 = s1[k]! - s1[j]!
      const w2 = s2[k]! - s2[j]!
      for (let l = 0; l < L; l++) {
        const q = levels[l]!
        const c = f[j]! + w2 - 2 * q * w1 + q * q * w0
        if (c < f[k]!) {
          f[k] = c
          from[k] = j
          lev[k] = l
        }
      }
    }
  }
  const out = new Int32Array(K)
  if (f[K] === Infinity) return out
  for (let k = K; k > 0; k = from[k]!) out.fill(lev[k]!, from[k]!, k)
  return out
}

/**
 * The shortest sections (at least `minLength`) that follow the optimum's power: dynamic
 * programming over the section ends, minimizing Σ time·(power − section mean)² with every
 * section its own level. A section of 2·minLength + the longest control or more can be cut in two
 * without more cost, so only shorter sections are searched.
 */
export function freeSections(
  power: Float64Array,
  time: Float64Array,
  length: Float64Array,
  minLength: number,
): Int32Array {
  const K = power.length
  const s0 = new Float64Array(K + 1)
  const s1 = new Float64Array(K + 1)
  const s2 = new Float64Array(K + 1)
  const at = new Float64Array(K + 1)
  let longest = 0
  for (let k = 0; k < K; k++) {
    const w = Math.max(time[k]!, 1e-9)
    s0[k + 1] = s0[k]! + w
    s1[k + 1] = s1[k]! + w * power[k]!
    s2[k + 1] = s2[k]! + w * power[k]! * power[k]!
    at[k + 1] = at[k]! + length[k]!
    longest = Math.max(longest, length[k]!)
  }
  const window = 2 * minLength + longest
  const f = new Float64Array(K + 1).fill(Infinity)
  const from = new Int32Array(K + 1)
  f[0] = 0
  for (let k = 1; k <= K; k++) {
    for (let j = k - 1; j >= 0; j--) {
      const len = at[k]! - at[j]!
      if (len > window && f[k]! < Infinity) break
      if (len < minLength - 1e-9 && !(j === 0 && k === K)) continue
      if (f[j] === Infinity) continue
      const w1 = s1[k]! - s1[j]!
      const c = f[j]! + s2[k]! - s2[j]! - (w1 * w1) / (s0[k]! - s0[j]!)
      if (c < f[k]!) {
        f[k] = c
        from[k] = j
      }
    }
  }
  const out = new Int32Array(K)
  if (f[K] === Infinity) return out
  const ends: number[] = []
  for (let k = K; k > 0; k = from[k]!) ends.push(k)
  ends.reverse()
  // long flat stretches are cut into sections of about minLength, so the sections' own optimum
  // has as much freedom as the rider can follow
  let q = 0
  let startK = 0
  for (const e of ends) {
    let a = startK
    for (let k = startK; k < e; k++) {
      const done = at[k + 1]! - at[a]!
      const rest = at[e]! - at[k + 1]!
      if (done >= 2 * minLength - 1e-9 && rest >= minLength - 1e-9) {
        out.fill(q++, a, k + 1)
        a = k + 1
      }
    }
    out.fill(q++, a, e)
    startK = e
  }
  return out
}

/**
 * Levels and sections together: from the optimal clustering of the powers into M levels, the
 * best sections for the levels (`segmentLevels`) and the levels for the sections (time-weighted
 * means), alternately, until the sections no longer change (at most 10 rounds).
 */
export function levelSections(
  power: Float64Array,
  time: Float64Array,
  length: Float64Array,
  M: number,
  minLength: number,
): Int32Array {
  let targetOf = clusterLevels(power, time, M)
  let T = compactTargets(targetOf)
  for (let round = 0; round < 10; round++) {
    const levels = targetMeans(targetOf, T, power, time)
    const next = segmentLevels(power, time, length, levels, minLength)
    const T2 = compactTargets(next)
    let same = T2 === T
    for (let k = 0; same && k < next.length; k++) same = next[k] === targetOf[k]
    targetOf = next
    T = T2
    if (same) break
  }
  return targetOf
}

/** Per-control length (m), mean grade and mean head/cross wind. */
export interface ControlTerrain {
  length: Float64Array
  grade: Float64Array
  head: Float64Array
  cross: Float64Array
}

export function controlTerrain(
  course: Course,
  model: SimModel,
  controls: Controls,
): ControlTerrain {
  const K = controls.count
  const out: ControlTerrain = {
    length: new Float64Array(K),
    grade: new Float64Array(K),
    head: new Float64Array(K),
    cross: new Float64Array(K),
  }
  for (let k = 0; k < K; k++) {
    const i0 = controls.first[k]!
    const i1 = controls.first[k + 1]!
    let len = 0
    let head = 0
    let cross = 0
    for (let i = i0; i < i1; i++) {
      const l = course.length[i]!
      len += l
      head += l * model.wPar[i]!
      cross += l * model.wPerp[i]!
    }
    out.length[k] = len
    out.grade[k] = len > 0 ? (course.altitude[i1]! - course.altitude[i0]!) / len : 0
    out.head[k] = len > 0 ? head / len : 0
    out.cross[k] = len > 0 ? cross / len : 0
  }
  return out
}

/** Two targets: every climb (grade > 0) and every descent or flat (null if one is empty). */
export function twoLevelStructure(terrain: ControlTerrain): Int32Array | null {
  const K = terrain.grade.length
  const targetOf = new Int32Array(K)
  let up = 0
  for (let k = 0; k < K; k++) {
    targetOf[k] = terrain.grade[k]! > 0 ? 0 : 1
    up += targetOf[k] === 0 ? 1 : 0
  }
  return up > 0 && up < K ? targetOf : null
}

/**
 * Starts of a two-level plan (target 0 climbs, target 1 the rest) besides the optimum's own mean
 * powers: harder climbs with the descents near the steady power (where inertia makes coasting
 * the descents a poor trade, e.g. short rollers), and a nearly steady ride.
 */
export function twoLevelStarts(basePowerW: number, cpW: number | null): Float64Array[] {
  const top = cpW !== null ? Math.max(basePowerW, cpW) : basePowerW
  const low = cpW !== null ? Math.min(basePowerW, cpW) : basePowerW
  return [Float64Array.from([top * 1.12, low * 0.97]), Float64Array.from([top * 1.03, low * 0.99])]
}

export interface RideableOptions {
  maxTargets: number
  minSectionM: number
}

/**
 * The fastest rideable plan found from the per-segment optimum (`optimum`, its ride `optimumSim`).
 * Candidates, each with sections of at least minSectionM and its target powers optimized exactly:
 * the optimum over free sections (under W′, when it has no more sections than targets); its
 * powers in maxTargets levels over sections, then boundary moves; and `twoPlan`, the two-level
 * plan of the optimizer's multi-start (its short sections joined to a neighbour). Returns the
 * fastest (null: none is feasible).
 */
export function bestTargetPlan(
  s: ReducedSetup,
  optimum: Float64Array,
  optimumSim: SimulationResult,
  o: RideableOptions,
  terrain: ControlTerrain,
  twoPlan: TargetPlan | null,
): { best: TargetPlan | null; simulations: number; gradients: number } {
  const { controls } = s
  const K = controls.count
  const power = new Float64Array(K)
  const time = new Float64Array(K)
  for (let k = 0; k < K; k++) {
    // time-weighted mean over the control (uniform in the optimum, except at stall floors)
    let e = 0
    let t = 0
    for (let i = controls.first[k]!; i < controls.first[k + 1]!; i++) {
      e += optimum[i]! * optimumSim.segments.duration[i]!
      t += optimumSim.segments.duration[i]!
    }
    time[k] = t
    power[k] = t > 0 ? e / t : optimum[controls.first[k]!]!
  }
  const M = Math.max(1, o.maxTargets)
  const powerOpt = power
  const timeOpt = time
  let best: TargetPlan | null = null
  let simulations = 0
  let gradients = 0
  const consider = (r: TargetPlan | null) => {
    if (!r) return
    if (!best || r.verdict.sim!.timeS < best.verdict.sim!.timeS) best = r
  }
  // Levels over sections of at least minSectionM, from a per-control power profile (with the time
  // of each control). A control weighs by how much a change of its power changes the finish time
  // (curvature of time in power ≈ t/P²): a level that suits the climbs matters more than one that
  // suits the fast descents (Galibier 83 → 90 %). Not on very long courses, the levels weighted
  // by time alone are tried too (Crank the Kanc, rolling: 55 → 63 %); the faster plan wins.
  const levelPlan = (pw: Float64Array, tm: Float64Array) => {
    levelPlanWeighted(pw, tm, true)
    if (s.im.n <= LONG_COARSE) levelPlanWeighted(pw, tm, false)
  }
  const levelPlanWeighted = (pw: Float64Array, tm: Float64Array, curvature: boolean) => {
    const weight = new Float64Array(K)
    for (let k = 0; k < K; k++) weight[k] = curvature ? tm[k]! / Math.max(50, pw[k]!) ** 2 : tm[k]!
    const targetOf = levelSections(pw, weight, terrain.length, M, o.minSectionM)
    const T = compactTargets(targetOf)
    if (T < 2) return
    let r = optimizeTargets(s, targetOf, [targetMeans(targetOf, T, pw, tm)])
    if (r) {
      simulations += r.simulations
      gradients += r.gradients
      // three rounds of boundary moves, none on very long courses (each round is a polish; the
      // 180 km bench course must stay within a second)
      const rounds = s.im.n <= LONG_COARSE ? 3 : 0
      const refined = refineBoundaries(s, r, terrain.length, o.minSectionM, rounds)
      simulations += refined.simulations
      gradients += refined.gradients
      r = refined.plan
    }
    consider(r)
  }
  if (M >= 2) {
    if (s.spec.type === 'w_prime_balance') {
      // Under W′: the optimum over sections of at least minSectionM, each its own power, by the
      // optimizer's DP with the sections as its control segments (global over the sections; the
      // per-segment optimum's short surges cannot be followed, and averaging them into levels
      // directly loses much more). The levels are then read from this section optimum. Section
      // cuts, each the DP of `freeSections` on a profile: the optimum's power (time-weighted),
      // and, not on very long courses, the grade (length- and time-weighted) and the optimum's
      // power averaged over ±5 controls. The optimum's power follows the 10 m GPS ramps; the
      // grade and the averaged power put the ends where the climb changes. The fastest plan
      // wins (measured, issue 15's setting: Galibier 78 → 96 %, Crank the Kanc 45 → 67 %,
      // TT Beton 94 → 100 %, Alpe d'Huez 63 → 67 %; Mont Ventoux is best cut by the power).
      const cuts: [Float64Array, Float64Array][] = [[powerOpt, timeOpt]]
      if (s.im.n <= LONG_COARSE) {
        cuts.push([terrain.grade, terrain.length], [terrain.grade, timeOpt])
        cuts.push([movingMean(powerOpt, timeOpt, 5), timeOpt])
      }
      for (const [profile, weight] of cuts) {
        const sec = freeSections(profile, weight, terrain.length, o.minSectionM)
        const S = compactTargets(sec)
        let rs = sectionDp(s, sec, S)
        // then the sections' powers polished with inertia, where the sections are few enough
        // for it to be cheap (not on the 180 km bench course's 600 sections)
        if (rs && S <= SECTION_POLISH_MAX) {
          const r2 = optimizeTargets(s, sec, [targetPowers(rs, controls)])
          if (r2) {
            simulations += r2.simulations
            gradients += r2.gradients
            if (r2.verdict.sim!.timeS < rs.verdict.sim!.timeS) rs = r2
          }
        }
        if (!rs) {
          levelPlan(powerOpt, timeOpt)
          continue
        }
        simulations += rs.simulations
        const tp = targetPowers(rs, controls)
        const pw = new Float64Array(K)
        const tm = new Float64Array(K)
        for (let k = 0; k < K; k++) pw[k] = tp[sec[k]!]!
        const d = rs.verdict.sim!.segments.duration
        for (let i = 0; i < s.course.n; i++) tm[controls.of[i]!] = tm[controls.of[i]!]! + d[i]!
        if (S <= M) consider(rs)
        levelPlan(pw, tm)
      }
    } else levelPlan(powerOpt, timeOpt)
    // the two-level plan of the optimizer's multi-start, when all its sections are long enough;
    // otherwise its structure with short sections joined to a neighbour, from its powers
    if (twoPlan) {
      const targetOf = Int32Array.from(twoPlan.targetOf)
      const lv = targetMeansOf(targetOf, 2, twoPlan.powerW, controls)
      enforceMinLength(targetOf, lv, power, time, terrain.length, o.minSectionM)
      let same = true
      for (let k = 0; same && k < K; k++) same = targetOf[k] === twoPlan.targetOf[k]
      if (same) consider(twoPlan)
      else if (compactTargets(targetOf) === 2) {
        const r = optimizeTargets(s, targetOf, [
          targetMeansOf(targetOf, 2, twoPlan.powerW, controls),
        ])
        if (r) {
          simulations += r.simulations
          gradients += r.gradients
        }
        consider(r)
      }
    }
  }
  // the winner's powers polished once more with a larger budget (the reduced problem's sharp W′
  // aggregate converges slowly: measured up to 2 s on Crank the Kanc), not on very long courses
  const won = best as TargetPlan | null
  if (won && won.count >= 2 && s.im.n <= LONG_COARSE) {
    const r = optimizeTargets(s, won.targetOf, [targetPowers(won, controls)], FINAL_BUDGET)
    if (r) {
      simulations += r.simulations
      gradients += r.gradients
      consider(r)
    }
  }
  return { best, simulations, gradients }
}

/** The target (of two) whose controls climb more, length-weighted. */
export function climbTarget(targetOf: Int32Array, terrain: ControlTerrain): number {
  let rise0 = 0
  let len0 = 0
  let rise1 = 0
  let len1 = 0
  for (let k = 0; k < targetOf.length; k++) {
    const l = terrain.length[k]!
    if (targetOf[k] === 0) {
      rise0 += l * terrain.grade[k]!
      len0 += l
    } else {
      rise1 += l * terrain.grade[k]!
      len1 += l
    }
  }
  return rise0 / Math.max(len0, 1e-9) >= rise1 / Math.max(len1, 1e-9) ? 0 : 1
}

/** Sections (runs of one target) and targets of a plan, labelled by terrain and wind. */
export function describePlan(
  course: Course,
  controls: Controls,
  terrain: ControlTerrain,
  targetOf: Int32Array,
  T: number,
  powerW: Float64Array,
): { sections: PlanSection[]; targets: PlanTarget[] } {
  const sections: PlanSection[] = []
  const K = controls.count
  let k = 0
  while (k < K) {
    let last = k
    while (last + 1 < K && targetOf[last + 1] === targetOf[k]) last++
    let len = 0
    let head = 0
    let cross = 0
    for (let q = k; q <= last; q++) {
      const l = terrain.length[q]!
      len += l
      head += l * terrain.head[q]!
      cross += l * terrain.cross[q]!
    }
    const i0 = controls.first[k]!
    const i1 = controls.first[last + 1]!
    const grade = len > 0 ? (course.altitude[i1]! - course.altitude[i0]!) / len : 0
    sections.push({
      startM: course.start[i0]!,
      endM: course.start[i1]!,
      powerW: powerW[i0]!,
      label: sectionLabel(grade, len > 0 ? head / len : 0, len > 0 ? cross / len : 0),
      target: targetOf[k]!,
    })
    k = last + 1
  }
  const targets: PlanTarget[] = []
  for (let t = 0; t < T; t++) {
    const mine = sections.map((x, q) => [x, q] as const).filter(([x]) => x.target === t)
    if (mine.length === 0) continue
    // the label that covers most of the target's length
    const byLabel = new Map<string, number>()
    for (const [x] of mine) byLabel.set(x.label, (byLabel.get(x.label) ?? 0) + x.endM - x.startM)
    let label = ''
    let most = -1
    for (const [l, m] of byLabel) {
      if (m > most) {
        most = m
        label = l
      }
    }
    targets.push({ powerW: mine[0]![0].powerW, label, sections: mine.map(([, q]) => q) })
  }
  return { sections, targets }
}

/** A one-target plan: the best constant power, with the reason the rider gets it. */
export function constantPlan(
  course: Course,
  powerW: number,
  sim: SimulationResult,
  label: string,
  reason: string,
): SimplifiedPlan {
  return {
    sections: [
      { startM: course.start[0]!, endM: course.start[course.n]!, powerW, label, target: 0 },
    ],
    targets: [{ powerW, label, sections: [0] }],
    powerW: new Float64Array(course.n).fill(powerW),
    simulation: sim,
    timeS: sim.timeS,
    reason,
  }
}
