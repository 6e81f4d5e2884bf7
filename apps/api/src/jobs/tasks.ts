// The pure tasks a worker thread runs: JSON in, JSON out, progress along the way. They call the
// engine and nothing else (no database, no files), so a thread can be killed at any moment.
import {
  optimizeEquipment,
  optimizePacing,
  type Course,
  type PacingResult,
  type SimulationResult,
} from '@veloptima/engine'
import { courseFromFile } from '../routes/imports/course-rows.ts'
import { parseOptimizerInput, type OptimizerInput } from './engine-inputs.ts'

export type Progress = (progress: number, message?: string) => void

/** A row of the plan a rider follows: a stretch of road with one target power. */
export type PlanSection = {
  start_m: number
  end_m: number
  label: string
  grade: number
  power_w: number
  speed_mps: number
  duration_s: number
  elapsed_s: number
}

/** Series along the course for the charts (one entry per course segment). */
export type RideSeries = {
  distance_m: number[]
  altitude_m: number[]
  power_w: number[]
  speed_mps: number[]
  time_s: number[]
  w_prime_balance_j: number[]
}

export type PacingOutput = {
  type: 'pacing'
  status: 'optimal' | 'infeasible'
  reason: string | null
  /** Predicted time of the plan (the simplified, rideable one). */
  time_s: number
  /** Time of the unsimplified optimum (a bound the plan comes close to). */
  optimal_time_s: number
  baseline: { power_w: number; time_s: number } | null
  /**
   * Baseline (best constant power under the same constraint) minus the plan's time: what riding
   * the plan gains. Can be slightly negative when simplifying to a few targets costs more than
   * the optimum gained (flat, steady courses).
   */
  time_saved_s: number | null
  /** Baseline minus the unsimplified optimum's time (≥ 0: the optimizer is never slower). */
  optimal_time_saved_s: number | null
  average_power_w: number | null
  normalized_power_w: number | null
  min_w_prime_balance_j: number | null
  plan: PlanSection[]
  series: RideSeries | null
}

export type EquipmentOutput = {
  type: 'equipment'
  ranking: {
    choices: Record<string, string>
    time_s: number
    delta_s: number
    optimized: boolean
    delta_time: { distance_m: number[]; delta_s: number[] }
  }[]
  baseline: { choices: Record<string, string>; time_s: number }
  combinations: number
  optimized_count: number
  /** The optimal pacing of the fastest combination. */
  best: PacingOutput
}

export type RunOutput = PacingOutput | EquipmentOutput

const round = (x: number, digits: number) => {
  const f = 10 ** digits
  return Math.round(x * f) / f
}

function seriesOf(sim: SimulationResult, course: Course): RideSeries {
  const s = sim.segments
  const out: RideSeries = {
    distance_m: [],
    altitude_m: [],
    power_w: [],
    speed_mps: [],
    time_s: [],
    w_prime_balance_j: [],
  }
  for (let i = 0; i < s.count; i++) {
    out.distance_m.push(round(course.start[i + 1]!, 1))
    out.altitude_m.push(round(course.altitude[i + 1]!, 1))
    out.power_w.push(round(s.power[i]!, 1))
    out.speed_mps.push(round(s.speed[i]!, 3))
    out.time_s.push(round(s.time[i]!, 2))
    out.w_prime_balance_j.push(round(s.wPrimeBalance[i]!, 0))
  }
  return out
}

/** The plan's sections with the grade, speed and time the simulation of the plan gives them. */
function planOf(r: PacingResult, course: Course): PlanSection[] {
  const plan = r.plan
  const sim = plan?.simulation
  if (!plan || !sim) return []
  const s = sim.segments
  let i = 0
  return plan.sections.map((section) => {
    let length = 0
    let rise = 0
    let duration = 0
    while (i < s.count && course.start[i]! < section.endM - 1e-6) {
      length += course.length[i]!
      rise += course.grade[i]! * course.length[i]!
      duration += s.duration[i]!
      i++
    }
    return {
      start_m: round(section.startM, 1),
      end_m: round(section.endM, 1),
      label: section.label,
      grade: round(length > 0 ? rise / length : 0, 4),
      power_w: round(section.powerW, 1),
      speed_mps: round(duration > 0 ? length / duration : 0, 3),
      duration_s: round(duration, 1),
      elapsed_s: round(i > 0 ? s.time[i - 1]! : 0, 1),
    }
  })
}

function pacingOutput(r: PacingResult, course: Course): PacingOutput {
  const sim = r.plan?.simulation ?? r.simulation
  const time = r.plan && Number.isFinite(r.plan.timeS) ? r.plan.timeS : r.timeS
  return {
    type: 'pacing',
    status: r.status,
    reason: r.reason,
    time_s: time,
    optimal_time_s: r.timeS,
    baseline: r.baseline ? { power_w: r.baseline.powerW, time_s: r.baseline.timeS } : null,
    time_saved_s: r.baseline && r.status === 'optimal' ? r.baseline.timeS - time : null,
    optimal_time_saved_s: r.status === 'optimal' ? r.timeSavedS : null,
    average_power_w: sim?.averagePowerW ?? null,
    normalized_power_w: sim?.normalizedPowerW ?? null,
    min_w_prime_balance_j: sim?.minWPrimeBalanceJ ?? null,
    plan: planOf(r, course),
    series: sim ? seriesOf(sim, course) : null,
  }
}

function pacing(input: OptimizerInput, progress: Progress): PacingOutput {
  progress(5, 'Reading the inputs')
  const parsed = parseOptimizerInput(input)
  progress(10, `Optimizing the pacing over ${parsed.input.course.n} segments`)
  const result = optimizePacing(parsed.input)
  progress(95, 'Summarizing the plan')
  return pacingOutput(result, parsed.input.course)
}

function equipment(input: OptimizerInput, progress: Progress): EquipmentOutput {
  progress(5, 'Reading the inputs')
  const parsed = parseOptimizerInput(input)
  if (!parsed.equipment) throw new Error('equipment: expected option groups, got nothing')
  const course = parsed.input.course
  progress(10, 'Optimizing every equipment combination')
  const r = optimizeEquipment({ ...parsed.input, equipment: parsed.equipment })
  progress(95, 'Summarizing the ranking')
  return {
    type: 'equipment',
    ranking: r.ranking.map((c) => ({
      choices: c.choices,
      time_s: c.timeS,
      delta_s: c.deltaS,
      optimized: c.optimized,
      delta_time: {
        distance_m: Array.from(c.deltaSeries.distanceM, (d) => round(d, 1)),
        delta_s: Array.from(c.deltaSeries.deltaS, (d) => round(d, 3)),
      },
    })),
    baseline: { choices: r.baseline.choices, time_s: r.baseline.timeS },
    combinations: r.combinations,
    optimized_count: r.optimizedCount,
    best: pacingOutput(r.best, course),
  }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const tasks: Record<string, (input: any, progress: Progress) => unknown> = {
  pacing,
  equipment,
  'import-course': (input: { bytes: Uint8Array; fileName: string }) =>
    courseFromFile(input.bytes, input.fileName),
}
