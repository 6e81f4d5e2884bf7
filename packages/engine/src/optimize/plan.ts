// The rideable plan's shape and labels. A plan is a few target powers; each target applies to a
// group of sections (e.g. every climb), each section a stretch of road long enough to follow.
// How the plan is chosen and optimized: rideable.ts.
import type { SimulationResult } from '../sim/simulate.ts'

export interface PlanSection {
  startM: number
  endM: number
  powerW: number
  label: string
  /** index of the section's target in `SimplifiedPlan.targets` */
  target: number
}

/** One target power and the sections it applies to. */
export interface PlanTarget {
  powerW: number
  /** the label covering most of the target's length (e.g. "climb") */
  label: string
  /** indices of its sections in `SimplifiedPlan.sections` */
  sections: number[]
}

export interface SimplifiedPlan {
  sections: PlanSection[]
  targets: PlanTarget[]
  /** power per fine segment of the plan (W) */
  powerW: Float64Array
  /** the plan ridden through the simulation; null if no feasible version was found */
  simulation: SimulationResult | null
  timeS: number
  /** why the plan is one constant power (null when it varies) */
  reason: string | null
}

/** Terrain and wind label of a stretch (mean grade, mean head wind along travel, mean cross wind). */
export function sectionLabel(grade: number, headwindMps: number, crossMps: number): string {
  let terrain: string
  if (grade >= 0.03) terrain = 'climb'
  else if (grade >= 0.01) terrain = 'false flat'
  else if (grade <= -0.03) terrain = 'descent'
  else if (grade <= -0.01) terrain = 'gentle descent'
  else terrain = 'flat'
  let wind = ''
  if (headwindMps >= 1.5) wind = ' with headwind'
  else if (headwindMps <= -1.5) wind = ' with tailwind'
  else if (Math.abs(crossMps) >= 2) wind = ' with crosswind'
  return terrain + wind
}
