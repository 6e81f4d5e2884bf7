// Raw points (from GPX, TCX, FIT or JSON) → Course: geodesic distances, elevation cleaning
// (missing values filled or the file rejected, spikes removed, light smoothing), resampling into
// equal segments, heading and curvature radius.
import type { Course } from './types.ts'
import { courseStats } from './types.ts'
import { enuOffset, groundDistance, mengerRadius } from './geo.ts'
import { CourseError } from './build-types.ts'
import type { BuildCourseOptions, BuiltCourse, RawPoints } from './build-types.ts'
import {
  checkPlausible,
  MAX_COURSE_M,
  MAX_GRADE,
  MAX_SPIKE_SHARE,
  positionSpikes,
} from './plausible.ts'
import { diff, fillGaps, interpolator, median5, movingAverage, steepestWindow } from './profile.ts'

export * from './build-types.ts'
export {
  checkPlausible,
  ELEVATION_RANGE_M,
  MAX_COURSE_M,
  MAX_GRADE,
  MAX_SPEED_MPS,
  MAX_SPIKE_SHARE,
  positionSpikes,
  SPIKE_MIN_DETOUR_M,
  SPIKE_SPACING_FACTOR,
  type PositionSpike,
} from './plausible.ts'

const finite = Number.isFinite
/**
 * Hysteresis (m) of the ascent of a recorded ride: barometric and GPS altitude wander by a few
 * metres even after smoothing, and summing every wiggle turns a flat ride into a hilly one (the
 * Ironman bike leg on flat Cozumel: 512 m as a plain sum, 107 m with 3 m). 3 m is the low end
 * of what devices and tools use (3–5 m). Planned routes (no timestamps) keep every rise.
 */
export const RECORDED_ASCENT_THRESHOLD_M = 3
/** A stop shorter than this (s) does not drift: its elevation change is noise. */
const STOP_DRIFT_MIN_S = 30
/** A recording whose first and last positions are this close (m) is a loop. */
const LOOP_CLOSE_M = 200

const show = (v: number): string => (Number.isNaN(v) ? 'NaN' : String(v))

export function buildCourse(raw: RawPoints, opts: BuildCourseOptions = {}): BuiltCourse {
  const n0 = raw.lat.length
  if (n0 < 2) throw new CourseError('too_few_points', `expected at least 2 points, got ${n0}`)
  checkPlausible(raw)
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
  // 0. Points off the route's line (out-and-back spikes) are left out, and reported.
  const spikes0 = usePos ? positionSpikes(raw.lat, raw.lon).spikes : []
  if (spikes0.length > Math.max(3, MAX_SPIKE_SHARE * withPos)) {
    const first = spikes0[0]!
    throw new CourseError(
      'position_spikes',
      `point ${first.index}: ${spikes0.length} of ${withPos} points lie off the route's line (the first adds a ${(first.detourM / 1000).toFixed(1)} km detour), expected at most ${Math.round(MAX_SPIKE_SHARE * 100)} %`,
    )
  }
  const offLine = new Set(spikes0.map((s) => s.index))
  // 1. Keep usable points, cumulative horizontal distance, drop repeats (stationary points).
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
  const m = dist.length
  const x = new Float64Array(dist)
  const x0 = x[0]!
  for (let i = 0; i < m; i++) x[i] = x[i]! - x0
  for (let i = 0; i < n0; i++) pointDistanceM[i] = pointDistanceM[i]! - x0
  const length = m ? x[m - 1]! : 0
  if (m < 2 || length < 1) {
    throw new CourseError(
      'too_short',
      `expected a course longer than 1 m, got ${length.toFixed(1)} m`,
    )
  }
  if (length > MAX_COURSE_M) {
    throw new CourseError(
      'too_long',
      `expected a course of at most ${MAX_COURSE_M / 1000} km, got ${(length / 1000).toFixed(0)} km`,
    )
  }
  // 2. Elevation: reject when absent, fill gaps by interpolation in distance.
  let missing = 0
  for (let i = 0; i < m; i++) if (!finite(ele[i]!)) missing++
  if (missing === m) {
    throw new CourseError('no_elevation', `expected elevation data, got none in ${m} points`)
  }
  const maxMissing = opts.maxMissingElevation ?? 0.5
  if (missing > maxMissing * m) {
    throw new CourseError(
      'too_much_missing_elevation',
      `expected elevation in at least ${Math.round((1 - maxMissing) * 100)} % of the points, got ${m - missing} of ${m}`,
    )
  }
  const z = new Float64Array(m)
  fillGaps(x, ele, z)
  // 3. Spikes: far from the median of the 5-point neighbourhood → replaced by interpolation.
  const spikeM = opts.spikeThresholdM ?? 25
  let spikes = 0
  if (m >= 5) {
    const bad: number[] = []
    for (let i = 0; i < m; i++) {
      const a = Math.max(0, Math.min(m - 5, i - 2))
      const med = median5(z[a]!, z[a + 1]!, z[a + 2]!, z[a + 3]!, z[a + 4]!)
      if (Math.abs(z[i]! - med) > spikeM) bad.push(i)
    }
    if (bad.length > 0 && bad.length < m / 2) {
      const e2 = Array.from(z) as number[]
      for (const i of bad) e2[i] = NaN
      fillGaps(x, e2, z)
      spikes = bad.length
    }
  }
  // A recorded ride: dense timestamped points (~1 s apart), elevation from a barometer or GPS.
  let timed = 0
  if (raw.time) for (let i = 0; i < n0; i++) if (finite(raw.time[i]!)) timed++
  const recorded = length / (m - 1) < 20 && timed >= 0.5 * n0
  // 4. Barometric drift on a loop: a recording that ends where it started (in position) ends at
  // the altitude it started at. What the stops did not explain is weather drift, removed in
  // proportion to the moving time (pressure changes with time, not with distance).
  let loopClosureM: number | null = null
  if (recorded && usePos && moving > 0) {
    const gap = groundDistance(lat[0]!, lon[0]!, lat[m - 1]!, lon[m - 1]!)
    if (gap <= LOOP_CLOSE_M) {
      loopClosureM = z[m - 1]! - z[0]!
      for (let i = 0; i < m; i++) z[i] = z[i]! - (loopClosureM * clock[i]!) / moving
    }
  }
  // 5. Resample into equal segments.
  const target = opts.segmentLengthM ?? 10
  const nSeg = Math.max(1, Math.round(length / target))
  const seg = length / nSeg
  const altAt = interpolator(x, z)
  const alt = new Float64Array(nSeg + 1)
  const start = new Float64Array(nSeg + 1)
  for (let k = 0; k <= nSeg; k++) {
    start[k] = k === nSeg ? length : k * seg
    alt[k] = altAt(start[k]!)
  }
  // A recorded ride carries GPS/barometric noise that would add false climbing: smooth over a
  // wider window than for planned routes.
  const smooth = opts.smoothingM ?? (recorded ? 100 : 25)
  const half = Math.floor(smooth / seg)
  if (half >= 1) movingAverage(alt, half)
  // A recording's corrected altitudes stay within what its sensor measured: drift removal that
  // would go beyond (e.g. the loop closure) is held at the file's lowest/highest value.
  let clampedM = 0
  if (recorded) {
    let lo = Infinity
    let hi = -Infinity
    for (let i = 0; i < n0; i++) {
      const e = raw.ele[i]!
      if (!finite(e)) continue
      if (e < lo) lo = e
      if (e > hi) hi = e
    }
    for (let k = 0; k <= nSeg; k++) {
      const a = alt[k]!
      const c = a < lo ? lo : a > hi ? hi : a
      clampedM = Math.max(clampedM, Math.abs(c - a))
      alt[k] = c
    }
  }
  const grade = new Float64Array(nSeg)
  for (let k = 0; k < nSeg; k++) grade[k] = (alt[k + 1]! - alt[k]!) / (start[k + 1]! - start[k]!)
  // 6. Heading and curvature radius from the positions (straight and due north without them).
  const heading = new Float64Array(nSeg)
  const radius = new Float64Array(nSeg).fill(Infinity)
  if (usePos) {
    const latAt = interpolator(x, new Float64Array(lat))
    const lonAt = interpolator(x, new Float64Array(lon))
    const base = opts.curvatureBaseM ?? 20
    const straight = opts.straightRadiusM ?? 200
    for (let k = 0; k < nSeg; k++) {
      const la0 = latAt(start[k]!)
      const lo0 = lonAt(start[k]!)
      const o = enuOffset(la0, lo0, latAt(start[k + 1]!), lonAt(start[k + 1]!))
      heading[k] = (Math.atan2(o.east, o.north) + 2 * Math.PI) % (2 * Math.PI)
      const mid = 0.5 * (start[k]! + start[k + 1]!)
      const sa = Math.max(0, mid - base)
      const sb = Math.min(length, mid + base)
      if (sb - sa < base) continue
      const lm = latAt(mid)
      const lnm = lonAt(mid)
      const p1 = enuOffset(lm, lnm, latAt(sa), lonAt(sa))
      const p3 = enuOffset(lm, lnm, latAt(sb), lonAt(sb))
      const r = mengerRadius(p1.east, p1.north, 0, 0, p3.east, p3.north)
      radius[k] = r > straight ? Infinity : Math.max(r, 5)
    }
  }
  const steep = steepestWindow(alt, start, 100)
  if (Math.abs(steep.grade) > MAX_GRADE) {
    // Name the file's point nearest to where that stretch starts.
    const s0 = start[steep.k]!
    let at = 0
    let near = Infinity
    for (let i = 0; i < n0; i++) {
      const gap = Math.abs(pointDistanceM[i]! - s0)
      if (gap < near) {
        near = gap
        at = i
      }
    }
    throw new CourseError(
      'impossible_grade',
      `point ${at}: elevation ${show(raw.ele[at]!)} m makes the 100 m from ${(s0 / 1000).toFixed(2)} km ${(steep.grade * 100).toFixed(0)} % steep, expected at most ±${MAX_GRADE * 100} %`,
    )
  }
  const course: Course = {
    n: nSeg,
    length: diff(start),
    grade,
    heading,
    radius,
    crrFactor: new Float64Array(nSeg).fill(1),
    altitude: alt,
    start,
  }
  return {
    course,
    stats: courseStats(course, { ascentThresholdM: recorded ? RECORDED_ASCENT_THRESHOLD_M : 0 }),
    cleaning: {
      pointsRead: n0,
      pointsUsed: m,
      elevationFilled: missing,
      spikesRemoved: spikes,
      distanceSource: byPos ? 'positions' : 'recorded',
      driftAtStopsM: drift,
      loopClosureM,
      clampedToFileRangeM: clampedM,
      positionSpikes: spikes0,
    },
    pointDistanceM,
  }
}
