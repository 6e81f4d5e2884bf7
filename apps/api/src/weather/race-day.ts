// Race-day weather for an optimization run: when the optimization has an event start
// (`inputs.environment.event_start`, local date and time at the course), conditions along the
// course are fetched once (a handful of points, the ride's hours) and read at first-guess arrival
// times: a steady ride at the power the run's own constraint allows (the optimizer's baseline:
// the average or normalized power asked for, the work spread over the ride, or CP plus W′ spent
// over the ride), iterated with the forecast. The optimizer's scenario gets per-segment wind
// (rider height) and air; wind stretches typed by hand still win. Then `iterate` re-optimizes
// with the arrival times of the optimized plan itself, on the same fetched forecast, until they
// move by less than the forecast resolves (at most 3 more rounds), and the time range for the
// forecast's spread is that of the plan as ridden. Weather that cannot be had never fails the
// run: the typed inputs stay in charge and the result says why.
import type { RaceDayWeatherRecord, RaceDayWeatherUsed } from '@veloptima/contracts'
import type { CourseTrack, Db, JsonObject } from '@veloptima/db'
import {
  EngineInputError,
  forecastSensitivity,
  iterateArrival,
  iteratePlanArrival,
  pacingOf,
  simulationEvaluator,
  type ArrivalInput,
  type ArrivalOutcome,
  type CourseConditions,
  type Environment,
  type ForecastSensitivity,
  type PlanRound,
  type RunOutput,
  type SimulationResult,
} from '@veloptima/engine'
import {
  parseOptimizerInput,
  type OptimizerInput,
  type RunSnapshot,
} from '../jobs/engine-inputs.ts'
import type { Config } from '../config.ts'
import { courseTrack } from '../repositories/courses.ts'
import { WeatherUnavailable } from './errors.ts'
import { arrivalToleranceS, steadyPowerFor } from './arrival-tolerance.ts'
import { WeatherSource, type CoursePoint, type CourseWeather } from './source.ts'
import { pointsAlong } from './track-points.ts'

/** Re-optimizations with the plan's own arrival times, at most (docs/engine/weather.md). */
export const PLAN_ROUNDS = 3
/** Runs the optimizer (in a worker thread) on an input; `round` counts from 0. */
export type Optimize = (input: OptimizerInput, round: number) => Promise<RunOutput>

export interface RaceDayOutcome {
  /** The optimizer input with the forecast's fields (unchanged when the weather is unavailable). */
  input: OptimizerInput
  /** Stored with the result as `weather` (its contract: @veloptima/contracts weather.ts). */
  record: RaceDayWeatherRecord
  /**
   * With the forecast in use: optimizes with the first-guess arrivals, then again with the plan's
   * own arrival times until they settle; answers the last output, its input and the record.
   * `stage` hears when the rounds are over and the plan's forecast range is computed.
   */
  iterate?: (
    optimize: Optimize,
    stage?: (name: 'plan range') => void,
  ) => Promise<{
    output: RunOutput
    input: OptimizerInput
    record: RaceDayWeatherRecord
  }>
}

/** `YYYY-MM-DDTHH:mm` read as if UTC (the offset of the place is applied later). */
function localAsUtcS(text: string): number {
  const t = Date.parse(`${text}:00Z`)
  return Number.isFinite(t) ? t / 1000 : NaN
}

const round = (v: number, d = 2) => Math.round(v * 10 ** d) / 10 ** d

/** Index of the segment holding `distanceM` (clamped to the course). */
function segmentAt(start: ArrayLike<number>, n: number, distanceM: number): number {
  let i = 0
  while (i < n - 1 && start[i + 1]! <= distanceM) i++
  return i
}

type Arrival = NonNullable<RaceDayWeatherUsed['arrival']>

const roundRecord = (r: PlanRound): NonNullable<Arrival['rounds']>[number] => ({
  arrivals: r.arrivals,
  time_s: Number.isFinite(r.timeS) ? round(r.timeS, 1) : null,
  max_shift_s: Number.isFinite(r.maxShiftS) ? round(r.maxShiftS, 1) : null,
})

/** For the wind strip: the conditions on stretches of about 1/100 of the course. */
function stripOf(c: CourseConditions, start: ArrayLike<number>): RaceDayWeatherUsed['strip'] {
  const strip: RaceDayWeatherUsed['strip'] = []
  const step = Math.max(1, Math.ceil(c.n / 100))
  for (let i = 0; i < c.n; i += step) {
    const j = Math.min(c.n - 1, i + Math.floor(step / 2))
    strip.push({
      start_m: round(start[i]!, 0),
      end_m: round(start[Math.min(c.n, i + step)]!, 0),
      time: new Date(c.timeS[j]! * 1000).toISOString(),
      wind_speed_mps: round(c.windSpeedMps[j]!),
      wind_from_deg: round(c.windFromDeg[j]!, 0),
      gust_mps: Number.isFinite(c.gustMps[j]!) ? round(c.gustMps[j]!) : null,
      temperature_c: round(c.temperatureC[j]!, 1),
      air_density_kg_m3: round(c.rho[j]!, 4),
    })
  }
  return strip
}

/**
 * The range for the forecast's spread: the plan's powers ridden in the changed forecasts (arrival
 * times iterated again for each). Without a plan, or when a changed forecast puts the plan's ride
 * outside the fetched hours (the engine's input error), the steady ride's range stays.
 */
export function planSensitivity(
  arrival: ArrivalInput<unknown>,
  planEvaluate: ArrivalInput<unknown>['evaluate'] | null,
  steady: ForecastSensitivity,
): { sensitivity: ForecastSensitivity; of: 'plan' | 'steady ride' } {
  if (!planEvaluate) return { sensitivity: steady, of: 'steady ride' }
  try {
    return { sensitivity: forecastSensitivity({ ...arrival, evaluate: planEvaluate }), of: 'plan' }
  } catch (error) {
    if (!(error instanceof EngineInputError)) throw error
    return { sensitivity: steady, of: 'steady ride' }
  }
}

/** The optimization's event start (local date and time at the course), or null without one. */
export function eventStartOf(snapshot: RunSnapshot): string | null {
  const env = ((snapshot.optimization.inputs ?? {}) as { environment?: { event_start?: unknown } })
    .environment
  return typeof env?.event_start === 'string' ? env.event_start : null
}

/** The reason and message of a course without positions to read the weather at. */
export const NO_POSITIONS = {
  reason: 'no_positions',
  message: 'the course has no positions (latitude/longitude) to read the weather at',
} as const

/** The course's track when it has positions to read the weather at (at least two), else null. */
export async function positionedTrack(db: Db, courseId: string): Promise<CourseTrack | null> {
  const track = await courseTrack(db, courseId)
  if (!track || track.lat.length < 2 || track.distance.length !== track.lat.length) return null
  return track
}

type Unavailable = (reason: string, message: string) => RaceDayOutcome

/** What the forecast of a run is read with: its inputs, the fetched weather and the start. */
type RaceDayContext = {
  input: OptimizerInput
  parsed: ReturnType<typeof parseOptimizerInput>['input']
  eventStart: string
  points: CoursePoint[]
  weather: CourseWeather
  /** The start in UTC (unix s). */
  startS: number
  /** The typed environment without its wind stretches, and the stretches typed by hand. */
  base: Environment
  manual: NonNullable<Environment['windSegments']>
}

/** The first-guess ride: a steady power meeting the constraint, arrivals iterated with the forecast. */
type SteadyRide = {
  arrival: ArrivalInput<SimulationResult>
  outcome: ArrivalOutcome<SimulationResult>
  powerW: number
}

/** A simulation of the parsed input paced as `pacing`. */
function evaluatorFor(
  parsed: RaceDayContext['parsed'],
  course: RaceDayContext['parsed']['course'],
  pacing: Parameters<typeof simulationEvaluator>[0]['pacing'],
) {
  return simulationEvaluator({
    course,
    rider: parsed.rider,
    ...(parsed.options ? { options: parsed.options } : {}),
    pacing,
  })
}

/**
 * First-guess arrival times from a steady ride at the power the constraint allows (its time
 * decides it for the work and W′ constraints: a few rounds, each iterated with the forecast).
 */
function steadyRide(ctx: RaceDayContext): SteadyRide {
  const { parsed } = ctx
  const constraint = parsed.pacing.constraint
  const powerW =
    constraint.type === 'work'
      ? parsed.rider.cpW
        ? round(0.9 * parsed.rider.cpW, 0)
        : 200
      : steadyPowerFor(parsed.pacing, parsed.rider, Infinity)
  const arrival: ArrivalInput<SimulationResult> = {
    course: parsed.course,
    forecast: ctx.weather.forecast,
    startTimeS: ctx.startS,
    baseEnvironment: ctx.base,
    manualWind: ctx.manual,
    evaluate: evaluatorFor(parsed, parsed.course, { type: 'constant', powerW }),
  }
  return rideSteadily(ctx, { arrival, outcome: iterateArrival(arrival), powerW })
}

/** Iterates the steady power with the ride's time until it settles (at most 4 more rounds). */
function rideSteadily(ctx: RaceDayContext, ride: SteadyRide): SteadyRide {
  const { parsed } = ctx
  let { outcome, powerW } = ride
  for (let k = 0; k < 4 && Number.isFinite(outcome.timeS); k++) {
    const next = steadyPowerFor(parsed.pacing, parsed.rider, outcome.timeS)
    if (Math.abs(next - powerW) < 1) break
    powerW = next
    ride.arrival.evaluate = evaluatorFor(parsed, parsed.course, { type: 'constant', powerW })
    outcome = iterateArrival(ride.arrival)
  }
  return { arrival: ride.arrival, outcome, powerW }
}

/** The optimizer input with an environment's per-segment wind and air. */
function inputWith(input: OptimizerInput, env: Environment): OptimizerInput {
  const scenario = { ...input.scenario }
  const environment = { ...(scenario.environment as JsonObject) }
  environment.wind_segments = (env.windSegments ?? []).map((w) => ({
    start_m: w.startM,
    end_m: w.endM,
    wind_speed_mps: round(w.speedMps, 3),
    wind_from_deg: round(w.fromDeg, 1) % 360,
  }))
  environment.air_segments = (env.airSegments ?? []).map((a) => ({
    start_m: a.startM,
    end_m: a.endM,
    temperature_c: round(a.temperatureC, 2),
    pressure_pa: round(a.pressurePa, 0),
    relative_humidity: round(a.relativeHumidity, 3),
    altitude_m: round(a.altitudeM, 1),
  }))
  scenario.environment = environment
  return { ...input, scenario }
}

/** The record of the conditions an input was made of (and how the arrivals were found). */
function recordFor(
  ctx: RaceDayContext,
  c: CourseConditions,
  arrival: Arrival,
  sensitivity: ForecastSensitivity,
  of: 'steady ride' | 'plan',
): RaceDayWeatherUsed {
  const { weather, startS } = ctx
  const course = ctx.parsed.course
  return {
    status: 'used',
    source: weather.forecast.source ?? 'open-meteo',
    kind: weather.kind,
    event_start: ctx.eventStart,
    start_utc: new Date(startS * 1000).toISOString(),
    utc_offset_s: weather.utcOffsetS,
    issued_at: new Date(weather.fetchedAtS * 1000).toISOString(),
    // The forecast points with the wind the rider meets there (for the map).
    points: ctx.points.map((p) => {
      const i = segmentAt(course.start, course.n, p.distanceM)
      return {
        distance_m: round(p.distanceM, 0),
        lat: round(p.latDeg, 5),
        lon: round(p.lonDeg, 5),
        time: new Date(c.timeS[i]! * 1000).toISOString(),
        wind_speed_mps: round(c.windSpeedMps[i]!),
        wind_speed_10m_mps: round(c.wind10Mps[i]!),
        wind_from_deg: round(c.windFromDeg[i]!, 0) % 360,
      }
    }),
    wind_height_factor: round(c.heightFactor, 3),
    manual_wind_segments: ctx.manual.length,
    arrival,
    sensitivity: {
      of,
      wind_delta_mps: sensitivity.windDeltaMps,
      direction_delta_deg: sensitivity.directionDeltaDeg,
      base_s: round(sensitivity.baseS, 1),
      min_s: round(sensitivity.minS, 1),
      max_s: round(sensitivity.maxS, 1),
    },
    strip: stripOf(c, course.start),
  }
}

/** The steady ride's outcome, with what `iterate` needs to re-optimize with the plan's arrivals. */
type SteadyOutcome = {
  ride: SteadyRide
  firstGuess: Arrival['first_guess']
  toleranceS: number
  steadySensitivity: ForecastSensitivity
}

/**
 * Optimizes with the first-guess arrivals, then again with the plan's own arrival times until
 * they settle; the range for the forecast's spread is that of the plan as ridden.
 */
async function iterateWithPlan(
  ctx: RaceDayContext,
  steady: SteadyOutcome,
  optimize: Optimize,
  stage?: (name: 'plan range') => void,
) {
  const { parsed, weather } = ctx
  const course = parsed.course
  const planned = await iteratePlanArrival({
    course,
    forecast: weather.forecast,
    startTimeS: ctx.startS,
    firstGuessS: steady.ride.outcome.conditions.timeS,
    baseEnvironment: ctx.base,
    manualWind: ctx.manual,
    optimize: (env, r) => optimize(inputWith(ctx.input, env), r),
    timelineOf: (o) => {
      const p = pacingOf(o)
      return p.status === 'optimal' && p.series
        ? { distanceM: p.series.distance_m, elapsedS: p.series.time_s, timeS: p.time_s }
        : null
    },
    toleranceS: steady.toleranceS,
    maxRounds: PLAN_ROUNDS,
  })
  stage?.('plan range')
  const plan = pacingOf(planned.result)
  const { sensitivity, of } = planSensitivity(
    steady.ride.arrival,
    plan.status === 'optimal' && plan.series
      ? evaluatorFor(parsed, course, { type: 'plan', powerW: plan.series.power_w })
      : null,
    steady.steadySensitivity,
  )
  return {
    output: planned.result,
    input: inputWith(ctx.input, planned.environment),
    record: recordFor(
      ctx,
      planned.conditions,
      {
        first_guess: steady.firstGuess,
        tolerance_s: steady.toleranceS,
        rounds: planned.rounds.map(roundRecord),
        converged: planned.converged,
        ...(planned.stoppedBy ? { stopped_by: planned.stoppedBy } : {}),
      },
      sensitivity,
      of,
    ),
  }
}

export class RaceDayWeather {
  constructor(
    private readonly db: Db,
    private readonly source: WeatherSource,
  ) {}

  /** Null when the optimization has no event start (the typed inputs apply, nothing to say). */
  async forRun(snapshot: RunSnapshot, input: OptimizerInput): Promise<RaceDayOutcome | null> {
    const eventStart = eventStartOf(snapshot)
    if (eventStart === null) return null
    const unavailable: Unavailable = (reason, message) => ({
      input,
      record: { status: 'unavailable', reason, message, event_start: eventStart },
    })
    const local = localAsUtcS(eventStart)
    if (!Number.isFinite(local))
      return unavailable('invalid_start', `event_start ${eventStart} is not a date and time`)
    const track = await positionedTrack(this.db, snapshot.course.id)
    if (!track) return unavailable(NO_POSITIONS.reason, NO_POSITIONS.message)
    try {
      return await this.withForecast(input, eventStart, local, track, unavailable)
    } catch (error) {
      const e = error as Error & { field?: string }
      if (error instanceof WeatherUnavailable) return unavailable(error.reason, error.message)
      if (e.name === 'EngineInputError') return unavailable('not_covered', e.message)
      // Anything else (the cache's database, say): the run goes on with the typed inputs.
      return unavailable('error', `the weather could not be used (${e.message.slice(0, 200)})`)
    }
  }

  /** Fetches the ride's hours, finds the steady ride's arrivals and the input made of them. */
  private async withForecast(
    input: OptimizerInput,
    eventStart: string,
    local: number,
    track: CourseTrack,
    unavailable: Unavailable,
  ): Promise<RaceDayOutcome> {
    const parsed = parseOptimizerInput(input).input
    const points = pointsAlong(track)
    // Hours to fetch: the local start ± the widest zone offsets, plus a slow ride (5 m/s) + 1 h.
    const rideS = track.distance[track.distance.length - 1]! / 5 + 3600
    const weather = await this.source.alongCourse(
      points,
      local - 14 * 3600,
      local + 14 * 3600 + rideS,
    )
    const startS = local - weather.utcOffsetS
    // `iterate` replaces the steady ride's arrivals with the optimized plan's own.
    const base: Environment = { ...parsed.environment }
    delete base.windSegments
    const manual = parsed.environment?.windSegments ?? []
    const ctx: RaceDayContext = { input, parsed, eventStart, points, weather, startS, base, manual }
    let ride = steadyRide(ctx)
    if (!Number.isFinite(ride.outcome.timeS)) {
      return unavailable(
        'not_finished',
        `a steady ${ride.powerW} W does not finish this course: no arrival times`,
      )
    }
    // A ride longer than the hours fetched: fetch exactly its hours and iterate again.
    if (startS + ride.outcome.timeS + 3600 > local + 14 * 3600 + rideS) {
      ctx.weather = await this.source.alongCourse(
        points,
        startS,
        startS + 2 * ride.outcome.timeS + 3600,
      )
      ride.arrival.forecast = ctx.weather.forecast
      ride = rideSteadily(ctx, { ...ride, outcome: iterateArrival(ride.arrival) })
    }
    return this.steadyOutcome(ctx, ride)
  }

  private steadyOutcome(ctx: RaceDayContext, ride: SteadyRide): RaceDayOutcome {
    const { outcome } = ride
    const steady: SteadyOutcome = {
      ride,
      firstGuess: {
        power_w: ride.powerW,
        iterations: outcome.iterations,
        converged: outcome.converged,
        time_s: round(outcome.timeS, 1),
      },
      // The plan's arrivals lie near the steady ride's: the slopes of these hours decide.
      toleranceS: arrivalToleranceS(
        ctx.weather.forecast,
        ctx.startS,
        ctx.startS + 1.25 * outcome.timeS + 3600,
      ),
      steadySensitivity: forecastSensitivity(ride.arrival),
    }
    const record = recordFor(
      ctx,
      outcome.conditions,
      { first_guess: steady.firstGuess, rounds: [], converged: false },
      steady.steadySensitivity,
      'steady ride',
    )
    return {
      input: inputWith(ctx.input, outcome.environment),
      record,
      iterate: (optimize, stage) => iterateWithPlan(ctx, steady, optimize, stage),
    }
  }
}

/** The race-day weather of this process, configured by WEATHER_PROVIDER and WEATHER_URL. */
export function raceDayWeather(db: Db, config: Pick<Config, 'WEATHER_PROVIDER' | 'WEATHER_URL'>) {
  return new RaceDayWeather(db, new WeatherSource(db, config))
}
