// Arrival times from the optimized plan (docs/engine/weather.md): conditions are read at the time
// the rider is predicted to be there, and that time depends on the plan, so it iterates. The first optimization reads the
// forecast at first-guess arrival times (a steady ride, arrival.ts); the plan it returns has its
// own timeline, which gives new arrival times; the forecast is read again there and the course
// optimized again, until no segment's arrival moves by more than the tolerance (60 s) or the
// rounds run out. The optimizer is a callback (async: the API runs it in a worker thread).
import type { Course } from '../course/types.ts'
import type { Environment, WindSegment } from '../sim/model.ts'
import { EngineInputError, requireNumber } from '../sim/validate.ts'
import { conditionsAlongCourse, forecastEnvironment } from './conditions.ts'
import type { CourseConditions } from './conditions.ts'
import { validateForecast } from './forecast.ts'
import type { Forecast } from './forecast.ts'
import type { WindProfile } from './profile.ts'

/** A plan's timeline: elapsed time (s from the start) at increasing distances along the course. */
export interface PlanTimeline {
  distanceM: ArrayLike<number>
  elapsedS: ArrayLike<number>
  /** The plan's finish time (s). */
  timeS: number
}

/** One optimization of the iteration. */
export interface PlanRound {
  /** Where the arrival times it was optimized with came from. */
  arrivals: 'first-guess' | 'plan'
  /** Finish time of the plan it produced (s); NaN when it gave no timeline. */
  timeS: number
  /** Largest change of a segment's arrival time between its inputs and its own plan (s). */
  maxShiftS: number
}

export interface PlanArrivalInput<R> {
  course: Course
  forecast: Forecast
  /** Start of the ride (unix seconds). */
  startTimeS: number
  /** Unix time at each segment's middle for the first optimization (e.g. a steady ride's). */
  firstGuessS: ArrayLike<number>
  baseEnvironment?: Environment
  /** Wind stretches typed by hand: they win over the forecast. */
  manualWind?: readonly WindSegment[]
  profile?: WindProfile
  /** Optimizes with an environment; `round` counts from 0. */
  optimize: (env: Environment, round: number) => Promise<R>
  /** The timeline of a result's plan, or null when it has none (infeasible): the iteration stops. */
  timelineOf: (result: R) => PlanTimeline | null
  /** Stop when no arrival moves more than this (s); default 60. */
  toleranceS?: number
  /** Re-optimizations after the first at most; default 3. */
  maxRounds?: number
}

export interface PlanArrivalOutcome<R> {
  result: R
  /** The environment and conditions the returned result was optimized with. */
  environment: Environment
  conditions: CourseConditions
  rounds: PlanRound[]
  /** The returned plan's own arrivals are within the tolerance of those it was optimized with. */
  converged: boolean
  /** Why the iteration stopped early: the forecast does not cover the plan's hours (its message). */
  stoppedBy?: string
}

/**
 * Unix time at each segment's middle from a timeline (linear in distance between its points,
 * starting at (0 m, 0 s); beyond its last point the last time is held).
 */
export function arrivalTimesFromTimeline(
  course: Course,
  startTimeS: number,
  timeline: PlanTimeline,
): Float64Array {
  const d = timeline.distanceM
  const t = timeline.elapsedS
  if (d.length !== t.length || d.length === 0) {
    throw new EngineInputError(
      'timeline',
      `expected as many times as distances (at least one), got ${t.length} and ${d.length}`,
    )
  }
  const out = new Float64Array(course.n)
  let k = -1 // d[k] ≤ x < d[k + 1], k = −1: before the first point (from 0 m, 0 s)
  for (let i = 0; i < course.n; i++) {
    const x = 0.5 * (course.start[i]! + course.start[i + 1]!)
    while (k + 1 < d.length && d[k + 1]! <= x) k++
    const x0 = k < 0 ? 0 : d[k]!
    const t0 = k < 0 ? 0 : t[k]!
    if (k + 1 >= d.length) {
      out[i] = startTimeS + t0
      continue
    }
    const x1 = d[k + 1]!
    const t1 = t[k + 1]!
    const f = x1 > x0 ? (x - x0) / (x1 - x0) : 0
    const e = t0 + f * (t1 - t0)
    if (!Number.isFinite(e)) {
      throw new EngineInputError(`timeline.elapsedS[${k + 1}]`, `expected a number, got ${t1}`)
    }
    out[i] = startTimeS + e
  }
  return out
}

function maxShift(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let m = 0
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i]! - b[i]!))
  return m
}

export async function iteratePlanArrival<R>(
  input: PlanArrivalInput<R>,
): Promise<PlanArrivalOutcome<R>> {
  const { course, forecast } = input
  validateForecast(forecast)
  const start = requireNumber('startTimeS', input.startTimeS, -1e10, 1e11)
  const tol = requireNumber('toleranceS', input.toleranceS ?? 60, 0, 3600, true)
  const maxRounds = requireNumber('maxRounds', input.maxRounds ?? 3, 0, 20)
  if (input.firstGuessS.length !== course.n) {
    throw new EngineInputError(
      'firstGuessS',
      `expected ${course.n} times (one per segment), got ${input.firstGuessS.length}`,
    )
  }
  const base = input.baseEnvironment ?? {}
  const manual = input.manualWind ?? []
  let times: Float64Array = Float64Array.from(input.firstGuessS)
  let conditions = conditionsAlongCourse(course, forecast, times, input.profile)
  let environment = forecastEnvironment(course, conditions, base, manual)
  let result = await input.optimize(environment, 0)
  const rounds: PlanRound[] = []
  let converged = false
  for (let round = 0; ; round++) {
    const timeline = input.timelineOf(result)
    if (!timeline) {
      rounds.push({
        arrivals: round === 0 ? 'first-guess' : 'plan',
        timeS: NaN,
        maxShiftS: NaN,
      })
      break
    }
    const next = arrivalTimesFromTimeline(course, start, timeline)
    const shift = maxShift(next, times)
    rounds.push({
      arrivals: round === 0 ? 'first-guess' : 'plan',
      timeS: timeline.timeS,
      maxShiftS: shift,
    })
    if (shift < tol) {
      converged = true
      break
    }
    if (round >= maxRounds) break
    let nextConditions: CourseConditions
    try {
      nextConditions = conditionsAlongCourse(course, forecast, next, input.profile)
    } catch (error) {
      // The plan rides into hours the forecast does not have: keep the last plan, say why.
      if (!(error instanceof EngineInputError)) throw error
      return { result, environment, conditions, rounds, converged, stoppedBy: error.message }
    }
    times = next
    conditions = nextConditions
    environment = forecastEnvironment(course, conditions, base, manual)
    result = await input.optimize(environment, round + 1)
  }
  return { result, environment, conditions, rounds, converged }
}
