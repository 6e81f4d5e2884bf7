// Raw points (from GPX, TCX, FIT or JSON) → Course: geodesic distances, elevation cleaning
// (missing values filled or the file rejected, spikes removed, light smoothing), resampling into
// equal segments, heading and curvature radius.
import type { Course } from './types.ts'
import { courseStats } from './types.ts'
import { enuOffset, mengerRadius } from './geo.ts'
import { CourseError } from './build-types.ts'
import type { BuildCourseOptions, BuiltCourse, RawPoints } from './build-types.ts'
import { checkPlausible, MAX_COURSE_M, MAX_GRADE } from './plausible.ts'
import { cleanElevation, closeLoop, isRecordedRide, resampleProfile } from './elevation.ts'
import { distanceSource, keepPoints, offLinePoints, type KeptPoints } from './points.ts'
import { diff, interpolator, steepestWindow } from './profile.ts'

/**
 * Hysteresis (m) of the ascent of a recorded ride: barometric and GPS altitude wander by a few
 * metres even after smoothing, and summing every wiggle turns a flat ride into a hilly one (the
 * Ironman bike leg on flat Cozumel: 512 m as a plain sum, 107 m with 3 m). 3 m is the low end
 * of what devices and tools use (3–5 m). Planned routes (no timestamps) keep every rise.
 */
export const RECORDED_ASCENT_THRESHOLD_M = 3

const show = (v: number): string => (Number.isNaN(v) ? 'NaN' : String(v))

export function buildCourse(raw: RawPoints, opts: BuildCourseOptions = {}): BuiltCourse {
  const n0 = raw.lat.length
  if (n0 < 2) throw new CourseError('too_few_points', `expected at least 2 points, got ${n0}`)
  checkPlausible(raw)
  const src = distanceSource(raw, opts)
  // 0. Points off the route's line (out-and-back spikes) are left out, and reported.
  const spikes0 = offLinePoints(raw, src)
  // 1. Keep usable points, cumulative horizontal distance, drop repeats (stationary points).
  const kept = keepPoints(raw, src, new Set(spikes0.map((s) => s.index)))
  const x = distanceFromStart(kept)
  const m = x.length
  const length = x[m - 1]!
  // 2–3. Elevation: reject when absent, fill gaps by interpolation in distance, remove spikes.
  const { z, missing, spikes } = cleanElevation(x, kept.ele, opts)
  const recorded = isRecordedRide(raw, length, m)
  // 4. Barometric drift on a recorded loop, removed in proportion to the moving time.
  const loopClosureM = recorded ? closeLoop(z, kept, src.usePos) : null
  // 5. Resample into equal segments.
  const { nSeg, start, alt, clampedM } = resampleProfile(raw, x, z, recorded, opts)
  const grade = new Float64Array(nSeg)
  for (let k = 0; k < nSeg; k++) grade[k] = (alt[k + 1]! - alt[k]!) / (start[k + 1]! - start[k]!)
  // 6. Heading and curvature radius from the positions (straight and due north without them).
  const { heading, radius } = src.usePos
    ? headingAndRadius(x, kept, start, opts)
    : { heading: new Float64Array(nSeg), radius: new Float64Array(nSeg).fill(Infinity) }
  checkSteepest(raw, alt, start, kept.pointDistanceM)
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
      distanceSource: src.byPos ? 'positions' : 'recorded',
      driftAtStopsM: kept.drift,
      loopClosureM,
      clampedToFileRangeM: clampedM,
      positionSpikes: spikes0,
    },
    pointDistanceM: kept.pointDistanceM,
  }
}

/**
 * The kept points' distance from the first (m), also shifting `pointDistanceM` to that frame;
 * rejects a course shorter than 1 m or longer than `MAX_COURSE_M`.
 */
function distanceFromStart(kept: KeptPoints): Float64Array {
  const { dist, pointDistanceM } = kept
  const m = dist.length
  const x = new Float64Array(dist)
  const x0 = x[0]!
  for (let i = 0; i < m; i++) x[i] = x[i]! - x0
  for (let i = 0; i < pointDistanceM.length; i++) pointDistanceM[i] = pointDistanceM[i]! - x0
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
  return x
}

/** Each segment's heading (rad from north) and curvature radius (m; Infinity when straight). */
function headingAndRadius(
  x: Float64Array,
  kept: KeptPoints,
  start: Float64Array,
  opts: BuildCourseOptions,
): { heading: Float64Array; radius: Float64Array } {
  const nSeg = start.length - 1
  const length = start[nSeg]!
  const heading = new Float64Array(nSeg)
  const radius = new Float64Array(nSeg).fill(Infinity)
  const latAt = interpolator(x, new Float64Array(kept.lat))
  const lonAt = interpolator(x, new Float64Array(kept.lon))
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
  return { heading, radius }
}

/** Rejects a profile whose steepest 100 m exceed `MAX_GRADE`, naming the file's nearest point. */
function checkSteepest(
  raw: RawPoints,
  alt: Float64Array,
  start: Float64Array,
  pointDistanceM: Float64Array,
): void {
  const steep = steepestWindow(alt, start, 100)
  if (!(Math.abs(steep.grade) > MAX_GRADE)) return
  // Name the file's point nearest to where that stretch starts.
  const s0 = start[steep.k]!
  let at = 0
  let near = Infinity
  for (let i = 0; i < pointDistanceM.length; i++) {
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
