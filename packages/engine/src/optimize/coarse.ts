// A coarser copy of the course for the optimizer's inner work. Consecutive fine segments of the
// same control segment are merged into pieces of about `targetM` metres (never across controls,
// so every piece keeps one decision variable). The global DP and the adjoint polish run on this
// copy, five times cheaper at the default 10 m resolution; every plan they produce is then judged,
// repaired and reported on the fine course by the simulation itself.
import { courseFromSegments, type Course, type CourseSegmentInput } from '../course/types.ts'
import type { Controls } from './controls.ts'

/** Speed caps below this (m/s, 72 km/h) shape the ride; higher ones rarely bind. */
const SLOW_CAP_MPS = 20

export interface CoarseCourse {
  course: Course
  /** controls over the coarse segments (same control indices as the fine ones) */
  controls: Controls
}

export function coarsen(
  course: Course,
  controls: Controls,
  targetM: number,
  vEnv: Float64Array,
): CoarseCourse {
  const segs: CourseSegmentInput[] = []
  const of: number[] = []
  const first: number[] = []
  for (let k = 0; k < controls.count; k++) {
    first.push(segs.length)
    const i1 = controls.first[k + 1]!
    let i = controls.first[k]!
    while (i < i1) {
      let len = 0
      let sx = 0
      let sy = 0
      let crr = 0
      let radius = Infinity
      const a0 = course.altitude[i]!
      let j = i
      // a segment under a real speed cap (a corner, or the braking before it) stays a piece of
      // its own: the cap must act over its own length, not over a merged 50 m
      const curved = (q: number) => Math.min(vEnv[q]!, vEnv[q + 1]!) < SLOW_CAP_MPS
      // adds segment q to the piece
      const take = (q: number) => {
        const l = course.length[q]!
        len += l
        sx += l * Math.sin(course.heading[q]!)
        sy += l * Math.cos(course.heading[q]!)
        crr += l * course.crrFactor[q]!
        radius = Math.min(radius, course.radius[q]!)
      }
      for (; j < i1 && (j === i || (len < targetM && !curved(j) && !curved(i))); j++) take(j)
      // a short remainder joins this piece rather than forming a sliver of its own
      if (j < i1 && !curved(i) && course.start[i1]! - course.start[j]! < 0.5 * targetM) {
        for (; j < i1 && !curved(j); j++) take(j)
      }
      segs.push({
        lengthM: len,
        grade: (course.altitude[j]! - a0) / len,
        headingDeg: (Math.atan2(sx, sy) * 180) / Math.PI,
        radiusM: radius,
        crrFactor: crr / len,
      })
      of.push(k)
      i = j
    }
  }
  first.push(segs.length)
  return {
    course: courseFromSegments(segs, course.altitude[0]!),
    controls: { count: controls.count, of: Int32Array.from(of), first: Int32Array.from(first) },
  }
}
