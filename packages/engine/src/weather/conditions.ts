// Conditions on every segment of a course at the times the rider is there, and the environment
// (per-segment wind and air stretches) the simulator takes from them. Manual wind stretches win
// over the forecast where they lie.
import type { Course } from '../course/types.ts'
import { airDensity } from '../physics/air.ts'
import type { Environment, WindSegment } from '../sim/model.ts'
import { EngineInputError } from '../sim/validate.ts'
import type { AirSegment } from './air-segments.ts'
import { conditionsAt } from './forecast.ts'
import type { Forecast, PointConditions } from './forecast.ts'
import { windHeightFactor } from './profile.ts'
import type { WindProfile } from './profile.ts'

/** Per-segment conditions (index = course segment). */
export interface CourseConditions {
  n: number
  /** Unix time at which they hold (the rider's predicted time at the segment's middle). */
  timeS: Float64Array
  /** Wind at 10 m and at rider height (m/s). */
  wind10Mps: Float64Array
  windSpeedMps: Float64Array
  windFromDeg: Float64Array
  /** Gusts at rider height (m/s); NaN without gusts in the forecast. */
  gustMps: Float64Array
  /** At the segment's mid altitude. */
  temperatureC: Float64Array
  pressurePa: Float64Array
  relativeHumidity: Float64Array
  rho: Float64Array
  /** The 10 m → rider-height factor used. */
  heightFactor: number
}

/** Conditions on each segment at `segmentTimeS[i]` (unix seconds at the segment's middle). */
export function conditionsAlongCourse(
  course: Course,
  forecast: Forecast,
  segmentTimeS: ArrayLike<number>,
  profile: WindProfile = {},
): CourseConditions {
  const n = course.n
  if (segmentTimeS.length !== n) {
    throw new EngineInputError(
      'segmentTimeS',
      `expected ${n} times (one per segment), got ${segmentTimeS.length}`,
    )
  }
  const factor = windHeightFactor(profile)
  const c: CourseConditions = {
    n,
    timeS: Float64Array.from(segmentTimeS),
    wind10Mps: new Float64Array(n),
    windSpeedMps: new Float64Array(n),
    windFromDeg: new Float64Array(n),
    gustMps: new Float64Array(n),
    temperatureC: new Float64Array(n),
    pressurePa: new Float64Array(n),
    relativeHumidity: new Float64Array(n),
    rho: new Float64Array(n),
    heightFactor: factor,
  }
  const pc = {} as PointConditions
  for (let i = 0; i < n; i++) {
    const mid = 0.5 * (course.start[i]! + course.start[i + 1]!)
    const alt = 0.5 * (course.altitude[i]! + course.altitude[i + 1]!)
    conditionsAt(forecast, mid, segmentTimeS[i]!, alt, pc)
    c.wind10Mps[i] = pc.windSpeedMps
    c.windSpeedMps[i] = pc.windSpeedMps * factor
    c.windFromDeg[i] = pc.windFromDeg
    c.gustMps[i] = pc.gustMps * factor
    c.temperatureC[i] = pc.temperatureC
    c.pressurePa[i] = pc.pressurePa
    c.relativeHumidity[i] = pc.relativeHumidity
    c.rho[i] = airDensity(pc.temperatureC, pc.pressurePa, pc.relativeHumidity)
  }
  return c
}

/**
 * `base` with stretches cut out where `manual` stretches lie, and the manual ones put in:
 * a stretch typed by hand always wins over the forecast.
 */
export function overlayWindSegments(
  base: readonly WindSegment[],
  manual: readonly WindSegment[],
): WindSegment[] {
  if (manual.length === 0) return base.slice()
  const m = [...manual].sort((a, b) => a.startM - b.startM)
  const out: WindSegment[] = [...m]
  for (const s of base) {
    let from = s.startM
    for (const w of m) {
      if (w.endM <= from) continue
      if (w.startM >= s.endM) break
      if (w.startM > from) out.push({ ...s, startM: from, endM: w.startM })
      from = Math.max(from, w.endM)
      if (from >= s.endM) break
    }
    if (from < s.endM) out.push({ ...s, startM: from, endM: s.endM })
  }
  return out.sort((a, b) => a.startM - b.startM)
}

/**
 * The environment with the conditions as per-segment wind (rider height) and air stretches;
 * `manualWind` (stretches typed by the user) replaces the forecast's wind where it lies.
 */
export function forecastEnvironment(
  course: Course,
  c: CourseConditions,
  base: Environment = {},
  manualWind: readonly WindSegment[] = [],
): Environment {
  const wind: WindSegment[] = []
  const air: AirSegment[] = []
  for (let i = 0; i < c.n; i++) {
    const startM = course.start[i]!
    const endM = course.start[i + 1]!
    if (!(endM > startM)) continue
    wind.push({ startM, endM, speedMps: c.windSpeedMps[i]!, fromDeg: c.windFromDeg[i]! })
    air.push({
      startM,
      endM,
      temperatureC: c.temperatureC[i]!,
      pressurePa: c.pressurePa[i]!,
      relativeHumidity: c.relativeHumidity[i]!,
      altitudeM: 0.5 * (course.altitude[i]! + course.altitude[i + 1]!),
    })
  }
  const env: Environment = {
    ...base,
    windSegments: overlayWindSegments(wind, manualWind),
    airSegments: air,
  }
  // The forecast decides the air: a fixed density would silently win over it.
  delete env.airDensityKgM3
  if (env.temperatureC === undefined) env.temperatureC = c.temperatureC[0] ?? 15
  return env
}
