// Points no real course has are refused before building: non-finite values, coordinates and
// elevations out of range, consecutive timestamped points farther apart than a bicycle goes.
import { CourseError } from './build-types.ts'
import type { CourseErrorCode, RawPoints } from './build-types.ts'
import { groundDistance } from './geo.ts'

const finite = Number.isFinite

/** Plausible elevations (m): the Dead Sea shore is at −430 m, Everest at 8,849 m. */
export const ELEVATION_RANGE_M: readonly [number, number] = [-500, 9000]
/** Fastest a bicycle goes between two timestamped points (m/s, 180 km/h: beyond any descent),
 * plus a slack (m) for a GPS fix that jumps a little. */
export const MAX_SPEED_MPS = 50
const JUMP_SLACK_M = 100
/** Longest course accepted (m). */
export const MAX_COURSE_M = 2_000_000
/** Steepest 100 m accepted after cleaning (rise/run): the steepest streets are about 35 %. */
export const MAX_GRADE = 0.5

const show = (v: number): string => (Number.isNaN(v) ? 'NaN' : String(v))

/**
 * Refuses points no real course has: non-finite values (NaN is "missing", Infinity is not),
 * coordinates outside their ranges, elevations outside ELEVATION_RANGE_M, and consecutive
 * timestamped points farther apart than MAX_SPEED_MPS allows (by position, or by the distance
 * channel without positions). The error names the point (index in the file) and the value.
 */
export function checkPlausible(raw: RawPoints): void {
  const n0 = raw.lat.length
  const bad = (code: CourseErrorCode, i: number, what: string): never => {
    throw new CourseError(code, `point ${i}: ${what}`)
  }
  const columns: [string, ArrayLike<number> | undefined][] = [
    ['latitude', raw.lat],
    ['longitude', raw.lon],
    ['elevation', raw.ele],
    ['distance', raw.distance],
    ['time', raw.time],
  ]
  for (const [name, col] of columns) {
    if (!col) continue
    for (let i = 0; i < Math.min(n0, col.length); i++) {
      const v = col[i]!
      if (!Number.isNaN(v) && !finite(v))
        bad('invalid_value', i, `${name} expected a finite number, got ${show(v)}`)
    }
  }
  const [lo, hi] = ELEVATION_RANGE_M
  for (let i = 0; i < n0; i++) {
    const la = raw.lat[i]!
    const lon = raw.lon[i]!
    const e = raw.ele[i]!
    if (la < -90 || la > 90) bad('invalid_coordinates', i, `latitude expected −90…90°, got ${la}`)
    if (lon < -180 || lon > 180)
      bad('invalid_coordinates', i, `longitude expected −180…180°, got ${lon}`)
    if (e < lo || e > hi)
      bad('invalid_elevation', i, `elevation expected ${lo}…${hi} m, got ${show(e)} m`)
  }
  if (!raw.time) return
  let p = -1
  for (let i = 0; i < n0; i++) {
    const t = raw.time[i]!
    const pos = finite(raw.lat[i]!) && finite(raw.lon[i]!)
    const rd = raw.distance ? raw.distance[i]! : NaN
    if (!finite(t) || (!pos && !finite(rd))) continue
    if (p >= 0) {
      const pPos = finite(raw.lat[p]!) && finite(raw.lon[p]!)
      const d =
        pos && pPos
          ? groundDistance(raw.lat[p]!, raw.lon[p]!, raw.lat[i]!, raw.lon[i]!)
          : Math.abs(rd - raw.distance![p]!)
      const dt = t - raw.time[p]!
      if (d > JUMP_SLACK_M && dt >= 0 && d > MAX_SPEED_MPS * dt + JUMP_SLACK_M) {
        bad(
          'impossible_speed',
          i,
          `${Math.round(d)} m from point ${p} in ${dt} s, expected at most ${MAX_SPEED_MPS * 3.6} km/h`,
        )
      }
    }
    p = i
  }
}
