// A rideable plan: the optimal powers simplified to at most `maxTargets` sections, each labelled
// by its terrain and wind, then made feasible and timed by the simulation itself (so the time shown
// next to the plan is the time of the plan the rider will actually follow).
import type { Course } from '../course/types.ts'
import type { SimModel } from '../sim/model.ts'
import type { SimulationResult } from '../sim/simulate.ts'
import type { Controls } from './controls.ts'
import { fitToConstraint, scaledPlan, type Judge } from './exact.ts'

export interface PlanSection {
  startM: number
  endM: number
  powerW: number
  label: string
}

export interface SimplifiedPlan {
  sections: PlanSection[]
  /** power per fine segment of the simplified plan (W) */
  powerW: Float64Array
  /** the simplified plan ridden through the simulation; null if no feasible version was found */
  simulation: SimulationResult | null
  timeS: number
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

interface Group {
  first: number // first control
  last: number // last control (inclusive)
  time: number
  energy: number
}

/**
 * Merges adjacent sections, cheapest first, until at most maxTargets remain. The cost of merging
 * two sections is the time-weighted squared power change it forces (Ward's criterion),
 * t₁t₂/(t₁+t₂)·(P₁ − P₂)², and the merged power is the time-weighted mean (same work).
 */
function mergeControls(controlPower: Float64Array, controlTime: Float64Array, maxTargets: number) {
  const groups: Group[] = []
  for (let k = 0; k < controlPower.length; k++) {
    const t = Math.max(controlTime[k]!, 1e-9)
    const prev = groups[groups.length - 1]
    // identical neighbours merge for free
    if (prev && Math.abs(prev.energy / prev.time - controlPower[k]!) < 1e-9) {
      prev.last = k
      prev.time += t
      prev.energy += controlPower[k]! * t
    } else groups.push({ first: k, last: k, time: t, energy: controlPower[k]! * t })
  }
  // a target must be long enough to ride: sections under 30 s join their closer-powered neighbour
  for (;;) {
    let g = -1
    let shortest = 30
    for (let q = 0; q < groups.length; q++) {
      if (groups[q]!.time < shortest && groups.length > 1) {
        shortest = groups[q]!.time
        g = q
      }
    }
    if (g < 0) break
    const p = groups[g]!.energy / groups[g]!.time
    const left = groups[g - 1]
    const right = groups[g + 1]
    const dl = left ? Math.abs(left.energy / left.time - p) : Infinity
    const dr = right ? Math.abs(right.energy / right.time - p) : Infinity
    const into = dl <= dr ? g - 1 : g
    const a = groups[into]!
    const b = groups[into + 1]!
    a.last = b.last
    a.time += b.time
    a.energy += b.energy
    groups.splice(into + 1, 1)
  }
  while (groups.length > maxTargets) {
    let best = -1
    let bestCost = Infinity
    for (let g = 0; g + 1 < groups.length; g++) {
      const a = groups[g]!
      const b = groups[g + 1]!
      const d = a.energy / a.time - b.energy / b.time
      const cost = ((a.time * b.time) / (a.time + b.time)) * d * d
      if (cost < bestCost) {
        bestCost = cost
        best = g
      }
    }
    const a = groups[best]!
    const b = groups[best + 1]!
    a.last = b.last
    a.time += b.time
    a.energy += b.energy
    groups.splice(best + 1, 1)
  }
  return groups
}

export function simplifyPlan(
  j: Judge,
  course: Course,
  model: SimModel,
  controls: Controls,
  optimal: Float64Array,
  optimalSim: SimulationResult,
  maxTargets: number,
  lo: number,
  hi: number,
): SimplifiedPlan {
  const K = controls.count
  const n = course.n
  const cPower = new Float64Array(K)
  const cTime = new Float64Array(K)
  for (let i = 0; i < n; i++) {
    const k = controls.of[i]!
    cTime[k] = cTime[k]! + optimalSim.segments.duration[i]!
  }
  for (let k = 0; k < K; k++) cPower[k] = optimal[controls.first[k]!]!
  const groups = mergeControls(cPower, cTime, Math.max(1, maxTargets))
  const plan = new Float64Array(n)
  for (const g of groups) {
    const P = g.energy / g.time
    for (let i = controls.first[g.first]!; i < controls.first[g.last + 1]!; i++) plan[i] = P
  }
  // averaging can overdraw W′ (or NP) a little: bring the plan back to the constraint exactly
  const fit = fitToConstraint(j, plan, lo, hi, 2)
  const sections: PlanSection[] = []
  let powerW: Float64Array = plan
  let simulation: SimulationResult | null = null
  if (fit?.verdict.sim) {
    simulation = fit.verdict.sim
    powerW = scaledPlan(j, plan, fit.alpha, lo, hi, new Float64Array(n))
  }
  for (const g of groups) {
    const i0 = controls.first[g.first]!
    const i1 = controls.first[g.last + 1]!
    let len = 0
    let head = 0
    let cross = 0
    for (let i = i0; i < i1; i++) {
      const l = course.length[i]!
      len += l
      head += l * model.wPar[i]!
      cross += l * model.wPerp[i]!
    }
    const grade = (course.altitude[i1]! - course.altitude[i0]!) / len
    sections.push({
      startM: course.start[i0]!,
      endM: course.start[i1]!,
      powerW: powerW[i0]!,
      label: sectionLabel(grade, head / len, cross / len),
    })
  }
  return { sections, powerW, simulation, timeS: simulation ? simulation.timeS : Infinity }
}

/**
 * The rideable plan, or the steady power as a one-section plan when averaging the optimum into a
 * few sections would be slower than riding the best constant power (the variation gained less
 * than the averaging cost). `steady` builds that one-section plan only when it is needed.
 */
export function noSlowerThanSteady(
  plan: SimplifiedPlan,
  baselineTimeS: number,
  steady: () => SimplifiedPlan,
): SimplifiedPlan {
  if (plan.simulation && plan.timeS <= baselineTimeS) return plan
  const alt = steady()
  return alt.simulation && (!plan.simulation || alt.timeS < plan.timeS) ? alt : plan
}
