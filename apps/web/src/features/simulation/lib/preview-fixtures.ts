// Test and benchmark helper: courses as the rows the API stores (start, end, grade, heading in
// degrees, bend radius or null, altitude), the way the previews read them.
import type { Course } from '@veloptima/engine'
import { importCourse } from '@veloptima/formats'
import { syntheticClimb } from '../../../../../../packages/formats/test/fixtures/synthetic-climb.ts'
import type { SegmentRow, SetupLike } from './engine-input.ts'

/** A 70 kg rider on an 8 kg bike (CdA 0.32, CP 280 W) as the previews read a setup; `changes` replace parts. */
export function previewSetup(changes: Partial<SetupLike> = {}): SetupLike {
  return {
    rider_mass: 70,
    bike_mass: 8,
    extra_mass: 1,
    positions: [{ cda: 0.32 }],
    crr: { smooth: 0.0032, normal: 0.004, rough: 0.0055 },
    drivetrain_efficiency: 0.976,
    wheel_inertia: 0.14,
    cp: 280,
    w_prime: 20000,
    max_power: 700,
    ...changes,
  }
}

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
