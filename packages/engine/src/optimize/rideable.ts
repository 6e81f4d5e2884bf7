// The rideable plan, optimized as such (decision 0002): at most `maxTargets` target powers, each target
// applied to a group of sections (e.g. every climb, every descent), each section at least
// `minSectionM` long. The structure (which control segment rides which target) comes from the
// optimum over sections of that length and from the terrain; the target powers are then optimized
// exactly under the constraint by the same augmented-Lagrangian polish as the optimum, over the
// reduced vector of target powers, and the plan is repaired and timed by the simulation itself.
// The time and the time saved handed to the rider are this plan's; the per-segment optimum is
// only the bound (docs/decisions/0002).
import type { SimulationResult } from '../sim/simulate.ts'
import { jointCut, sectionDp } from './sections-dp.ts'
import {
  compactTargets,
  enforceMinLength,
  freeSections,
  levelSections,
  movingMean,
  targetMeans,
} from './sections.ts'
import {
  FINE_BUDGET,
  LONG_COARSE,
  optimizeTargets,
  SECTION_POLISH_MAX,
  SECTION_POLISHES,
  targetMeansOf,
  targetPowers,
  type ReducedSetup,
  type TargetPlan,
} from './rideable-targets.ts'
import type { ControlTerrain } from './rideable-terrain.ts'

export {
  DEFAULT_MAX_TARGETS,
  DEFAULT_MIN_SECTION_M,
  FINE_BUDGET,
  LONG_BUDGET,
  LONG_COARSE,
  MAX_TARGETS_LIMIT,
  optimizeTargets,
  REDUCED_BUDGET,
  SECTION_POLISH_MAX,
  SECTION_POLISHES,
  targetMeansOf,
} from './rideable-targets.ts'
export type { ReducedSetup, TargetPlan } from './rideable-targets.ts'
export {
  climbTarget,
  constantPlan,
  controlTerrain,
  describePlan,
  twoLevelStarts,
  twoLevelStructure,
} from './rideable-terrain.ts'
export type { ControlTerrain } from './rideable-terrain.ts'

export interface RideableOptions {
  maxTargets: number
  minSectionM: number
  /** false: no joint cut (a second control grid follows with its own) */
  jointCut?: boolean
  /** how many cuts' section optima are polished, the fastest by their DP (SECTION_POLISHES) */
  sectionPolishes?: number
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
  const work = { simulations: 0, gradients: 0 }
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
  // The same structure from the same start is the same reduced problem (the two weightings, or
  // two cuts, often give the same levels): it is solved once.
  const solved = new Set<string>()
  const firstTime = (...parts: ArrayLike<number>[]) => {
    const key = parts.map((a) => Array.prototype.join.call(a, ',')).join('|')
    if (solved.has(key)) return false
    solved.add(key)
    return true
  }
  const levelPlanWeighted = (pw: Float64Array, tm: Float64Array, curvature: boolean) => {
    const weight = new Float64Array(K)
    for (let k = 0; k < K; k++) weight[k] = curvature ? tm[k]! / Math.max(50, pw[k]!) ** 2 : tm[k]!
    const targetOf = levelSections(pw, weight, terrain.length, M, o.minSectionM)
    const T = compactTargets(targetOf)
    if (T < 2) return
    const start = targetMeans(targetOf, T, pw, tm)
    if (!firstTime(targetOf, start)) return
    const r = optimizeTargets(s, targetOf, [start])
    if (r) {
      work.simulations += r.simulations
      work.gradients += r.gradients
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
      // and, not on very long courses, the grade (length-weighted) and the optimum's power
      // averaged over ±5 controls. (The grade weighted by time was a cut too: it never led a
      // control grid whose plan won on the bench courses, and its plans were identical without
      // it; decision 0002.) The optimum's power follows the 10 m GPS ramps; the
      // grade and the averaged power put the ends where the climb changes. The fastest plan
      // wins (no single cut is best everywhere: Galibier and Crank the Kanc gain most from the
      // grade and the averaged power, Mont Ventoux is best cut by the power; decision 0002).
      // Then, not on very long courses, the cut of the W′ DP over section ends and powers jointly
      // (all cuts at once, quasi-steady; on Alpe d'Huez it keeps 78–80 % of the bound's gain
      // where the other cuts keep 74 %), unless `o.jointCut` is false (the first of two control
      // grids: pacing.ts).
      const profiles: [Float64Array, Float64Array][] = [[powerOpt, timeOpt]]
      if (s.im.n <= LONG_COARSE) {
        profiles.push([terrain.grade, terrain.length])
        profiles.push([movingMean(powerOpt, timeOpt, 5), timeOpt])
      }
      const cuts = profiles.map(([profile, weight]) =>
        freeSections(profile, weight, terrain.length, o.minSectionM),
      )
      if (s.im.n <= LONG_COARSE && o.jointCut !== false) {
        const joint = jointCut(s, powerOpt, terrain.length, o.minSectionM)
        if (joint) cuts.push(joint)
      }
      const { lead, failed } = sectionOptima(s, cuts, o, M, work, consider)
      if (lead) levelPlan(lead.pw, lead.tm)
      if (failed || !lead) levelPlan(powerOpt, timeOpt)
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
          work.simulations += r.simulations
          work.gradients += r.gradients
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
      work.simulations += r.simulations
      work.gradients += r.gradients
      consider(r)
    }
  }
  return { best, ...work }
}

/** The fastest section optimum's powers and times per control: where the levels are read. */
interface Lead {
  t: number
  pw: Float64Array
  tm: Float64Array
}

/**
 * The section optimum of each cut (W′): its DP's plan, then, for the `o.sectionPolishes` cuts whose
 * DP is fastest, polished with inertia (the DP is quasi-steady). Each is a candidate (`consider`)
 * where it has at most M sections; returns the fastest as the lead the levels are read from, and
 * whether a cut's DP found no plan. Levels read from the other cuts never won by more than the
 * polish's own scatter on the bench courses, and cost two reduced polishes each (decision 0002).
 */
function sectionOptima(
  s: ReducedSetup,
  cuts: Int32Array[],
  o: RideableOptions,
  M: number,
  work: { simulations: number; gradients: number },
  consider: (r: TargetPlan) => void,
): { lead: Lead | null; failed: boolean } {
  const { controls } = s
  const K = controls.count
  let lead: Lead | null = null
  let failed = false
  const seen = new Set<string>()
  const optima: { sec: Int32Array; S: number; rs: TargetPlan }[] = []
  for (const sec of cuts) {
    const key = sec.join(',')
    if (seen.has(key)) continue
    seen.add(key)
    const S = compactTargets(sec)
    const rs = sectionDp(s, sec, S)
    if (!rs) {
      failed = true
      continue
    }
    work.simulations += rs.simulations
    optima.push({ sec, S, rs })
  }
  optima.sort((a, b) => a.rs.verdict.sim!.timeS - b.rs.verdict.sim!.timeS)
  const polishes = o.sectionPolishes ?? SECTION_POLISHES
  for (let q = 0; q < optima.length; q++) {
    const { sec, S } = optima[q]!
    let rs = optima[q]!.rs
    // the sections' powers polished with inertia, where the sections are few enough for it to be
    // cheap (not on the 180 km bench course's 600 sections)
    if (q < polishes && S <= SECTION_POLISH_MAX) {
      const r2 = optimizeTargets(s, sec, [targetPowers(rs, controls)])
      if (r2) {
        work.simulations += r2.simulations
        work.gradients += r2.gradients
        if (r2.verdict.sim!.timeS < rs.verdict.sim!.timeS) rs = r2
      }
    }
    if (S <= M) consider(rs)
    const t = rs.verdict.sim!.timeS
    if (lead && lead.t <= t) continue
    const tp = targetPowers(rs, controls)
    const pw = new Float64Array(K)
    const tm = new Float64Array(K)
    for (let k = 0; k < K; k++) pw[k] = tp[sec[k]!]!
    const d = rs.verdict.sim!.segments.duration
    for (let i = 0; i < s.course.n; i++) tm[controls.of[i]!] = tm[controls.of[i]!]! + d[i]!
    lead = { t, pw, tm }
  }
  return { lead, failed }
}
