// Race-day weather in the engine: the 10 m → rider-height profile, interpolation of hourly
// forecast points in space and time, per-segment air, manual wind overriding the forecast, the
// arrival-time iteration and the sensitivity range.
import { describe, expect, it } from 'vitest'
import { courseFromSegments } from '../course/types.ts'
import { isaDensity, isaPressurePa } from '../physics/air.ts'
import { prepareModel } from '../sim/model.ts'
import type { Rider } from '../sim/model.ts'
import { simulate } from '../sim/simulate.ts'
import { parseScenario } from '../scenario.ts'
import { iterateArrival, simulationEvaluator } from './arrival.ts'
import { conditionsAlongCourse, forecastEnvironment, overlayWindSegments } from './conditions.ts'
import { conditionsAt, validateForecast } from './forecast.ts'
import type { Forecast, ForecastPoint } from './forecast.ts'
import { RIDER_HEIGHT_WIND_FACTOR, windHeightFactor } from './profile.ts'
import { recommendWheels } from '../tools/wheels.ts'
import { forecastSensitivity } from './sensitivity.ts'
import { roadRider } from '../../test/fixtures.ts'

const T0 = Date.UTC(2026, 6, 1, 8) / 1000 // 2026-07-01 08:00 UTC
const H = 3600

/** A forecast point whose hourly values come from functions of the hour index. */
function point(
  distanceM: number,
  hours: number,
  f: {
    speed?: (k: number) => number
    from?: (k: number) => number
    temp?: (k: number) => number
    pres?: (k: number) => number
    rh?: (k: number) => number
  },
  elevationM = 0,
): ForecastPoint {
  const ks = Array.from({ length: hours }, (_, k) => k)
  return {
    distanceM,
    elevationM,
    timeS: ks.map((k) => T0 + k * H),
    windSpeedMps: ks.map(f.speed ?? (() => 0)),
    windFromDeg: ks.map(f.from ?? (() => 0)),
    gustMps: ks.map((k) => 1.5 * (f.speed ?? (() => 0))(k)),
    temperatureC: ks.map(f.temp ?? (() => 15)),
    relativeHumidity: ks.map(f.rh ?? (() => 0)),
    surfacePressurePa: ks.map(f.pres ?? (() => 101325)),
  }
}

const rider: Rider = { ...roadRider, massKg: 72 }

describe('wind profile (power law, docs/engine/science.md §1.1)', () => {
  it('defaults: rural α = 0.16 at 1.5 m, (0.15)^0.16 = 0.738 — docs/engine/science.md §1.1 "factor 0.74 (rural)"', () => {
    expect(windHeightFactor()).toBeCloseTo(Math.pow(1.5 / 10, 0.16), 12)
    expect(windHeightFactor()).toBeCloseTo(0.74, 2)
    expect(RIDER_HEIGHT_WIND_FACTOR).toBe(windHeightFactor())
    expect(windHeightFactor({ heightM: 10 })).toBe(1)
  })
  it('suburbs (α = 0.3) at 1.5 m: 0.57 (docs/engine/science.md §1.1); rougher terrain slows the wind more', () => {
    expect(windHeightFactor({ terrain: 'suburbs' })).toBeCloseTo(0.57, 2)
    expect(windHeightFactor({ terrain: 'city' })).toBeLessThan(
      windHeightFactor({ terrain: 'suburbs' }),
    )
    expect(windHeightFactor({ exponent: 0 })).toBe(1)
  })
  it('the wheel tool reduces the typed 10 m wind with the same factor', () => {
    // tools/wheels.ts states the reduced wind in its assumptions: 5 m/s → 5 × 0.738 = 3.7 m/s.
    const r = recommendWheels({ riderMassKg: 70, windSpeedMps: 5, handling: 'medium' })
    expect(r.assumptions.join(' ')).toContain(
      '5 m/s at 10 m → 3.7 m/s at rider height (× 0.738, docs/engine/science.md §1.1)',
    )
  })
  it('refuses a bad height or terrain, naming the field', () => {
    expect(() => windHeightFactor({ heightM: 0 })).toThrow(/profile\.heightM: expected/)
    expect(() => windHeightFactor({ terrain: 'moon' as never })).toThrow(
      /profile\.terrain: expected one of rural, suburbs, city, got moon/,
    )
  })
})

describe('forecast interpolation', () => {
  it('in time: linear between hours, exact on the hour', () => {
    const f: Forecast = {
      points: [point(0, 3, { speed: (k) => [4, 6, 10][k]!, temp: (k) => [10, 14, 20][k]! })],
    }
    validateForecast(f)
    const at = (t: number) => conditionsAt(f, 0, t, 0)
    expect(at(T0).windSpeedMps).toBe(4)
    expect(at(T0 + H).temperatureC).toBeCloseTo(14, 12)
    expect(at(T0 + H / 2).windSpeedMps).toBeCloseTo(5, 12)
    expect(at(T0 + 1.25 * H).windSpeedMps).toBeCloseTo(6 + 0.25 * 4, 12)
    expect(at(T0 + 1.25 * H).temperatureC).toBeCloseTo(14 + 0.25 * 6, 12)
  })
  it('wind direction through north: 350° and 10° meet at 0°, the speed is the mean', () => {
    const f: Forecast = {
      points: [point(0, 2, { speed: (k) => [4, 6][k]!, from: (k) => [350, 10][k]! })],
    }
    const c = conditionsAt(f, 0, T0 + H / 2, 0)
    expect(Math.min(c.windFromDeg, 360 - c.windFromDeg)).toBeLessThan(1e-9)
    expect(c.windSpeedMps).toBeCloseTo(5, 12)
    // A quarter of the way: the direction of 0.75·u(350°) + 0.25·u(10°).
    const q = conditionsAt(f, 0, T0 + H / 4, 0)
    const e = 0.75 * Math.sin((350 * Math.PI) / 180) + 0.25 * Math.sin((10 * Math.PI) / 180)
    const n = 0.75 * Math.cos((350 * Math.PI) / 180) + 0.25 * Math.cos((10 * Math.PI) / 180)
    expect(q.windFromDeg).toBeCloseTo(((Math.atan2(e, n) * 180) / Math.PI + 360) % 360, 9)
  })
  it('in space: linear in distance between the bracketing points, held beyond the ends', () => {
    const f: Forecast = {
      points: [
        point(0, 2, { speed: () => 2, temp: () => 10 }),
        point(10_000, 2, { speed: () => 6, temp: () => 18 }),
        point(30_000, 2, { speed: () => 0, temp: () => 18 }),
      ],
    }
    expect(conditionsAt(f, 2_500, T0, 0).windSpeedMps).toBeCloseTo(3, 12)
    expect(conditionsAt(f, 2_500, T0, 0).temperatureC).toBeCloseTo(12, 12)
    expect(conditionsAt(f, 20_000, T0, 0).windSpeedMps).toBeCloseTo(3, 12)
    expect(conditionsAt(f, 45_000, T0, 0).windSpeedMps).toBe(0)
  })
  it('in space and time at once: bilinear', () => {
    const f: Forecast = {
      points: [
        point(0, 2, { speed: (k) => [2, 4][k]! }),
        point(1_000, 2, { speed: (k) => [6, 12][k]! }),
      ],
    }
    // Plain bilinear sum at s = 0.3, t = 0.6.
    const want = 0.7 * (0.4 * 2 + 0.6 * 4) + 0.3 * (0.4 * 6 + 0.6 * 12)
    expect(conditionsAt(f, 300, T0 + 0.6 * H, 0).windSpeedMps).toBeCloseTo(want, 12)
  })
  it('carries the grid cell air to the road altitude: ISA 1000 m = 898.76 hPa, 8.5 °C', () => {
    // ISA table (ICAO Doc 7488): 1000 m, 89,876 Pa, 281.65 K.
    const f: Forecast = { points: [point(0, 1, { temp: () => 15, pres: () => 101325 }, 0)] }
    const c = conditionsAt(f, 0, T0, 1000)
    expect(c.pressurePa).toBeCloseTo(89876, -1)
    expect(c.temperatureC).toBeCloseTo(8.5, 9)
    // A cell at 1000 m carried down to sea level gives the ISA sea level back.
    const up: Forecast = {
      points: [point(0, 1, { temp: () => 8.5, pres: () => isaPressurePa(1000) }, 1000)],
    }
    expect(conditionsAt(up, 0, T0, 0).pressurePa).toBeCloseTo(101325, 0)
  })
  it('refuses times the forecast does not cover and malformed series, naming the field', () => {
    const f: Forecast = { points: [point(0, 2, {})] }
    expect(() => conditionsAt(f, 0, T0 + 3 * H, 0)).toThrow(/forecast: expected hours covering/)
    const bad = point(0, 2, {})
    bad.temperatureC = [15, NaN]
    expect(() => validateForecast({ points: [bad] })).toThrow(
      /points\[0\]\.temperatureC\[1\]: expected a number/,
    )
    expect(() => validateForecast({ points: [point(5, 1, {}), point(5, 1, {})] })).toThrow(
      /points\[1\]\.distanceM: expected more than/,
    )
  })
})

// 40 km due north, flat (heading 0°: wind from 0° is a headwind).
const north = (n: number, len: number, grade = 0) =>
  courseFromSegments(Array.from({ length: n }, () => ({ lengthM: len, grade, headingDeg: 0 })))

describe('per-segment air and wind in the model', () => {
  it('density per segment from the air stretches: ISA air gives the ISA density (1000 m: 1.1117)', () => {
    const course = north(20, 100, 0.5) // climbs 1000 m
    const f: Forecast = { points: [point(0, 1, { temp: () => 15, pres: () => 101325 })] }
    const c = conditionsAlongCourse(course, f, new Float64Array(course.n).fill(T0))
    const m = prepareModel(course, rider, forecastEnvironment(course, c, { airDensityKgM3: 1.3 }))
    for (let i = 0; i < course.n; i++) {
      const alt = 0.5 * (course.altitude[i]! + course.altitude[i + 1]!)
      expect(m.rho[i]).toBeCloseTo(isaDensity(alt), 4)
      expect(c.rho[i]).toBeCloseTo(isaDensity(alt), 4)
    }
    // ICAO standard atmosphere: 1.2250 kg/m³ at sea level, 1.1117 at 1000 m.
    expect(isaDensity(0)).toBeCloseTo(1.225, 4)
    expect(isaDensity(1000)).toBeCloseTo(1.1117, 3)
  })
  it('a segment half covered by an air stretch gets the length-weighted mean density', () => {
    const course = north(2, 100)
    const env = {
      airDensityKgM3: 1.2,
      airSegments: [
        {
          startM: 50,
          endM: 100,
          temperatureC: 15,
          pressurePa: 101325,
          relativeHumidity: 0,
          altitudeM: 0,
        },
      ],
    }
    const m = prepareModel(course, rider, env)
    expect(m.rho[0]).toBeCloseTo(0.5 * 1.2 + 0.5 * 1.225, 4)
    expect(m.rho[1]).toBe(1.2)
  })
  it('manual wind stretches win over the forecast', () => {
    const course = north(40, 1000)
    const f: Forecast = { points: [point(0, 1, { speed: () => 10, from: () => 0 })] }
    const c = conditionsAlongCourse(course, f, new Float64Array(course.n).fill(T0), { heightM: 10 })
    const env = forecastEnvironment(course, c, {}, [
      { startM: 10_500, endM: 20_000, speedMps: 3, fromDeg: 180 },
    ])
    const m = prepareModel(course, rider, env)
    expect(m.wPar[5]).toBeCloseTo(10, 9) // forecast headwind
    expect(m.wPar[10]).toBeCloseTo(0.5 * 10 - 0.5 * 3, 9) // half forecast, half manual tailwind
    expect(m.wPar[15]).toBeCloseTo(-3, 9) // manual
    expect(m.wPar[25]).toBeCloseTo(10, 9)
    const merged = overlayWindSegments(
      [{ startM: 0, endM: 100, speedMps: 1, fromDeg: 0 }],
      [{ startM: 20, endM: 30, speedMps: 2, fromDeg: 90 }],
    )
    expect(merged.map((s) => [s.startM, s.endM, s.speedMps])).toEqual([
      [0, 20, 1],
      [20, 30, 2],
      [30, 100, 1],
    ])
  })
  it('scenario JSON: environment.air_segments parsed and validated', () => {
    const scenario = (air: unknown) => ({
      course: { segments: [{ length_m: 1000, grade: 0 }] },
      rider: {
        mass_kg: 70,
        bike_mass_kg: 8,
        cda_m2: 0.3,
        crr: 0.004,
        drivetrain_efficiency: 0.976,
      },
      environment: { temperature_c: 20, air_segments: air },
      pacing: { type: 'constant', power_w: 200 },
    })
    const ok = parseScenario(
      scenario([
        {
          start_m: 0,
          end_m: 500,
          temperature_c: 0,
          pressure_pa: 95000,
          relative_humidity: 0.5,
          altitude_m: 500,
        },
      ]),
    )
    expect(ok.input.environment?.airSegments?.[0]?.pressurePa).toBe(95000)
    expect(() =>
      parseScenario(
        scenario([
          {
            start_m: 0,
            end_m: 500,
            temperature_c: 0,
            pressure_pa: 5,
            relative_humidity: 0.5,
            altitude_m: 0,
          },
        ]),
      ),
    ).toThrow(/air_segments\[0\]\.pressure_pa: expected a number ≥ 30000/)
  })
})

describe('arrival-time iteration', () => {
  // Calm at 08:00, a 9 m/s headwind (10 m) from 09:00 on: where the rider is at 08:30 or 09:15
  // matters, and the start-time-everywhere guess is wrong.
  const course = north(80, 500)
  const forecast: Forecast = {
    points: [
      point(0, 4, { speed: (k) => (k === 0 ? 0 : 9), from: () => 0, temp: (k) => 18 + k }),
      point(40_000, 4, { speed: (k) => (k === 0 ? 1 : 9), from: () => 10, temp: (k) => 20 + k }),
    ],
  }
  const evaluate = simulationEvaluator({ course, rider, pacing: { type: 'constant', powerW: 250 } })
  const input = {
    course,
    forecast,
    startTimeS: T0,
    evaluate,
    baseEnvironment: { temperatureC: 15 },
  }

  it('converges (finish time moves < 1 s) and is self-consistent', () => {
    const out = iterateArrival(input)
    expect(out.converged).toBe(true)
    expect(out.iterations).toBeLessThanOrEqual(8)
    const h = out.history
    expect(Math.abs(h[h.length - 1]! - h[h.length - 2]!)).toBeLessThan(1)
    // The first guess (calm everywhere, 08:00) is much faster than the converged ride.
    expect(out.timeS - h[0]!).toBeGreaterThan(60)
    // Fixed point: the conditions used are the forecast's at the final ride's own mid-segment times.
    const seg = out.result.segments
    let prev = 0
    let worst = 0
    for (let i = 0; i < course.n; i++) {
      const mid = T0 + 0.5 * (prev + seg.time[i]!)
      prev = seg.time[i]!
      const c = conditionsAt(forecast, 0.5 * (course.start[i]! + course.start[i + 1]!), mid, 0)
      worst = Math.max(
        worst,
        Math.abs(c.windSpeedMps * out.conditions.heightFactor - out.conditions.windSpeedMps[i]!),
      )
    }
    expect(worst).toBeLessThan(0.05)
    // And re-simulating with that environment gives the reported time.
    expect(
      simulate({
        course,
        rider,
        environment: out.environment,
        pacing: { type: 'constant', powerW: 250 },
      }).timeS,
    ).toBe(out.timeS)
  })

  it('a later start meets the wind everywhere: slower than an earlier one', () => {
    const early = iterateArrival(input).timeS
    const late = iterateArrival({ ...input, startTimeS: T0 + H }).timeS
    expect(late).toBeGreaterThan(early)
  })

  it('sensitivity: wind ± 2 m/s and direction ± 30° give a range around the forecast time', () => {
    const s = forecastSensitivity(input)
    expect(s.cases).toHaveLength(9)
    expect(s.minS).toBeLessThan(s.baseS)
    expect(s.maxS).toBeGreaterThan(s.baseS)
    const at = (dw: number, dd: number) =>
      s.cases.find((c) => c.windDeltaMps === dw && c.directionDeltaDeg === dd)!.timeS
    // Mostly a headwind: 2 m/s more is slower, 2 m/s less faster; turning it 30° off the nose helps.
    expect(at(2, 0)).toBeGreaterThan(s.baseS)
    expect(at(-2, 0)).toBeLessThan(s.baseS)
    expect(at(0, 30)).toBeLessThan(s.baseS)
    expect(s.baseS).toBe(iterateArrival(input).timeS)
  })
})
