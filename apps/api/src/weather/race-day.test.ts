// Forecast points along a course's track: the start, the finish and evenly between, positions
// interpolated linearly between the track's points (plain arithmetic here). How far arrival times
// may move before the forecast read there changes by more than it resolves, and the steady power
// each constraint allows (arithmetic on the forecast's hourly values). And the time range
// for the forecast's spread when a changed forecast of the plan's ride falls outside the fetched
// hours: the steady ride's range is kept, with real simulations on a real
// forecast whose hours end just after the plan's finish.
import { describe, expect, it } from 'vitest'
import {
  courseFromSegments,
  EngineInputError,
  forecastSensitivity,
  iterateArrival,
  simulationEvaluator,
  type ArrivalInput,
  type Forecast,
  type ForecastPoint,
  type Rider,
} from '@veloptima/engine'
import { arrivalToleranceS, steadyPowerFor } from './arrival-tolerance.ts'
import { planSensitivity } from './race-day.ts'
import { pointsAlong } from './track-points.ts'

describe('pointsAlong', () => {
  it('six points at even distances, positions between the track points', () => {
    const track = { lat: [45, 45.1, 45.1], lon: [6, 6, 6.2], distance: [0, 10_000, 25_000] }
    const p = pointsAlong(track)
    expect(p.map((x) => x.distanceM)).toEqual([0, 5000, 10_000, 15_000, 20_000, 25_000])
    expect(p[1]!.latDeg).toBeCloseTo(45.05, 12)
    expect(p[2]!.latDeg).toBeCloseTo(45.1, 12)
    // 15 km: a third of the way along the second leg (10 → 25 km).
    expect(p[3]!.lonDeg).toBeCloseTo(6 + 0.2 / 3, 12)
    expect(p[5]).toEqual({ latDeg: 45.1, lonDeg: 6.2, distanceM: 25_000 })
  })
})

describe('arrivalToleranceS', () => {
  const H = 3600
  const T0 = Date.UTC(2026, 6, 1, 6) / 1000
  const hours = [0, 1, 2, 3, 4].map((k) => T0 + k * H)
  const point = (distanceM: number, change: Partial<ForecastPoint> = {}): ForecastPoint => ({
    distanceM,
    elevationM: 100,
    timeS: hours,
    windSpeedMps: [4, 4, 4, 4, 4],
    windFromDeg: [200, 200, 200, 200, 200],
    temperatureC: [15, 15, 15, 15, 15],
    relativeHumidity: [0.6, 0.6, 0.6, 0.6, 0.6],
    surfacePressurePa: [100_000, 100_000, 100_000, 100_000, 100_000],
    ...change,
  })
  const tolerance = (...points: ForecastPoint[]) => arrivalToleranceS({ points }, T0, T0 + 4 * H)

  it('a forecast that does not change: one forecast step', () => {
    expect(tolerance(point(0), point(10_000))).toBe(3600)
  })

  it('the steepest value decides: 0.1 °C of a 1 °C an hour rise is 6 minutes', () => {
    const warming = point(10_000, { temperatureC: [15, 16, 17, 18, 19] })
    expect(tolerance(point(0), warming)).toBe(360)
    // 2 % humidity an hour: 1 % in 30 minutes, less steep than the warming.
    const drying = point(0, { relativeHumidity: [0.6, 0.58, 0.56, 0.54, 0.52] })
    expect(tolerance(drying)).toBe(1800)
    expect(tolerance(drying, warming)).toBe(360)
  })

  it('wind counts as a vector: a 90° veer of a 4 m/s wind is 5.66 m/s of change', () => {
    const veer = point(0, { windFromDeg: [200, 290, 290, 290, 290] })
    // 0.1 m/s of 4 × √2 m/s in an hour.
    expect(tolerance(veer)).toBe(Math.round((0.1 / (4 * Math.SQRT2)) * 3600))
  })

  it('never below a minute (a gale rising 10 m/s in an hour), hours outside the ride aside', () => {
    const gale = point(0, { windSpeedMps: [4, 14, 14, 14, 14] })
    expect(tolerance(gale)).toBe(60)
    // The same gale before the ride: the ride's own hours are calm.
    expect(arrivalToleranceS({ points: [gale] }, T0 + 1.5 * H, T0 + 3.5 * H)).toBe(3600)
  })
})

describe('steadyPowerFor', () => {
  const rider = { cpW: 280, wPrimeJ: 20_000, maxPowerW: 900 }
  it('the power each constraint allows a steady ride of an hour', () => {
    const at = (constraint: Parameters<typeof steadyPowerFor>[0]['constraint']) =>
      steadyPowerFor({ constraint }, rider, 3600)
    expect(at({ type: 'average_power', powerW: 250 })).toBe(250)
    // A steady ride's normalized power is its power.
    expect(at({ type: 'normalized_power', powerW: 260 })).toBe(260)
    // 900 kJ over an hour.
    expect(at({ type: 'work', workJ: 900_000 })).toBe(250)
    // CP plus the 20 kJ of W′ spent over 3600 s: 285.6 W.
    expect(at({ type: 'w_prime_balance' })).toBe(286)
    // Within the plan's bounds.
    expect(steadyPowerFor({ constraint: { type: 'w_prime_balance' } }, rider, 30)).toBe(900)
    expect(
      steadyPowerFor({ constraint: { type: 'work', workJ: 1000 }, minPowerW: 100 }, rider, 3600),
    ).toBe(100)
  })
})

describe('planSensitivity', () => {
  const H = 3600
  const T0 = Date.UTC(2026, 6, 1, 6) / 1000 // 2026-07-01 06:00 UTC
  // 40 km due north, flat, 200 m segments.
  const course = courseFromSegments(
    Array.from({ length: 200 }, () => ({ lengthM: 200, grade: 0, headingDeg: 0 })),
  )
  const rider: Rider = {
    massKg: 72,
    bikeMassKg: 8,
    cdaM2: 0.25,
    crr: 0.004,
    drivetrainEfficiency: 0.976,
    cpW: 300,
    wPrimeJ: 20000,
    maxPowerW: 900,
  }
  /** A steady 3 m/s (10 m) headwind from the north at both ends, for `hours` + 1 hours from T0. */
  const forecastOf = (hours: number): Forecast => {
    const point = (distanceM: number): ForecastPoint => {
      const ks = Array.from({ length: hours + 1 }, (_, k) => k)
      return {
        distanceM,
        elevationM: 0,
        timeS: ks.map((k) => T0 + k * H),
        windSpeedMps: ks.map(() => 3),
        windFromDeg: ks.map(() => 0),
        temperatureC: ks.map(() => 18),
        relativeHumidity: ks.map(() => 0.5),
        surfacePressurePa: ks.map(() => 101325),
      }
    }
    return { points: [point(0), point(40_000)] }
  }
  const steady = simulationEvaluator({ course, rider, pacing: { type: 'constant', powerW: 350 } })
  // The plan: 200 W on every segment (slower than the steady ride, so the steady ride's changed
  // forecasts stay inside the hours when the plan's do not).
  const plan = simulationEvaluator({
    course,
    rider,
    pacing: { type: 'plan', powerW: new Float64Array(course.n).fill(200) },
  })
  const arrivalAt = (forecast: Forecast, startTimeS: number): ArrivalInput<unknown> => ({
    course,
    forecast,
    startTimeS,
    evaluate: steady,
  })

  it('the plan’s range when the hours cover its changed forecasts', () => {
    const arrival = arrivalAt(forecastOf(6), T0 + H)
    const planTimeS = iterateArrival({ ...arrival, evaluate: plan }).timeS
    const out = planSensitivity(arrival, plan, forecastSensitivity(arrival))
    expect(out.of).toBe('plan')
    // The forecast as issued gives the plan's own time back.
    expect(out.sensitivity.baseS).toBeCloseTo(planTimeS, 6)
    expect(out.sensitivity.maxS).toBeGreaterThan(planTimeS)
    // Without a plan: the steady ride's range, as given.
    const steadyRange = forecastSensitivity(arrival)
    expect(planSensitivity(arrival, null, steadyRange)).toEqual({
      sensitivity: steadyRange,
      of: 'steady ride',
    })
  })

  it('hours that end just after the plan’s finish: the steady ride’s range is kept', () => {
    // The plan's time in this (steady in time) wind does not depend on the start.
    const planTimeS = iterateArrival({ ...arrivalAt(forecastOf(6), T0 + H), evaluate: plan }).timeS
    expect(Number.isFinite(planTimeS)).toBe(true)
    // Four hours of forecast; the plan finishes 30 s before the last one.
    const forecast = forecastOf(4)
    const lastHourS = T0 + 4 * H
    const arrival = arrivalAt(forecast, lastHourS - planTimeS - 30)
    // The plan as forecast fits the hours …
    expect(iterateArrival({ ...arrival, evaluate: plan }).timeS).toBeCloseTo(planTimeS, 6)
    // … but 2 m/s more headwind puts its ride past them (the engine names the missing hour).
    expect(() => forecastSensitivity({ ...arrival, evaluate: plan })).toThrow(EngineInputError)
    expect(() => forecastSensitivity({ ...arrival, evaluate: plan })).toThrow(
      /expected hours covering/,
    )
    // The steady 350 W ride's changed forecasts all finish inside the hours.
    const steadyRange = forecastSensitivity(arrival)
    expect(steadyRange.maxS).toBeLessThan(planTimeS)
    const out = planSensitivity(arrival, plan, steadyRange)
    expect(out).toEqual({ sensitivity: steadyRange, of: 'steady ride' })
  })
})
