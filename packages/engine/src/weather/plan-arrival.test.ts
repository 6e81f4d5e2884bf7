// Arrival times from the optimized plan: a real pacing optimization (optimizePacing) inside the
// iteration, with a forecast that turns from calm to a strong headwind at 09:00, so where the
// plan puts the rider at 09:00 decides the conditions — and the first guess (a slow steady ride)
// is wrong by many minutes.
import { describe, expect, it } from 'vitest'
import { courseFromSegments } from '../course/types.ts'
import { optimizePacing } from '../optimize/positions.ts'
import { pacingOutput } from '../optimize/run-output.ts'
import type { PacingOutput } from '../optimize/run-output.ts'
import type { Rider } from '../sim/model.ts'
import { simulate } from '../sim/simulate.ts'
import { iterateArrival, simulationEvaluator } from './arrival.ts'
import { conditionsAt } from './forecast.ts'
import type { Forecast, ForecastPoint } from './forecast.ts'
import { arrivalTimesFromTimeline, iteratePlanArrival } from './plan-arrival.ts'
import { cpRider } from '../../test/fixtures.ts'

const T0 = Date.UTC(2026, 6, 1, 8) / 1000 // 2026-07-01 08:00 UTC
const H = 3600

function point(distanceM: number, speed: (k: number) => number, fromDeg: number): ForecastPoint {
  const ks = [0, 1, 2, 3, 4, 5]
  return {
    distanceM,
    elevationM: 0,
    timeS: ks.map((k) => T0 + k * H),
    windSpeedMps: ks.map(speed),
    windFromDeg: ks.map(() => fromDeg),
    temperatureC: ks.map((k) => 16 + k),
    relativeHumidity: ks.map(() => 0.5),
    surfacePressurePa: ks.map(() => 101325),
  }
}

// 40 km north, rolling (alternating ±3 % every 1 km), so the optimized plan is not a steady power.
const course = courseFromSegments(
  Array.from({ length: 80 }, (_, i) => ({
    lengthM: 500,
    grade: Math.floor(i / 2) % 2 === 0 ? 0.03 : -0.03,
    headingDeg: 0,
  })),
)
// Calm until 08:00–09:00, then 10 m/s (10 m) from the north: a headwind all the way.
const forecast: Forecast = {
  points: [point(0, (k) => (k === 0 ? 0 : 10), 0), point(40_000, (k) => (k === 0 ? 0 : 10), 5)],
}
const rider: Rider = { ...cpRider, massKg: 72, maxPowerW: 900 }

const optimize = async (environment: Parameters<typeof simulate>[0]['environment']) =>
  pacingOutput(
    optimizePacing({
      course,
      rider,
      environment: environment!,
      pacing: { constraint: { type: 'average_power', powerW: 260 }, maxTargets: 6 },
    }),
    course,
  )
const timelineOf = (o: PacingOutput) =>
  o.status === 'optimal' && o.series
    ? { distanceM: o.series.distance_m, elapsedS: o.series.time_s, timeS: o.time_s }
    : null

/** The plan iteration on this course and forecast, from `startTimeS` and the given first guess. */
const iterate = (
  startTimeS: number,
  firstGuessS: ArrayLike<number>,
  more: { maxRounds?: number } = {},
) =>
  iteratePlanArrival({ course, forecast, startTimeS, firstGuessS, optimize, timelineOf, ...more })

describe('arrival times from the optimized plan', () => {
  it('interpolates a timeline at the segments’ middles (from 0 m, 0 s)', () => {
    const c = courseFromSegments([
      { lengthM: 100, grade: 0 },
      { lengthM: 100, grade: 0 },
      { lengthM: 200, grade: 0 },
    ])
    const t = arrivalTimesFromTimeline(c, 1000, {
      distanceM: [100, 200, 400],
      elapsedS: [10, 30, 50],
      timeS: 50,
    })
    expect(Array.from(t)).toEqual([1005, 1020, 1040])
  })

  it('iterates to the plan’s own arrival times; the answer depends on them', async () => {
    // First guess: a steady 180 W ride, much slower than the 260 W plan, so it places the
    // rider in the 09:00 headwind far too early along the course.
    const steady = iterateArrival({
      course,
      forecast,
      startTimeS: T0 + 0.5 * H,
      evaluate: simulationEvaluator({ course, rider, pacing: { type: 'constant', powerW: 180 } }),
    })
    const out = await iterate(T0 + 0.5 * H, steady.conditions.timeS)
    expect(out.converged).toBe(true)
    expect(out.rounds[0]!.arrivals).toBe('first-guess')
    // The first guess was off by minutes; the last round moved arrivals by less than a minute.
    expect(out.rounds[0]!.maxShiftS).toBeGreaterThan(120)
    expect(out.rounds.length).toBeGreaterThanOrEqual(2)
    expect(out.rounds.length).toBeLessThanOrEqual(4)
    expect(out.rounds.at(-1)!.maxShiftS).toBeLessThan(60)
    // The plan optimized with its own arrival times meets the headwind later: faster than the
    // plan optimized with the steady ride's arrivals.
    expect(out.rounds[0]!.timeS - out.result.time_s).toBeGreaterThan(30)
    // Self-consistency: the wind used on each segment is the forecast's at the arrival times of
    // the returned plan, up to the < 60 s tolerance (10 m/s over an hour: < 0.2 m/s at 10 m).
    const own = arrivalTimesFromTimeline(course, T0 + 0.5 * H, timelineOf(out.result)!)
    let worst = 0
    for (let i = 0; i < course.n; i++) {
      const mid = 0.5 * (course.start[i]! + course.start[i + 1]!)
      const c = conditionsAt(forecast, mid, own[i]!, 0)
      worst = Math.max(worst, Math.abs(c.windSpeedMps - out.conditions.wind10Mps[i]!))
    }
    expect(worst).toBeLessThan((10 * 60) / 3600 + 1e-9)
    // The plan re-simulated in the environment it was optimized with gives its time.
    const again = simulate({
      course,
      rider,
      environment: out.environment,
      pacing: { type: 'plan', powerW: out.result.series!.power_w },
    })
    expect(Math.abs(again.timeS - out.result.time_s)).toBeLessThan(1)
  })

  it('stops after maxRounds re-optimizations without claiming convergence', async () => {
    const out = await iterate(T0 + 0.5 * H, new Float64Array(course.n).fill(T0 + 0.5 * H), {
      maxRounds: 0,
    })
    expect(out.rounds).toHaveLength(1)
    expect(out.converged).toBe(false)
  })

  it('refuses a first guess of the wrong length, naming the field', async () => {
    await expect(iterate(T0, [T0])).rejects.toThrow(
      /firstGuessS: expected 80 times \(one per segment\), got 1/,
    )
  })
})

describe('a plan beyond the forecast’s hours', () => {
  it('keeps the last plan and says why instead of extrapolating', async () => {
    // Starting at 12:30 with hours to 13:00: the first guess (start time everywhere) is covered,
    // the plan's own arrivals (≈ 1.5 h later) are not.
    const out = await iterate(T0 + 4.5 * H, new Float64Array(course.n).fill(T0 + 4.5 * H))
    expect(out.converged).toBe(false)
    expect(out.rounds).toHaveLength(1)
    expect(out.stoppedBy).toMatch(/forecast: expected hours covering/)
    expect(out.result.status).toBe('optimal')
  })
})
