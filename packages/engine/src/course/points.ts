// The points a course is built from: which distance source a file offers (positions or a
// recorded distance channel), the points off the route's line, and the usable points in order
// with their distance along the course (stationary repeats and the elevation drift over stops
// taken out).
import { groundDistance } from './geo.ts'
import { CourseError } from './build-types.ts'
import type { BuildCourseOptions, RawPoints } from './build-types.ts'
import { MAX_SPIKE_SHARE, positionSpikes, type PositionSpike } from './plausible.ts'

const finite = Number.isFinite
/** A stop shorter than this (s) does not drift: its elevation change is noise. */
const STOP_DRIFT_MIN_S = 30

/** Where a file's distance comes from. */
export interface DistanceSource {
  /** Points read. */
  n0: number
  withPos: number
  withDist: number
  /** Positions give the course's shape. */
  usePos: boolean
  /** Positions also give its distance (else the recorded distance channel does). */
  byPos: boolean
}

export function distanceSource(raw: RawPoints, opts: BuildCourseOptions): DistanceSource {
  const n0 = raw.lat.length
  let withPos = 0
  let withDist = 0
  for (let i = 0; i < n0; i++) {
    if (finite(raw.lat[i]!) && finite(raw.lon[i]!)) withPos++
    if (raw.distance && finite(raw.distance[i]!)) withDist++
  }
  // A recorded distance channel (wheel sensor or the device's filtered GPS) is preferred over
  // summing raw positions, whose jitter adds distance while stopped; positions then give shape.
  const preferRecorded =
    opts.preferRecordedDistance !== false && withDist >= 2 && withDist >= 0.9 * n0
  const usePos = withPos >= 2 && withPos >= 0.5 * n0
  const byPos = usePos && !preferRecorded
  if (!usePos && withDist < 2) {
    throw new CourseError(
      'no_distance',
      `expected positions (latitude/longitude) or a distance channel, got positions in ${withPos} and distance in ${withDist} of ${n0} points`,
    )
  }
  return { n0, withPos, withDist, usePos, byPos }
}

/** Points off the route's line (out-and-back spikes), left out; too many reject the file. */
export function offLinePoints(raw: RawPoints, src: DistanceSource): PositionSpike[] {
  const spikes = src.usePos ? positionSpikes(raw.lat, raw.lon).spikes : []
  if (spikes.length > Math.max(3, MAX_SPIKE_SHARE * src.withPos)) {
    const first = spikes[0]!
    throw new CourseError(
      'position_spikes',
      `point ${first.index}: ${spikes.length} of ${src.withPos} points lie off the route's line (the first adds a ${(first.detourM / 1000).toFixed(1)} km detour), expected at most ${Math.round(MAX_SPIKE_SHARE * 100)} %`,
    )
  }
  return spikes
}

/** The usable points in order, each at its cumulative distance (m, from the file's origin). */
export interface KeptPoints {
  lat: number[]
  lon: number[]
  /** Elevation with the drift over stops removed; NaN where the file has none. */
  ele: number[]
  dist: number[]
  /** Moving clock at each kept point (s), stationary repeats excluded. */
  clock: number[]
  /** Total moving time (s). */
  moving: number
  /** Elevation change over stops removed as sensor drift (m, summed). */
  drift: number
  /** For each point read, its distance (m; a repeat takes the point it repeats, NaN if unused). */
  pointDistanceM: Float64Array
}

/** Keeps usable points, sums the horizontal distance, drops repeats (stationary points). */
export function keepPoints(raw: RawPoints, src: DistanceSource, offLine: Set<number>): KeptPoints {
  const { n0, usePos, byPos } = src
  const lat: number[] = []
  const lon: number[] = []
  const ele: number[] = []
  const dist: number[] = []
  let total = 0
  let drift = 0
  let lastEle = NaN
  const pointDistanceM = new Float64Array(n0).fill(NaN)
  // Moving clock of the kept points (s): time spent between a point and the one before it,
  // stationary repeats excluded (their drift is removed separately).
  const clock: number[] = []
  let moving = 0
  let lastTime = NaN
  let keptTime = NaN
  let pending = 0
  for (let i = 0; i < n0; i++) {
    const la = raw.lat[i]!
    const lo = raw.lon[i]!
    const rd = raw.distance ? raw.distance[i]! : NaN
    if (usePos && (!(finite(la) && finite(lo)) || offLine.has(i))) continue
    if (!byPos && !finite(rd)) continue
    if (dist.length > 0) {
      const k = dist.length - 1
      const inc = byPos ? groundDistance(lat[k]!, lon[k]!, la, lo) : rd - dist[k]!
      if (!(inc > 0.05)) {
        pointDistanceM[i] = dist[k]!
        // Same place again: keep the first point (taking its elevation if it had none). An
        // elevation change over a stop of at least STOP_DRIFT_MIN_S (or of unknown duration) is
        // sensor drift (barometer during a pause), not climbing: it is carried as an offset
        // removed from the points that follow. Over a shorter stop it is noise, left to smoothing.
        const e = raw.ele[i]!
        if (finite(e)) {
          if (!finite(ele[k]!)) ele[k] = e - drift
          else if (finite(lastEle)) pending += e - lastEle
          lastEle = e
        }
        const t = raw.time ? raw.time[i]! : NaN
        if (finite(t)) lastTime = t
        continue
      }
      total = byPos ? total + inc : rd
      if (pending !== 0) {
        const t = raw.time ? raw.time[i]! : NaN
        const stopS = t - keptTime
        if (!finite(stopS) || stopS >= STOP_DRIFT_MIN_S) drift += pending
        pending = 0
      }
    } else {
      total = byPos ? 0 : rd
    }
    lat.push(usePos ? la : NaN)
    lon.push(usePos ? lo : NaN)
    const e = raw.ele[i]!
    ele.push(finite(e) ? e - drift : NaN)
    if (finite(e)) lastEle = e
    dist.push(total)
    pointDistanceM[i] = total
    const t = raw.time ? raw.time[i]! : NaN
    if (finite(t)) {
      if (finite(lastTime) && t > lastTime) moving += t - lastTime
      lastTime = t
    }
    keptTime = t
    clock.push(moving)
  }
  return { lat, lon, ele, dist, clock, moving, drift, pointDistanceM }
}
