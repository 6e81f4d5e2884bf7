// The course as flat arrays: the simulation and the optimizer read these in their hot loops.

/**
 * A course cut into `n` segments. Lengths are HORIZONTAL distances (as GPS tools report them);
 * grade is rise/run, so a segment climbs `grade·length` metres and the rider travels
 * `length·√(1 + grade²)` along the road. Per-segment values are constant over the segment.
 */
export interface Course {
  readonly n: number
  /** Horizontal length of each segment (m), > 0. */
  readonly length: Float64Array
  /** Rise over run of each segment. */
  readonly grade: Float64Array
  /** Direction of travel, radians clockwise from north. */
  readonly heading: Float64Array
  /** Curvature radius (m) of each segment; Infinity for straight. */
  readonly radius: Float64Array
  /** Surface multiplier on the rider's Crr (1 = asphalt). */
  readonly crrFactor: Float64Array
  /** n + 1 boundary altitudes (m): altitude[i+1] = altitude[i] + grade[i]·length[i]. */
  readonly altitude: Float64Array
  /** n + 1 cumulative horizontal distances (m) of the boundaries, start[0] = 0. */
  readonly start: Float64Array
}

export interface CourseStats {
  distanceM: number
  ascentM: number
  descentM: number
  minGrade: number
  maxGrade: number
  segmentCount: number
}

/** Surface names accepted in scenarios, with their Crr multiplier relative to asphalt
 * (bikecalculator-style presets in science.md §9.2: concrete 0.002, asphalt 0.005, gravel 0.006,
 * grass 0.007, off-road 0.020, sand 0.030). */
export const SURFACE_CRR_FACTOR: Readonly<Record<string, number>> = {
  asphalt: 1,
  concrete: 0.4,
  gravel: 1.2,
  grass: 1.4,
  offroad: 4,
  sand: 6,
}

export interface CourseSegmentInput {
  lengthM: number
  grade: number
  /** Degrees clockwise from north; 0 when unknown. */
  headingDeg?: number
  radiusM?: number
  crrFactor?: number
}

/** Builds a Course from explicit segments (the scenario's `segments` form). */
export function courseFromSegments(
  segments: readonly CourseSegmentInput[],
  startAltitudeM = 0,
): Course {
  const n = segments.length
  const length = new Float64Array(n)
  const grade = new Float64Array(n)
  const heading = new Float64Array(n)
  const radius = new Float64Array(n)
  const crrFactor = new Float64Array(n)
  const altitude = new Float64Array(n + 1)
  const start = new Float64Array(n + 1)
  altitude[0] = startAltitudeM
  for (let i = 0; i < n; i++) {
    const s = segments[i]!
    length[i] = s.lengthM
    grade[i] = s.grade
    heading[i] = ((s.headingDeg ?? 0) * Math.PI) / 180
    radius[i] = s.radiusM ?? Infinity
    crrFactor[i] = s.crrFactor ?? 1
    altitude[i + 1] = altitude[i]! + s.grade * s.lengthM
    start[i + 1] = start[i]! + s.lengthM
  }
  return { n, length, grade, heading, radius, crrFactor, altitude, start }
}

/** Distance, ascent, descent and grade range of a course. */
export function courseStats(c: Course): CourseStats {
  let ascent = 0
  let descent = 0
  let minGrade = Infinity
  let maxGrade = -Infinity
  for (let i = 0; i < c.n; i++) {
    const dh = c.altitude[i + 1]! - c.altitude[i]!
    if (dh > 0) ascent += dh
    else descent -= dh
    const g = c.grade[i]!
    if (g < minGrade) minGrade = g
    if (g > maxGrade) maxGrade = g
  }
  return {
    distanceM: c.start[c.n]!,
    ascentM: ascent,
    descentM: descent,
    minGrade: c.n ? minGrade : 0,
    maxGrade: c.n ? maxGrade : 0,
    segmentCount: c.n,
  }
}
