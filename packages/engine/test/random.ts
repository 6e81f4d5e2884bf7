// Seeded random courses for invariant tests (replayable: every failure names its seed).
import { courseFromSegments } from '../src/index.ts'
import type { Course, CourseSegmentInput } from '../src/index.ts'

/** mulberry32: small, fast, deterministic. */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
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
