// Seeded random courses for invariant tests (replayable: every failure names its seed).
import { courseFromSegments } from '../src/index.ts'
import type { Course, CourseSegmentInput } from '../src/index.ts'
import { mulberry32 } from '../src/aero/random.ts'

/** mulberry32 seeded with the seed itself: small, fast, deterministic. */
export function rng(seed: number): () => number {
  return mulberry32(seed >>> 0)
}

/** A rolling course with random grades (−12 %…+15 %), turning headings and a few tight corners. */
export function randomCourse(seed: number, n = 200): Course {
  const r = rng(seed)
  const segs: CourseSegmentInput[] = []
  let grade = 0
  let heading = r() * 360
  for (let i = 0; i < n; i++) {
    grade = Math.max(-0.12, Math.min(0.15, grade + (r() - 0.5) * 0.03))
    heading = (heading + (r() - 0.5) * 30 + 360) % 360
    segs.push({
      lengthM: 10 + r() * 40,
      grade,
      headingDeg: heading,
      radiusM: r() < 0.05 ? 12 + r() * 60 : Infinity,
    })
  }
  return courseFromSegments(segs, 200 + r() * 1000)
}
