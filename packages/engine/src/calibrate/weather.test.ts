// Calibration in the ride's own weather: a ride simulated by the engine in a known
// wind and air (the truth), calibrated with that weather as the historical input, must give back
// the simulated rider; calibrated as if the air were still and standard, it must not.
import { describe, expect, it } from 'vitest'
import { activitySamples } from '../aero/samples.ts'
import { airDensity } from '../physics/air.ts'
import { recordedSegments } from '../sim/recorded.ts'
import { simulate } from '../sim/simulate.ts'
import { EngineInputError } from '../sim/validate.ts'
import { conditionsAlongCourse, forecastEnvironment } from '../weather/conditions.ts'
import type { Forecast } from '../weather/forecast.ts'
import { windHeightFactor } from '../weather/profile.ts'
import { calibrateRide } from './calibrate.ts'
import { calibrateRecordedRide } from './ride.ts'
import {
  alternatingPower,
  calibrationRider,
  recordedPoints,
  rollingCourse,
} from '../../test/fixtures.ts'

const T0 = Date.parse('2024-05-04T08:00:00Z') / 1000
/** A windy, hot, high-pressure-altitude day: 6 m/s at 10 m from 240°, 32 °C, 940 hPa, 40 %. */
function forecast(lengthM: number): Forecast {
  const hours = Array.from({ length: 6 }, (_, k) => T0 - 3600 + k * 3600)
  const point = (distanceM: number) => ({
    distanceM,
    elevationM: 200,
    timeS: hours,
    windSpeedMps: hours.map(() => 6),
    windFromDeg: hours.map(() => 240),
    temperatureC: hours.map(() => 32),
    relativeHumidity: hours.map(() => 0.4),
    surfacePressurePa: hours.map(() => 94_000),
  })
  return { points: [point(0), point(lengthM)], source: 'test archive' }
}

describe('calibrateRecordedRide with the ride’s historical weather', () => {
  // 12 km of rolling road turning through two full circles, ridden by the simulator in that weather.
  const course = rollingCourse(1200, 200, 0.03)
  const f = forecast(course.start[course.n]!)
  const env = forecastEnvironment(
    course,
    conditionsAlongCourse(course, f, new Float64Array(course.n).fill(T0)),
  )
  const powerW = alternatingPower(course.n, 170, 320)
  const sim = simulate({
    course,
    rider: calibrationRider,
    environment: env,
    pacing: { type: 'plan', powerW },
  })
  const {
    timeS,
    distanceM,
    powerW: points,
  } = recordedPoints(course, sim.segments.duration, powerW, T0)
  const recorded = recordedSegments(course, { distanceM, timeS, powerW: points })
  const ride = { course, recorded, points: { timeS, distanceM, powerW: points } }
  const input = { massKg: 72, bikeMassKg: 8, resamples: 0 }

  it('gives back CdA 0.30 (within 3 %), Crr 0.005 (within 10 %), k within 2 % of 1, and says which weather', () => {
    expect(sim.status).toBe('ok')
    const c = calibrateRecordedRide(ride, { ...input, weather: { forecast: f, label: 'test' } })
    expect(Math.abs(c.energyFit.cdaM2 / 0.3 - 1)).toBeLessThan(0.03)
    expect(Math.abs(c.energyFit.crr / 0.005 - 1)).toBeLessThan(0.1)
    expect(Math.abs(c.closureFactor - 1)).toBeLessThan(0.02)
    expect(Math.abs(c.replay.errorPct)).toBeLessThan(0.05)
    // The known wind is used, none fitted; the report names the weather and its mean values.
    expect(c.wind).toBeNull()
    expect(c.weather!.label).toBe('test')
    expect(c.weather!.windSpeedMps).toBeCloseTo(6 * windHeightFactor(), 6)
    expect(c.weather!.windFromDeg).toBeCloseTo(240, 6)
    // Carried from the grid cell's 200 m to the road's altitude (lapse rate): within 0.1 °C.
    expect(Math.abs(c.weather!.temperatureC - 32)).toBeLessThan(0.1)
    // The replay's environment is the day's: wind stretches and air per segment.
    expect(c.environment.windSegments!.length).toBe(course.n)
    expect(c.environment.airSegments!.length).toBe(course.n)
  })

  it('without the weather (still, standard air) the same ride gives another CdA', () => {
    const calm = calibrateRecordedRide(ride, {
      ...input,
      environment: { temperatureC: 15 },
      fitWind: false,
    })
    // Hot thin air: ρ 1.07 instead of ~1.2 at 15 °C, so the still-air CdA comes out ≥ 5 % off.
    expect(airDensity(32, 94_000, 0.4)).toBeLessThan(1.08)
    expect(Math.abs(calm.energyFit.cdaM2 / 0.3 - 1)).toBeGreaterThan(0.05)
  })

  it('refuses weather on samples without a distance, naming the field', () => {
    const n = 60
    const samples = activitySamples({
      t: Float64Array.from({ length: n }, (_, i) => i),
      startEpochS: T0,
      speed: new Float64Array(n).fill(9),
      power: new Float64Array(n).fill(200),
      altitude: new Float64Array(n).fill(100),
    })
    expect(() => calibrateRide(samples, { ...input, weather: { forecast: f } })).toThrow(
      EngineInputError,
    )
    expect(() => calibrateRide(samples, { ...input, weather: { forecast: f } })).toThrow(
      /weather: expected samples with a distance/,
    )
  })
})
