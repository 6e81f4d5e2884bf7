// Course edits done on the stored segments (what every simulation reads): trim to the race part
// and set the road surface of a stretch. Pure functions; the page PATCHes their result.

type Surface = 'smooth' | 'normal' | 'rough'
export type EditableSegment = {
  start: number
  end: number
  grade: number
  heading: number
  radius: number | null
  altitude: number
  surface?: Surface | undefined
  manual?: boolean | undefined
}
export type EditableTrack = { lat: number[]; lon: number[]; ele: number[]; distance: number[] }
export type CourseStats = {
  distance: number
  ascent: number
  descent: number
  max_grade: number
  min_grade: number
}

const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d

/** Grades are shown over at least this much road (m), as the engine's courseStats does: one
 * noisy 10 m segment is not what a rider climbs. */
export const GRADE_WINDOW_M = 100

export function statsOfSegments(segments: readonly EditableSegment[]): CourseStats {
  let ascent = 0
  let descent = 0
  for (const s of segments) {
    const rise = s.grade * (s.end - s.start)
    if (rise > 0) ascent += rise
    else descent -= rise
  }
  const { maxGrade, minGrade } = gradeRangeOf(segments, GRADE_WINDOW_M)
  const first = segments[0]
  const last = segments[segments.length - 1]
  return {
    distance: first && last ? round(last.end - first.start, 1) : 0,
    ascent: round(ascent, 1),
    descent: round(descent, 1),
    max_grade: round(Number.isFinite(maxGrade) ? maxGrade : 0, 4),
    min_grade: round(Number.isFinite(minGrade) ? minGrade : 0, 4),
  }
}

/** Steepest climb and descent over stretches of at least `window` metres (a segment longer than
 * the window counts as itself; a course shorter than it has its mean grade). */
export function gradeRangeOf(
  segments: readonly EditableSegment[],
  window: number,
): { maxGrade: number; minGrade: number } {
  const n = segments.length
  if (n === 0) return { maxGrade: 0, minGrade: 0 }
  // Boundary distances and altitudes (rise accumulated from the grades).
  const x = [segments[0]!.start]
  const z = [0]
  for (const s of segments) {
    x.push(s.end)
    z.push(z.at(-1)! + s.grade * (s.end - s.start))
  }
  let maxGrade = -Infinity
  let minGrade = Infinity
  let j = 0
  for (let k = 0; k < n; k++) {
    if (j <= k) j = k + 1
    while (j < n && x[j]! - x[k]! < window) j++
    const run = x[j]! - x[k]!
    if (run < window && k > 0) break
    const g = run > 0 ? (z[j]! - z[k]!) / run : 0
    maxGrade = Math.max(maxGrade, g)
    minGrade = Math.min(minGrade, g)
  }
  return { maxGrade, minGrade }
}

export class CourseEditError extends Error {}

/**
 * Keeps the segments between `startM` and `endM` (whole segments whose middle lies inside), with
 * distances starting again at 0, and the track points in that range.
 */
export function trimCourse(
  segments: readonly EditableSegment[],
  track: EditableTrack | null,
  startM: number,
  endM: number,
): { segments: EditableSegment[]; track: EditableTrack | null; stats: CourseStats } {
  const total = segments.length ? segments[segments.length - 1]!.end : 0
  if (!(startM >= 0) || !(endM <= total + 1e-6) || !(endM > startM)) {
    throw new CourseEditError(
      `Trim: expected 0 ≤ start < end ≤ ${(total / 1000).toFixed(2)} km, got ${(startM / 1000).toFixed(2)}–${(endM / 1000).toFixed(2)} km.`,
    )
  }
  const kept = segments.filter((s) => {
    const mid = (s.start + s.end) / 2
    return mid >= startM && mid <= endM
  })
  if (kept.length < 2) {
    throw new CourseEditError(
      'Trim: fewer than two segments would remain; choose a longer stretch.',
    )
  }
  const offset = kept[0]!.start
  const out = kept.map((s) => ({
    ...s,
    start: round(s.start - offset, 2),
    end: round(s.end - offset, 2),
  }))
  let newTrack: EditableTrack | null = null
  if (track) {
    const lo = offset
    const hi = kept[kept.length - 1]!.end
    newTrack = { lat: [], lon: [], ele: [], distance: [] }
    track.distance.forEach((d, i) => {
      if (d < lo - 1e-6 || d > hi + 1e-6) return
      newTrack!.lat.push(track.lat[i]!)
      newTrack!.lon.push(track.lon[i]!)
      newTrack!.ele.push(track.ele[i]!)
      newTrack!.distance.push(round(d - lo, 1))
    })
    if (newTrack.lat.length < 2) newTrack = null
  }
  return { segments: out, track: newTrack, stats: statsOfSegments(out) }
}

/** Sets `surface` on the segments whose middle lies between `fromM` and `toM`. */
export function setSurface(
  segments: readonly EditableSegment[],
  fromM: number,
  toM: number,
  surface: Surface,
): { segments: EditableSegment[]; changed: number } {
  if (!(toM > fromM)) {
    throw new CourseEditError(
      `Surface: the stretch must end after it starts (got ${(fromM / 1000).toFixed(2)}–${(toM / 1000).toFixed(2)} km).`,
    )
  }
  let changed = 0
  const out = segments.map((s) => {
    const mid = (s.start + s.end) / 2
    if (mid < fromM || mid > toM) return s
    changed++
    return { ...s, surface, manual: true }
  })
  if (changed === 0) throw new CourseEditError('Surface: no segment lies in that stretch.')
  return { segments: out, changed }
}

/** Metres of road per surface (segments without one take the course's default). */
export function surfaceLengths(
  segments: readonly EditableSegment[],
  fallback: Surface,
): Record<Surface, number> {
  const out: Record<Surface, number> = { smooth: 0, normal: 0, rough: 0 }
  for (const s of segments) out[s.surface ?? fallback] += s.end - s.start
  return out
}
