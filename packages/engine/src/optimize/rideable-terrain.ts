// The terrain of each control segment and what is read from it for the rideable plan: the
// two-level structure (climbs and the rest) and its starts, and the plan's description (sections
// and targets labelled by terrain and wind) (split from rideable.ts).
import type { Course } from '../course/types.ts'
import type { SimModel } from '../sim/model.ts'
import type { SimulationResult } from '../sim/simulate.ts'
import type { Controls } from './controls.ts'
import { sectionLabel, type PlanSection, type PlanTarget, type SimplifiedPlan } from './plan.ts'

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
