// From an imported course (formats + engine) to the columns of a `courses` row.
import {
  buildCourse,
  CourseError,
  groundDistance,
  type BuiltCourse,
  type Course,
} from '@veloptima/engine'
import { ImportError, readTrack, type TrackFormat } from '@veloptima/formats'
import type { CourseSegment, CourseStats, CourseTrack } from '@veloptima/db'

/**
 * Segment length for a course of `distanceM`: the engine's 10 m up to 50 km, then longer so a
 * course never has more than about 5,000 segments (the row, every result snapshot and the
 * browser's preview carry them all).
 */
export function segmentLengthFor(distanceM: number): number {
  return Math.max(10, Math.ceil(distanceM / 5000))
}

const round = (x: number, digits: number) => {
  const f = 10 ** digits
  return Math.round(x * f) / f
}

export function segmentsOf(course: Course): CourseSegment[] {
  const segments: CourseSegment[] = []
  for (let i = 0; i < course.n; i++) {
    const radius = course.radius[i]!
    segments.push({
      start: round(course.start[i]!, 2),
      end: round(course.start[i + 1]!, 2),
      grade: round(course.grade[i]!, 5),
      heading: round(((((course.heading[i]! * 180) / Math.PI) % 360) + 360) % 360, 1),
      radius: Number.isFinite(radius) ? round(radius, 1) : null,
      altitude: round(course.altitude[i]!, 2),
    })
  }
  return segments
}

export function statsOf(built: BuiltCourse): CourseStats {
  const s = built.stats
  return {
    distance: round(s.distanceM, 1),
    ascent: round(s.ascentM, 1),
    descent: round(s.descentM, 1),
    max_grade: round(s.maxGrade, 4),
    min_grade: round(s.minGrade, 4),
  }
}

/**
 * The track for the map: the file's positions (at most `maxPoints`, evenly thinned; the points
 * course building left out as off the route's line are not drawn), with the distance along them
 * scaled to the course's distance and the cleaned altitude at that distance. Null when the file
 * has no positions (an indoor ride with a distance channel only).
 */
export function trackOf(
  raw: { lat: ArrayLike<number>; lon: ArrayLike<number> },
  course: Course,
  maxPoints = 4000,
  leftOut: ReadonlySet<number> = new Set(),
): CourseTrack | null {
  const idx: number[] = []
  for (let i = 0; i < raw.lat.length; i++) {
    if (Number.isFinite(raw.lat[i]!) && Number.isFinite(raw.lon[i]!) && !leftOut.has(i)) idx.push(i)
  }
  if (idx.length < 2) return null
  const along = [0]
  for (let k = 1; k < idx.length; k++) {
    const a = idx[k - 1]!
    const b = idx[k]!
    along.push(along[k - 1]! + groundDistance(raw.lat[a]!, raw.lon[a]!, raw.lat[b]!, raw.lon[b]!))
  }
  const total = along[along.length - 1]!
  const scale = total > 0 ? course.start[course.n]! / total : 0
  const stride = Math.max(1, Math.ceil(idx.length / maxPoints))
  const track: CourseTrack = { lat: [], lon: [], ele: [], distance: [] }
  let j = 0
  for (let k = 0; k < idx.length; k++) {
    if (k % stride !== 0 && k !== idx.length - 1) continue
    const d = along[k]! * scale
    while (j < course.n - 1 && course.start[j + 1]! < d) j++
    const t = Math.min(1, Math.max(0, (d - course.start[j]!) / (course.length[j]! || 1)))
    track.lat.push(round(raw.lat[idx[k]!]!, 6))
    track.lon.push(round(raw.lon[idx[k]!]!, 6))
    track.distance.push(round(d, 1))
    track.ele.push(
      round(course.altitude[j]! + t * (course.altitude[j + 1]! - course.altitude[j]!), 1),
    )
  }
  return track
}

/** Everything a course row needs from a file, as plain JSON (it crosses a thread boundary). */
export type CourseFromFile = {
  name: string | null
  format: TrackFormat
  segments: CourseSegment[]
  stats: CourseStats
  track: CourseTrack | null
  cleaning: BuiltCourse['cleaning']
  /** What was repaired in the file, for the user (the import's answer carries them). */
  warnings: string[]
}

/** The user's words for the points left out as off the route's line (docs/limits-input.md). */
export function spikeWarnings(
  raw: { lat: ArrayLike<number>; lon: ArrayLike<number> },
  spikes: BuiltCourse['cleaning']['positionSpikes'],
): string[] {
  const shown = spikes.slice(0, 5).map((s) => {
    const at = `point ${s.index} (${round(raw.lat[s.index]!, 5)}, ${round(raw.lon[s.index]!, 5)})`
    return `${at} lies off the route's line, a ${(s.detourM / 1000).toFixed(1)} km detour out and back: it was left out of the course; correct the file if the route really goes there.`
  })
  if (spikes.length > shown.length) {
    shown.push(`${spikes.length - shown.length} more points off the route's line were left out.`)
  }
  return shown
}

/**
 * Reads a course file (formats) and builds the course (engine): the file is decoded once, the
 * course built with 10 m segments and, beyond 50 km, again with longer ones. Throws ImportError
 * naming the file.
 */
export function courseFromFile(bytes: Uint8Array, fileName: string): CourseFromFile {
  const raw = readTrack(bytes, fileName)
  let built: BuiltCourse
  try {
    built = buildCourse(raw)
    const length = segmentLengthFor(built.stats.distanceM)
    if (length !== 10) built = buildCourse(raw, { segmentLengthM: length })
  } catch (error) {
    if (error instanceof CourseError) throw new ImportError(error.code, error.message, fileName)
    throw error
  }
  return {
    name: raw.name,
    format: raw.format,
    segments: segmentsOf(built.course),
    stats: statsOf(built),
    track: trackOf(
      raw,
      built.course,
      4000,
      new Set(built.cleaning.positionSpikes.map((s) => s.index)),
    ),
    cleaning: built.cleaning,
    warnings: spikeWarnings(raw, built.cleaning.positionSpikes),
  }
}
