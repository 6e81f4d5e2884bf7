// Test and benchmark helper: courses as the rows the API stores (start, end, grade, heading in
// degrees, bend radius or null, altitude), the way the previews read them.
import type { Course } from '@veloptima/engine'
import { importCourse } from '@veloptima/formats'
import { syntheticClimb } from '../../../../../../packages/formats/test/fixtures/synthetic-climb.ts'
import type { SegmentRow } from './engine-input.ts'

/** The engine's course as stored segment rows. */
export function segmentRowsOf(course: Course): SegmentRow[] {
  return Array.from({ length: course.n }, (_, i) => ({
    start: course.start[i]!,
    end: course.start[i + 1]!,
    grade: course.grade[i]!,
    heading: (course.heading[i]! * 180) / Math.PI,
    radius: Number.isFinite(course.radius[i]!) ? course.radius[i]! : null,
    altitude: course.altitude[i]!,
  }))
}

/** The synthetic climb (packages/formats' fixture) imported at 20 m, as the API imports it. */
export function syntheticClimbCourse(name = 'synthetic-climb.gpx'): Course {
  return importCourse(new TextEncoder().encode(syntheticClimb().gpx), name, {
    segmentLengthM: 20,
  }).course
}
