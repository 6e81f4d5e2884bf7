// The pure tasks a worker thread runs: JSON in, JSON out, progress along the way. They call the
// engine and nothing else (no database, no files), so a thread can be killed at any moment.
import {
  courseFromSegments,
  simulate,
  type CourseSegmentInput,
  type Environment,
  type Rider,
  type SimulationResult,
} from '@veloptima/engine'

export type Progress = (progress: number, message?: string) => void

/** What every simulation-like task receives: the course, the rider and the conditions. */
export type EngineInput = {
  segments: CourseSegmentInput[]
  startAltitudeM: number
  rider: Rider
  environment: Environment
}

/** One row of a plan: a course segment with its target power and the predicted ride. */
export type PlanSection = {
  start_m: number
  end_m: number
  grade: number
  power_w: number
  speed_mps: number
  duration_s: number
  time_s: number
  w_prime_balance_j: number
}

export type RideSummary = {
  status: 'ok' | 'stalled'
  message: string | null
  time_s: number
  distance_m: number
  average_speed_mps: number
  average_power_w: number
  normalized_power_w: number
  work_j: number
  min_w_prime_balance_j: number | null
  w_prime_exhausted_at_s: number | null
  sections: PlanSection[]
}

/** The result of the constant-power task: the ride at one steady power, no optimization. */
export type ConstantPowerResult = RideSummary & { type: 'constant_power'; power_w: number }

const round = (x: number, digits: number) => {
  const f = 10 ** digits
  return Math.round(x * f) / f
}

export function summarizeRide(sim: SimulationResult, input: EngineInput): RideSummary {
  const s = sim.segments
  const sections: PlanSection[] = []
  let start = 0
  for (let i = 0; i < s.count; i++) {
    const seg = input.segments[i]!
    const end = start + seg.lengthM
    sections.push({
      start_m: round(start, 1),
      end_m: round(end, 1),
      grade: round(seg.grade, 5),
      power_w: round(s.power[i]!, 1),
      speed_mps: round(s.speed[i]!, 3),
      duration_s: round(s.duration[i]!, 2),
      time_s: round(s.time[i]!, 2),
      w_prime_balance_j: round(s.wPrimeBalance[i]!, 0),
    })
    start = end
  }
  return {
    status: sim.status,
    message: sim.message,
    time_s: sim.timeS,
    distance_m: sim.distanceM,
    average_speed_mps: sim.averageSpeedMps,
    average_power_w: sim.averagePowerW,
    normalized_power_w: sim.normalizedPowerW,
    work_j: sim.workJ,
    min_w_prime_balance_j: sim.minWPrimeBalanceJ,
    w_prime_exhausted_at_s: sim.wPrimeExhaustedAtS,
    sections,
  }
}

function constantPower(
  input: EngineInput & { powerW: number },
  progress: Progress,
): ConstantPowerResult {
  progress(5, 'Preparing the course')
  const course = courseFromSegments(input.segments, input.startAltitudeM)
  progress(10, `Simulating ${Math.round(input.powerW)} W over the course`)
  const sim = simulate({
    course,
    rider: input.rider,
    environment: input.environment,
    pacing: { type: 'constant', powerW: input.powerW },
  })
  progress(95, 'Summarizing')
  return { type: 'constant_power', power_w: input.powerW, ...summarizeRide(sim, input) }
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const tasks: Record<string, (input: any, progress: Progress) => unknown> = {
  'constant-power': constantPower,
}
