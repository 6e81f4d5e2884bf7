// A recording as the replay sees it: each sample placed on the course built from the same file
// (distance along the course, the course's elevation and heading there, speed from the course
// distance), so the calibrated CdA and Crr are those of the engine's own model of the ride and a
// replay on that course (sim/replay.ts) rides the same road, elevation and distance.
import { activitySamples } from '../aero/samples.ts'
import type { ActivitySamples } from '../aero/types.ts'
import type { Course } from '../course/types.ts'

export interface CoursePoints {
  /** Seconds (any origin), per recorded point. */
  timeS: ArrayLike<number>
  /** Distance along the course (m, the frame of `course.start`); NaN where not placed. */
  distanceM: ArrayLike<number>
  /** Crank power (W); NaN where missing. */
  powerW: ArrayLike<number>
}

export interface SamplesOnCourse {
  samples: ActivitySamples
  /** Course heading at each sample (rad clockwise from north), for `CalibrationInput.headingRad`. */
  headingRad: Float64Array
}

/** Half-width (samples) of the centred difference giving the speed (GPS distance is noisy). */
const SPEED_HALF_WINDOW = 2

/**
 * The recorded points placed on `course` (points without a distance or time, and repeated
 * timestamps, are dropped): time from the first point, speed from the course distance over
 * ±2 samples, elevation and heading of the course at each point's distance.
 */
export function samplesOnCourse(course: Course, points: CoursePoints): SamplesOnCourse {
  const keep: number[] = []
  const m = Math.min(points.timeS.length, points.distanceM.length, points.powerW.length)
  for (let i = 0; i < m; i++) {
    const t = points.timeS[i]!
    if (!Number.isFinite(t) || !Number.isFinite(points.distanceM[i])) continue
    if (keep.length > 0 && !(t > points.timeS[keep[keep.length - 1]!]!)) continue
    keep.push(i)
  }
  const n = keep.length
  const t = new Float64Array(n)
  const d = new Float64Array(n)
  const power = new Float64Array(n)
  const altitude = new Float64Array(n)
  const heading = new Float64Array(n)
  const total = course.start[course.n]!
  let seg = 0
  const t0 = n > 0 ? points.timeS[keep[0]!]! : 0
  for (let k = 0; k < n; k++) {
    const i = keep[k]!
    t[k] = points.timeS[i]! - t0
    const x = Math.min(Math.max(points.distanceM[i]!, 0), total)
    d[k] = x
    power[k] = points.powerW[i]!
    // Samples mostly advance along the course: walk from the previous segment.
    while (seg > 0 && course.start[seg]! > x) seg--
    while (seg < course.n - 1 && course.start[seg + 1]! <= x) seg++
    altitude[k] = course.altitude[seg]! + course.grade[seg]! * (x - course.start[seg]!)
    heading[k] = course.heading[seg]!
  }
  const speed = new Float64Array(n)
  for (let k = 0; k < n; k++) {
    const a = Math.max(0, k - SPEED_HALF_WINDOW)
    const b = Math.min(n - 1, k + SPEED_HALF_WINDOW)
    speed[k] = t[b]! > t[a]! ? (d[b]! - d[a]!) / (t[b]! - t[a]!) : 0
  }
  return {
    samples: activitySamples({ t, startEpochS: t0, speed, power, altitude, distance: d }),
    headingRad: heading,
  }
}
