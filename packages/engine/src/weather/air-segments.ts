// Air (temperature, pressure, humidity) on stretches of the course: the per-segment hook of
// sim/model.ts. Each stretch gives the air at a reference altitude; a segment's density is the
// length-weighted mean, over the parts each stretch covers, of that air carried to the segment's
// mid altitude (physics/air.ts). Applied by distance like the wind stretches, so a coarser copy
// of the course (the optimizer's) sees the same air.
import { stretchCover } from '../course/stretches.ts'
import type { Course } from '../course/types.ts'
import { airDensityAtAltitude } from '../physics/air.ts'
import { EngineInputError, requireNumber, requireStretch } from '../sim/validate.ts'

export interface AirSegment {
  startM: number
  endM: number
  temperatureC: number
  /** Station pressure at `altitudeM` (Pa). */
  pressurePa: number
  /** 0..1 */
  relativeHumidity: number
  /** Altitude where temperature and pressure hold (m). */
  altitudeM: number
}

export function validateAirSegments(list: unknown, path = 'environment.air_segments'): void {
  if (!Array.isArray(list)) {
    throw new EngineInputError(path, `expected a list of stretches, got ${typeof list}`)
  }
  let prevEnd = -Infinity
  list.forEach((s: Partial<AirSegment> | null, i) => {
    const at = `${path}[${i}]`
    if (!s || typeof s !== 'object') {
      throw new EngineInputError(
        at,
        `expected {start_m, end_m, temperature_c, pressure_pa, relative_humidity, altitude_m}, got ${JSON.stringify(s)}`,
      )
    }
    prevEnd = requireStretch(at, s, prevEnd)
    requireNumber(`${at}.temperature_c`, s.temperatureC, -80, 60)
    requireNumber(`${at}.pressure_pa`, s.pressurePa, 30000, 110000)
    requireNumber(`${at}.relative_humidity`, s.relativeHumidity, 0, 1)
    requireNumber(`${at}.altitude_m`, s.altitudeM, -500, 9000)
  })
}

/** Overwrites `rho[i]` where stretches cover segment i (partly covered: mixed with the old value). */
export function applyAirSegments(
  course: Course,
  stretches: readonly AirSegment[],
  rho: Float64Array,
): void {
  for (const { i, len, parts } of stretchCover(course, stretches)) {
    const alt = 0.5 * (course.altitude[i]! + course.altitude[i + 1]!)
    let covered = 0
    let sum = 0
    for (const [s, part] of parts) {
      const density = airDensityAtAltitude(
        {
          temperatureC: s.temperatureC,
          pressurePa: s.pressurePa,
          relativeHumidity: s.relativeHumidity,
          referenceAltitudeM: s.altitudeM,
        },
        alt,
      )
      sum += part * density
      covered += part
    }
    rho[i] = (sum + Math.max(0, len - covered) * rho[i]!) / len
  }
}
