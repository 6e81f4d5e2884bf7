// The arrival-time iteration: the conditions a rider meets depend on when they get to each part
// of the course, which depends on the conditions. Simulate with the forecast at the start time
// everywhere, take the predicted time at each segment, read the forecast there and then,
// simulate again, until the finish time moves by less than the tolerance (1 s).
import type { Course } from '../course/types.ts'
import type { Environment, WindSegment } from '../sim/model.ts'
import { simulate } from '../sim/simulate.ts'
import type { SimulationInput, SimulationResult } from '../sim/simulate.ts'
import { requireNumber } from '../sim/validate.ts'
import { conditionsAlongCourse, forecastEnvironment } from './conditions.ts'
import type { CourseConditions } from './conditions.ts'
import { validateForecast } from './forecast.ts'
import type { Forecast } from './forecast.ts'
import type { WindProfile } from './profile.ts'

/** What one evaluation (a simulation, or an optimization) tells the iteration. */
export interface Evaluation<R> {
  /** Finish time from the start (s); not finite = the rider did not finish. */
  timeS: number
  /** Elapsed time at each segment's end (s), `count` valid entries. */
  segmentEndS: ArrayLike<number>
  count: number
  result: R
}

export interface ArrivalInput<R> {
  course: Course
  forecast: Forecast
  /** Start of the ride (unix seconds). */
  startTimeS: number
  /** Everything but the forecast's fields (rider options, fallback air). */
  baseEnvironment?: Environment
  /** Wind stretches typed by hand: they win over the forecast. */
  manualWind?: readonly WindSegment[]
  profile?: WindProfile
  /** Runs the model on an environment. */
  evaluate: (env: Environment) => Evaluation<R>
  /** Stop when the finish time moves less than this (s); default 1. */
  toleranceS?: number
  /** Default 8. */
  maxIterations?: number
}

export interface ArrivalOutcome<R> {
  result: R
  timeS: number
  environment: Environment
  conditions: CourseConditions
  /** Evaluations run (the first one with the start time everywhere included). */
  iterations: number
  /** Finish time after each evaluation (s). */
  history: number[]
  converged: boolean
}

/** Unix time at each segment's middle from an evaluation (beyond a stall: the stall time). */
function midTimes(startS: number, e: Evaluation<unknown>, n: number): Float64Array {
  const t = new Float64Array(n)
  let prev = 0
  let last = 0
  for (let i = 0; i < n; i++) {
    if (i < e.count && Number.isFinite(e.segmentEndS[i]!)) {
      const end = e.segmentEndS[i]!
      t[i] = startS + 0.5 * (prev + end)
      prev = end
      last = end
    } else {
      t[i] = startS + last
    }
  }
  return t
}

export function iterateArrival<R>(input: ArrivalInput<R>): ArrivalOutcome<R> {
  const { course, forecast } = input
  validateForecast(forecast)
  const start = requireNumber('startTimeS', input.startTimeS, -1e10, 1e11)
  const tol = requireNumber('toleranceS', input.toleranceS ?? 1, 0, 3600, true)
  const maxIt = requireNumber('maxIterations', input.maxIterations ?? 8, 1, 100)
  const base = input.baseEnvironment ?? {}
  const manual = input.manualWind ?? []
  let times: Float64Array = new Float64Array(course.n).fill(start)
  const history: number[] = []
  let conditions = conditionsAlongCourse(course, forecast, times, input.profile)
  let environment = forecastEnvironment(course, conditions, base, manual)
  let e = input.evaluate(environment)
  history.push(e.timeS)
  let converged = false
  while (history.length < maxIt && Number.isFinite(e.timeS)) {
    times = midTimes(start, e, course.n)
    conditions = conditionsAlongCourse(course, forecast, times, input.profile)
    environment = forecastEnvironment(course, conditions, base, manual)
    const next = input.evaluate(environment)
    const moved = Math.abs(next.timeS - e.timeS)
    e = next
    history.push(e.timeS)
    if (moved < tol) {
      converged = true
      break
    }
  }
  return {
    result: e.result,
    timeS: e.timeS,
    environment,
    conditions,
    iterations: history.length,
    history,
    converged,
  }
}

/** A simulation as an evaluation. */
export function simulationEvaluator(
  input: Omit<SimulationInput, 'environment'>,
): (env: Environment) => Evaluation<SimulationResult> {
  return (environment) => {
    const r = simulate({ ...input, environment })
    return {
      timeS: r.status === 'ok' ? r.timeS : Infinity,
      segmentEndS: r.segments.time,
      count: r.segments.count,
      result: r,
    }
  }
}
