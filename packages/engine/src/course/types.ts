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
  /** Climbing (m) counted with hysteresis: a rise counts once it exceeds `ascentThresholdM`
   * above the last counted turning point (0 = every rise, the plain sum). */
  ascentM: number
  descentM: number
  /** Steepest descent and climb (rise/run) over at least `gradeWindowM` of road: what a rider
   * feels, not one noisy 10 m segment. */
  minGrade: number
  maxGrade: number
  segmentCount: number
  ascentThresholdM: number
  gradeWindowM: number
}

export interface CourseStatsOptions {
  /** Hysteresis of ascent and descent (m, default 0: planned routes, explicit segments).
   * buildCourse uses 3 m for recorded rides (barometer/GPS noise): see RECORDED_ASCENT_THRESHOLD_M. */
  ascentThresholdM?: number
  /** Shortest stretch over which grades are reported (m, default 100). */
  gradeWindowM?: number
}

/** Surface names accepted in scenarios, with their Crr multiplier relative to asphalt
 * (bikecalculator-style presets in docs/engine/science.md §9.2: concrete 0.002, asphalt 0.005, gravel 0.006,
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

/** Distance, ascent and descent (with hysteresis) and the grade range over ≥ 100 m windows. */
export function courseStats(c: Course, opts: CourseStatsOptions = {}): CourseStats {
  const threshold = opts.ascentThresholdM ?? 0
  const window = opts.gradeWindowM ?? 100
  const { ascentM, descentM } = climbing(c.altitude, c.n + 1, threshold)
  const { minGrade, maxGrade } = gradeRange(c, window)
  return {
    distanceM: c.start[c.n]!,
    ascentM,
    descentM,
    minGrade,
    maxGrade,
    segmentCount: c.n,
    ascentThresholdM: threshold,
    gradeWindowM: window,
  }
}

/**
 * Ascent and descent of a profile with hysteresis: the reference altitude moves only once the
 * profile has risen or fallen by at least `threshold` from it, and that change is counted; the
 * end counts as a turning point. With threshold 0 this is the plain sum of rises and falls.
 */
export function climbing(
  altitude: ArrayLike<number>,
  count = altitude.length,
  threshold = 0,
): { ascentM: number; descentM: number } {
  let ascentM = 0
  let descentM = 0
  let ref = altitude[0]!
  for (let i = 1; i < count; i++) {
    const a = altitude[i]!
    if (a - ref > 0 && a - ref >= threshold) {
      ascentM += a - ref
      ref = a
    } else if (ref - a > 0 && ref - a >= threshold) {
      descentM += ref - a
      ref = a
    }
  }
  // The end of the course is a turning point: what remains of the last rise or fall counts.
  const end = count > 0 ? altitude[count - 1]! : ref
  if (end > ref) ascentM += end - ref
  else descentM += ref - end
  return { ascentM, descentM }
}

/** Steepest climb and descent over windows of at least `window` metres (segments longer than the
 * window count as themselves; a course shorter than it has its mean grade). */
export function gradeRange(c: Course, window = 100): { minGrade: number; maxGrade: number } {
  if (c.n === 0) return { minGrade: 0, maxGrade: 0 }
  const total = c.start[c.n]!
  if (total <= window) {
    const g = (c.altitude[c.n]! - c.altitude[0]!) / total
    return { minGrade: g, maxGrade: g }
  }
  let minGrade = Infinity
  let maxGrade = -Infinity
  let j = 0
  for (let k = 0; k < c.n; k++) {
    if (j <= k) j = k + 1
    while (j < c.n && c.start[j]! - c.start[k]! < window) j++
    const run = c.start[j]! - c.start[k]!
    if (run < window && k > 0) break // the last windows would be shorter than `window`
    const g = (c.altitude[j]! - c.altitude[k]!) / run
    if (g < minGrade) minGrade = g
    if (g > maxGrade) maxGrade = g
  }
  return { minGrade, maxGrade }
}
