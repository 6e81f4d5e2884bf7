// Points no real course has are refused before building: non-finite values, coordinates and
// elevations out of range, consecutive timestamped points farther apart than a bicycle goes.
// Points off the route's line (an out-and-back spike in a file without timestamps) are found here
// too: building leaves them out and reports them (docs/limits-input.md).
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
      const byPos =
        pos && pPos ? groundDistance(raw.lat[p]!, raw.lon[p]!, raw.lat[i]!, raw.lon[i]!) : NaN
      // The distance channel (preferred over positions when recorded) may not jump either.
      const rdStep = raw.distance ? rd - raw.distance[p]! : NaN
      const d = Math.max(
        finite(byPos) ? byPos : 0,
        finite(rdStep) ? (finite(byPos) ? rdStep : Math.abs(rdStep)) : 0,
      )
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

/**
 * A point is a position spike when the route goes out to it and comes back: the detour it adds
 * (way there and back minus the direct way between its neighbours) is larger than both this many
 * metres and SPIKE_SPACING_FACTOR times the file's typical spacing of points. A GPS fix 10° off
 * adds hundreds of kilometres; a real hairpin or a dead end drawn with the file's own spacing adds
 * a few times that spacing.
 */
export const SPIKE_MIN_DETOUR_M = 2000
export const SPIKE_SPACING_FACTOR = 50
/** Runs of up to this many consecutive points off the line are found as one spike. */
const SPIKE_MAX_RUN = 3
/** More spikes than this share of the points is not a glitch to repair: the file is refused. */
export const MAX_SPIKE_SHARE = 0.05

/** A point (its index in the file) off its neighbours' line, and the detour it made (m). */
export interface PositionSpike {
  index: number
  detourM: number
}

function median(values: number[]): number {
  if (values.length === 0) return NaN
  const s = [...values].sort((a, b) => a - b)
  const h = s.length >> 1
  return s.length % 2 ? s[h]! : 0.5 * (s[h - 1]! + s[h]!)
}

/**
 * The points that lie off the line of their neighbours (see SPIKE_MIN_DETOUR_M): runs of up to
 * three consecutive points reached by a long way out (over half the threshold) and left by a long
 * way back, whose detour exceeds the threshold; and the first or last (up to three) points
 * farther than the threshold from the route that continues after or leads to them. Points without a position are skipped.
 * Deterministic and linear in the number of points.
 */
export function positionSpikes(
  lat: ArrayLike<number>,
  lon: ArrayLike<number>,
): { spikes: PositionSpike[]; thresholdM: number } {
  const idx: number[] = []
  for (let i = 0; i < lat.length; i++) if (finite(lat[i]!) && finite(lon[i]!)) idx.push(i)
  const n = idx.length
  const d = (a: number, b: number) =>
    groundDistance(lat[idx[a]!]!, lon[idx[a]!]!, lat[idx[b]!]!, lon[idx[b]!]!)
  const steps: number[] = []
  for (let k = 1; k < n; k++) {
    const s = d(k - 1, k)
    if (s > 0.05) steps.push(s)
  }
  const thresholdM = Math.max(SPIKE_MIN_DETOUR_M, SPIKE_SPACING_FACTOR * median(steps))
  if (n < 3 || !finite(thresholdM)) return { spikes: [], thresholdM }
  const spikes: PositionSpike[] = []
  const mark = (a: number, b: number, detourM: number) => {
    for (let j = a; j < b; j++) spikes.push({ index: idx[j]!, detourM })
  }
  // The first (up to three) points, far from the route that continues after them (and from the
  // next points too: else they are the route and the points after them a spike).
  let from = 0
  for (let w = 1; w <= SPIKE_MAX_RUN && w + 1 < n; w++) {
    let near = Infinity
    for (let j = w; j <= Math.min(n - 1, w + SPIKE_MAX_RUN); j++) near = Math.min(near, d(w - 1, j))
    let together = true
    for (let j = 1; j < w; j++) together &&= d(j - 1, j) <= thresholdM
    if (together && near > thresholdM && d(w, w + 1) <= thresholdM) {
      mark(0, w, d(w - 1, w))
      from = w
      break
    }
  }
  let anchor = from
  let k = from + 1
  while (k < n) {
    let found = 0
    let detour = 0
    // The way out (to k) and the way back (from the run's last point) are both long.
    const out = d(anchor, k)
    for (let w = 1; out > thresholdM / 2 && w <= SPIKE_MAX_RUN && k + w <= n - 1; w++) {
      const back = d(k + w - 1, k + w)
      let path = out + back
      for (let j = k; j < k + w - 1; j++) path += d(j, j + 1)
      detour = path - d(anchor, k + w)
      if (back > thresholdM / 2 && detour > thresholdM) {
        found = w
        break
      }
    }
    if (!found && out > thresholdM && k >= n - SPIKE_MAX_RUN) {
      // The last (up to three) points: far from the route and never back to it.
      let near = Infinity
      for (let j = k; j < n; j++) near = Math.min(near, d(anchor, j))
      if (near > thresholdM) {
        mark(k, n, out)
        break
      }
    }
    if (found) {
      mark(k, k + found, detour)
      k += found
    } else {
      anchor = k
      k++
    }
  }
  return { spikes, thresholdM }
}
