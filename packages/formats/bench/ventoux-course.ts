// The long bench course: the real Mont Ventoux (Bédoin) GPX ridden up and down until the course has
// `segments` segments of 10 m (180 km: 18 000). Shared by the simulate, optimize and browser
// preview benchmarks so that they measure the same course. The real-world files are found by
// scripts/test-data.ts (`npm run test-data` fetches them); without them the benchmark stops, naming
// the missing file.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { needs } from '../../../scripts/test-data.ts'
import type { CourseSegmentInput } from '@veloptima/engine'
import { importCourse } from '../src/index.ts'

export const coursesDir = needs('courses').path('courses')

export function ventouxUpAndDown(segments: number): {
  segments: CourseSegmentInput[]
  startAltitudeM: number
} {
  const name = 'mont-ventoux-bedoin.gpx'
  const climb = importCourse(readFileSync(resolve(coursesDir, name)), name, {
    segmentLengthM: 10,
  }).course
  const segs: CourseSegmentInput[] = []
  for (let leg = 0; segs.length < segments; leg++) {
    for (let k = 0; k < climb.n && segs.length < segments; k++) {
      const i = leg % 2 === 0 ? k : climb.n - 1 - k // up, then back down
      const sign = leg % 2 === 0 ? 1 : -1
      segs.push({
        lengthM: climb.length[i]!,
        grade: sign * climb.grade[i]!,
        headingDeg: ((climb.heading[i]! * 180) / Math.PI + (sign > 0 ? 0 : 180)) % 360,
        radiusM: climb.radius[i]!,
      })
    }
  }
  return { segments: segs, startAltitudeM: climb.altitude[0]! }
}
