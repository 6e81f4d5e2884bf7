// Forecast points along a course's track: the start, the finish and evenly between, positions
// interpolated linearly between the track's points (plain arithmetic here). And the time range
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
import { planSensitivity, pointsAlong } from './race-day.ts'

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
