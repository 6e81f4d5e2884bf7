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
import { jointCut, sectionDp } from './sections-dp.ts'
import {
  compactTargets,
  enforceMinLength,
  freeSections,
  levelSections,
  movingMean,
  targetMeans,
} from './sections.ts'
import { type AugmentedState, type ConstraintSpec, type Workspace, workspace } from './problem.ts'

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
 * Work of one reduced polish: augmented-Lagrangian rounds × inner L-BFGS iterations. The reduced
 * problem's sharp W′ aggregate converges slowly: measured on the real courses (issue 15's
 * setting), 5 × 60 left the sections' and the levels' powers 0.3–0.9 s short (Alpe d'Huez's
 * section plans 3395.8–3396.3 s → 3395.4–3396.0 s with 8 × 200); 15 × 300 gains nothing more.
 * The polish stops earlier when it has converged.
 */
export const REDUCED_BUDGET = { rounds: 8, inner: 200 }

/** Work of the last polish of the chosen plan's powers, on the fine course. */
export const FINE_BUDGET = { rounds: 4, inner: 50 }

/** The same on very long courses (> LONG_COARSE pieces), where the second must hold. */
export const LONG_BUDGET = { rounds: 5, inner: 60 }

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

/**
 * The exact best powers of a fixed structure: the polish over T variables (one per target) from
 * each of `starts` (one power per target each: the reduced problem can have several local minima,
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

/** The power of each target in a plan (its lowest segment power: stall floors only raise). */
function targetPowers(r: TargetPlan, controls: Controls): Float64Array {
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
 * powers in maxTargets levels over sections; and `twoPlan`, the two-level
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
    const r = optimizeTargets(s, targetOf, [targetMeans(targetOf, T, pw, tm)])
    if (r) {
      simulations += r.simulations
      gradients += r.gradients
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
      // Then, not on very long courses, the cut of the W′ DP over section ends and powers jointly
      // (all cuts at once, quasi-steady; Alpe d'Huez 74 → 78–80 %, Mont Ventoux 77 → 77–78 %).
      const profiles: [Float64Array, Float64Array][] = [[powerOpt, timeOpt]]
      if (s.im.n <= LONG_COARSE) {
        profiles.push([terrain.grade, terrain.length], [terrain.grade, timeOpt])
        profiles.push([movingMean(powerOpt, timeOpt, 5), timeOpt])
      }
      const cuts = profiles.map(([profile, weight]) =>
        freeSections(profile, weight, terrain.length, o.minSectionM),
      )
      if (s.im.n <= LONG_COARSE) {
        const joint = jointCut(s, powerOpt, terrain.length, o.minSectionM)
        if (joint) cuts.push(joint)
      }
      for (const sec of cuts) {
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
  // the winner's powers polished once more on the fine course itself, where the plan is judged
  // (the reduced problems run on the ~50 m pieces of the coarse copy; measured: Alpe d'Huez
  // 3395.11 → 3395.02 s, Galibier 5265.92 → 5265.72 s, ~25–50 ms); not on very long courses
  const won = best as TargetPlan | null
  if (won && won.count >= 2 && s.im.n <= LONG_COARSE) {
    const r = optimizeTargets(s, won.targetOf, [targetPowers(won, controls)], FINE_BUDGET, true)
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
