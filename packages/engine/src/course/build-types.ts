// What course building takes (raw points, options) and gives (the course, its cleaning), and its
// error: stable codes with a message saying what is missing.
import type { Course, CourseStats } from './types.ts'
import type { PositionSpike } from './plausible.ts'

/** Points as read from a file; NaN marks a missing value. */
export interface RawPoints {
  lat: ArrayLike<number>
  lon: ArrayLike<number>
  /** Elevation (m). */
  ele: ArrayLike<number>
  /** Recorded cumulative distance (m), e.g. from a wheel sensor; optional. */
  distance?: ArrayLike<number>
  /** Timestamps (s); optional. Dense timestamped points are a recorded ride (noisier elevation). */
  time?: ArrayLike<number>
}

export interface BuildCourseOptions {
  /** Target segment length (m), default 10. */
  segmentLengthM?: number
  /** Largest share of points allowed without elevation (default 0.5). */
  maxMissingElevation?: number
  /** A point farther than this from the median of its neighbours is a spike (m, default 25). */
  spikeThresholdM?: number
  /** Half-width of the moving average on the resampled altitude (m; default 25, or 100 for a recorded ride: dense timestamped points; 0 = none). */
  smoothingM?: number
  /** Half-distance of the three points used for the curvature radius (m, default 20). */
  curvatureBaseM?: number
  /** Radii above this are straight road (m, default 200). */
  straightRadiusM?: number
  /** Use the recorded distance channel when (almost) every point has one (default true). */
  preferRecordedDistance?: boolean
}

export type CourseErrorCode =
  | 'too_few_points'
  | 'no_distance'
  | 'no_elevation'
  | 'too_much_missing_elevation'
  | 'too_short'
  /** A value that is not a finite number (Infinity, a non-numeric text in the file). */
  | 'invalid_value'
  /** Latitude outside −90…90° or longitude outside −180…180°. */
  | 'invalid_coordinates'
  /** Elevation outside −500…9,000 m. */
  | 'invalid_elevation'
  /** Two timestamped points farther apart than a bicycle can go in the time between them. */
  | 'impossible_speed'
  /** A stretch of at least 100 m steeper than ±50 % after cleaning. */
  | 'impossible_grade'
  /** Longer than 2,000 km. */
  | 'too_long'
  /** More than 5 % of the points lie off the route's line (out-and-back spikes). */
  | 'position_spikes'

/** The points do not make a course; `code` is stable, the message says what is missing. */
export class CourseError extends Error {
  constructor(
    readonly code: CourseErrorCode,
    message: string,
  ) {
    super(message)
    this.name = 'CourseError'
  }
}

export interface CourseCleaning {
  pointsRead: number
  pointsUsed: number
  elevationFilled: number
  spikesRemoved: number
  /** 'positions' (geodesic) or 'recorded' (distance channel, no positions). */
  distanceSource: 'positions' | 'recorded'
  /** Elevation change over stops of 30 s or more (m, summed), removed as sensor drift. */
  driftAtStopsM: number
  /** A recorded loop (ends within 200 m) whose altitudes did not close: the end-minus-start
   * difference (m) removed in proportion to the moving time; null when not a recorded loop. */
  loopClosureM: number | null
  /** Largest distance (m) by which a recording's corrected altitude was brought back into the
   * file's own range of altitudes (0 when it stayed inside). */
  clampedToFileRangeM: number
  /** Points left out because they lie off the route's line (an out-and-back spike: a GPS fix
   * far from its neighbours), with the detour each made (m); empty when none. */
  positionSpikes: PositionSpike[]
}

export interface BuiltCourse {
  course: Course
  stats: CourseStats
  cleaning: CourseCleaning
  /** For each point read, its distance along the course (m, the frame of `course.start`); a
   * repeated (stationary) point has the distance of the point it repeats, NaN for a point that
   * was not used (no position or distance). Maps a recording's samples onto segments. */
  pointDistanceM: Float64Array
}
