// The pacing optimizer's input, result and the helpers of its run: power bounds, the drag factor,
// the constraint's spec, the stall rescue and the infeasible result (split from pacing.ts).
import type { Course } from '../course/types.ts'
import type { Environment, Rider, SimModel } from '../sim/model.ts'
import type { SimulationOptions, SimulationResult } from '../sim/simulate.ts'
import type { ControlOptions, Controls } from './controls.ts'
import { judge, type Judge, type PacingConstraint } from './exact.ts'
import type { CoarseCourse } from './coarse.ts'
import type { SimplifiedPlan } from './plan.ts'
import { expandPowers, type ConstraintSpec } from './problem.ts'

export interface PacingSettings {
  constraint: PacingConstraint
  /** lowest power (W), default 0 (coasting allowed) */
  minPowerW?: number
  /** highest power (W), default the rider's maxPowerW */
  maxPowerW?: number
  controls?: Partial<ControlOptions>
  /** relative tolerance on the objective for the inner solver (default 1e-9) */
  tolerance?: number
  /** most target powers in the rideable plan (default 12, at most 20) */
  maxTargets?: number
  /** shortest section of the rideable plan (m, default 200) */
  minSectionM?: number
}

export interface PacingInput {
  course: Course
  rider: Rider
  environment?: Environment
  options?: SimulationOptions
  pacing: PacingSettings
  /** per-segment factor on the drag area (CdA + Fw), e.g. a wheel's ΔCdA at each segment's yaw */
  dragFactor?: Float64Array
  /** a known plan (power per segment): the result is never slower than it, once made feasible */
  warmStart?: Float64Array
  /**
   * Only the per-segment optimum (the bound), no rideable plan (`plan` is null): what the
   * equipment ranking compares, at a tenth of the cost (the plan's search is ~90 % of a run)
   */
  boundOnly?: boolean
  /**
   * false: the rideable plan's search leaves out the joint cut (rideable.ts). The first of the two
   * control grids runs so when the second follows (pacing.ts): only the second's joint cut ever
   * leads a winning plan.
   */
  jointCut?: boolean
  /**
   * How many section optima the rideable plan's search polishes with inertia: those of the
   * fastest cuts by their DP's time (default SECTION_POLISHES; the first of two grids: 1).
   */
  sectionPolishes?: number
  /**
   * false: the optimum's search leaves out the structured starts (the two-level and the
   * grade-proportional plans); the two-level plan the rideable plan's search starts from is then
   * found when the run is finished (pacing-run.ts). The equipment ranking's runs, warm-started at
   * the baseline's optimum, whose own run had them (decision 0003).
   */
  structuredStarts?: boolean
}

/** The prepared model with a per-segment drag-area factor folded into ρ (aero is ρ·½(CdA+Fw)). */
export function withDragFactor(m: SimModel, factor: Float64Array): SimModel {
  const rho = new Float64Array(m.n)
  for (let i = 0; i < m.n; i++) rho[i] = m.rho[i]! * factor[i]!
  return { ...m, rho }
}

/** Length-weighted mean of a per-segment factor over the segments of each coarse piece. */
export function coarseFactor(course: Course, coarse: CoarseCourse, f: Float64Array) {
  const out = new Float64Array(coarse.course.n)
  let i = 0
  for (let c = 0; c < coarse.course.n; c++) {
    const end = coarse.course.start[c + 1]!
    let len = 0
    let acc = 0
    while (i < course.n && course.start[i]! < end - 1e-6) {
      len += course.length[i]!
      acc += course.length[i]! * f[i]!
      i++
    }
    out[c] = len > 0 ? acc / len : 1
  }
  return out
}

export interface PacingResult {
  status: 'optimal' | 'infeasible'
  /** why the problem is infeasible, or a note on how the result was obtained */
  reason: string | null
  /**
   * The per-segment optimum (one power per control segment): the bound the rideable plan comes
   * close to. `powerW`, `simulation`, `timeS` and `timeSavedS` are this optimum's; what the rider
   * gets is `plan` (outputs report the plan's time as the time, this one as the bound).
   */
  powerW: Float64Array
  /** the optimized ride, simulated by `simulate`'s own loop (null when infeasible) */
  simulation: SimulationResult | null
  timeS: number
  /** best constant power under the same constraint (null when no constant power is feasible) */
  baseline: { powerW: number; timeS: number } | null
  timeSavedS: number | null
  /**
   * The rideable plan: at most maxTargets target powers over sections of at least minSectionM,
   * optimized as such, with its own simulated time (never slower than the baseline)
   */
  plan: SimplifiedPlan | null
  controls: Controls
  /** the control options of the grid `controls` was built with (pacing.ts: one of two grids) */
  controlOptions?: Partial<ControlOptions>
  stats: {
    outerIterations: number
    innerIterations: number
    gradientEvaluations: number
    simulations: number
  }
}

/** Power bounds used by the optimizer (W). */
export function powerBounds(rider: Rider, s: PacingSettings): { lo: number; hi: number } {
  const lo = s.minPowerW ?? 0
  const hi = Math.min(s.maxPowerW ?? Infinity, rider.maxPowerW ?? Infinity)
  return { lo, hi }
}

export function specOf(c: PacingConstraint, rider: Rider): ConstraintSpec {
  switch (c.type) {
    case 'w_prime_balance':
      return { type: 'w_prime_balance', cpW: rider.cpW!, wPrimeJ: rider.wPrimeJ! }
    case 'normalized_power':
      return { type: 'normalized_power', powerW: c.powerW }
    case 'average_power':
      return { type: 'average_power', powerW: c.powerW }
    case 'work':
      return { type: 'work', workJ: c.workJ }
  }
}

/** Raises the power of stalled control segments until the ride gets through (null: impossible). */
export function rescueStalls(
  j: Judge,
  controls: Controls,
  x: Float64Array,
  hi: number,
  p: Float64Array,
): { x: Float64Array; simulations: number } | null {
  let simulations = 0
  for (let guard = 0; guard < controls.count; guard++) {
    expandPowers(controls.of, x, p)
    const v = judge(j, { type: 'plan', powerW: p })
    simulations++
    if (v.finished) return { x, simulations }
    const seg = j.course.start.findIndex((s) => s === (v.sim?.stalledAtM ?? 0))
    const k = controls.of[Math.max(0, seg)]!
    if (x[k]! >= hi) return null
    x[k] = Math.min(hi, Math.max(x[k]! * 1.25, x[k]! + 25))
  }
  return null
}

export function infeasible(
  reason: string,
  controls: Controls,
  n: number,
  sims: number,
): PacingResult {
  return {
    status: 'infeasible',
    reason,
    powerW: new Float64Array(n),
    simulation: null,
    timeS: Infinity,
    baseline: null,
    timeSavedS: null,
    plan: null,
    controls,
    stats: { outerIterations: 0, innerIterations: 0, gradientEvaluations: 0, simulations: sims },
  }
}
