// Sample courses every user can read (DESIGN.md §3 "a few sample courses"): synthetic tracks made
// here from a heading and an elevation profile, built by the engine like any imported file, and
// written at every start under fixed ids (an upsert, so a start after a change refreshes them).
import { buildCourse } from '@veloptima/engine'
import type { Database } from '@veloptima/db'
import { upsertSampleCourse } from '../../repositories/courses.ts'
import { segmentLengthFor, segmentsOf, statsOf, trackOf } from './course-rows.ts'

type Leg = { lengthM: number; turnDegPerKm?: number }

type SampleSpec = {
  id: string
  name: string
  start: { lat: number; lon: number; headingDeg: number }
  legs: Leg[]
  /** Elevation (m) at a distance along the course (m). */
  elevation: (distanceM: number, totalM: number) => number
}

const M_PER_DEG_LAT = 111_320

/** Points every 10 m along legs of constant turn rate, with the elevation profile. */
export function samplePoints(spec: SampleSpec) {
  const lat: number[] = []
  const lon: number[] = []
  const ele: number[] = []
  const total = spec.legs.reduce((s, l) => s + l.lengthM, 0)
  let { lat: la, lon: lo, headingDeg: h } = spec.start
  let d = 0
  const push = () => {
    lat.push(la)
    lon.push(lo)
    ele.push(spec.elevation(d, total))
  }
  push()
  for (const leg of spec.legs) {
    for (let s = 0; s < leg.lengthM; s += 10) {
      h += ((leg.turnDegPerKm ?? 0) * 10) / 1000
      const r = (h * Math.PI) / 180
      la += (10 * Math.cos(r)) / M_PER_DEG_LAT
      lo += (10 * Math.sin(r)) / (M_PER_DEG_LAT * Math.cos((la * Math.PI) / 180))
      d += 10
      push()
    }
  }
  return { lat, lon, ele }
}

export const SAMPLE_COURSES: SampleSpec[] = [
  {
    id: '5a3b1e00-0000-4000-8000-000000000001',
    name: 'Sample · Flat 40 km time trial (out and back)',
    start: { lat: 52.37, lon: 4.9, headingDeg: 90 },
    legs: [
      { lengthM: 19_900 },
      { lengthM: 200, turnDegPerKm: 900 }, // the 180° turn at the far end
      { lengthM: 19_900 },
    ],
    elevation: (d) => 2 + 1.5 * Math.sin(d / 1500),
  },
  {
    id: '5a3b1e00-0000-4000-8000-000000000002',
    name: 'Sample · Alpine climb 12 km at 7.5 % with hairpins',
    start: { lat: 45.05, lon: 6.03, headingDeg: 0 },
    legs: Array.from({ length: 12 }, (_, i) => [
      { lengthM: 850 },
      { lengthM: 150, turnDegPerKm: i % 2 === 0 ? 1200 : -1200 }, // a hairpin every kilometre
    ]).flat(),
    elevation: (d) => 720 + 0.075 * d + 6 * Math.sin(d / 400),
  },
  {
    id: '5a3b1e00-0000-4000-8000-000000000003',
    name: 'Sample · Rolling 60 km loop',
    start: { lat: 48.1, lon: 11.5, headingDeg: 0 },
    legs: [{ lengthM: 60_000, turnDegPerKm: 6 }], // 360° over the loop
    elevation: (d, total) =>
      520 + 35 * Math.sin((2 * Math.PI * 7 * d) / total) + 10 * Math.sin(d / 900),
  },
]

/** Writes the sample courses (idempotent). */
export async function seedSampleCourses(database: Database): Promise<void> {
  for (const spec of SAMPLE_COURSES) {
    const points = samplePoints(spec)
    const total = spec.legs.reduce((s, l) => s + l.lengthM, 0)
    const built = buildCourse(points, { segmentLengthM: segmentLengthFor(total) })
    const values = {
      name: spec.name,
      segments: segmentsOf(built.course),
      stats: statsOf(built),
      track: trackOf(points, built.course),
    }
    await upsertSampleCourse(database.db, spec.id, values)
  }
}
