// A course written as JSON (the map track, the segments and the statistics, in the API's stored
// form) is checked with the rules of course building (plausible.ts): coordinates and elevations
// in range, distances finite, non-negative and increasing, no point off the route's line, grades
// over at least 100 m of road within ±MAX_GRADE, statistics consistent with the segments. Each
// issue names the field (a path into the JSON), the point or segment, and what is expected; the
// API turns them into a 400 (docs/limits-input.md lists every range).
import { groundDistance } from './geo.ts'
import { ELEVATION_RANGE_M, MAX_COURSE_M, MAX_GRADE, positionSpikes } from './plausible.ts'

export type CourseIssue = { path: (string | number)[]; message: string }

/** The map track as stored: positions (°), elevation (m) and distance along the course (m). */
export interface StoredTrackJson {
  lat: readonly number[]
  lon: readonly number[]
  ele: readonly number[]
  distance: readonly number[]
}

/** A stored segment (distances along the course in m, heading in °, radius in m). */
export interface StoredSegmentJson {
  start: number
  end: number
  grade: number
  heading: number
  radius: number | null
  altitude: number
}

export interface StoredStatsJson {
  distance: number
  ascent: number
  descent: number
  max_grade: number
  min_grade: number
  climbs?: readonly { start: number; end: number; ascent: number; grade: number }[] | undefined
}

/** Grades are judged over at least this much road (m), as they are shown (courseStats). */
export const GRADE_WINDOW_M = 100
/** Steepest single segment (rise/run): the simulation's own bound. */
export const MAX_SEGMENT_GRADE = 1
/**
 * Consecutive track points may be at most this many times farther apart in a straight line than
 * along the course, plus TRACK_STEP_SLACK_M (the distance along a recorded ride can come from a
 * wheel sensor while the positions are GPS fixes).
 */
export const TRACK_STEP_FACTOR = 2
export const TRACK_STEP_SLACK_M = 100
/** Segments follow each other: a segment starts where the one before it ends (± this, m). */
const CONTIGUOUS_M = 0.05
/** At most this many issues are reported at once (the first ones along the course). */
const MAX_ISSUES = 5

const finite = Number.isFinite
const [ELE_LO, ELE_HI] = ELEVATION_RANGE_M
const pct = (g: number) => `${(g * 100).toFixed(0)} %`
const km = (m: number) => `${(m / 1000).toFixed(2)} km`

/** Issues of a map track (empty when it is plausible). */
export function trackIssues(track: StoredTrackJson): CourseIssue[] {
  const out: CourseIssue[] = []
  const add = (path: (string | number)[], message: string) => {
    if (out.length < MAX_ISSUES) out.push({ path, message })
  }
  const { lat, lon, ele, distance } = track
  const n = Math.min(lat.length, lon.length, ele.length, distance.length)
  for (let i = 0; i < n && out.length < MAX_ISSUES; i++) {
    const la = lat[i]!
    const lo = lon[i]!
    const e = ele[i]!
    const d = distance[i]!
    if (!(finite(la) && la >= -90 && la <= 90))
      add(['lat', i], 'expected a latitude from −90 to 90°')
    if (!(finite(lo) && lo >= -180 && lo <= 180))
      add(['lon', i], 'expected a longitude from −180 to 180°')
    if (!(finite(e) && e >= ELE_LO && e <= ELE_HI))
      add(['ele', i], `expected an elevation from ${ELE_LO} to ${ELE_HI} m`)
    if (!(finite(d) && d >= 0 && d <= MAX_COURSE_M))
      add(['distance', i], `expected a distance from 0 to ${MAX_COURSE_M} m`)
    else if (i > 0 && finite(distance[i - 1]!) && d < distance[i - 1]!)
      add(['distance', i], `must not be less than the point before it (${distance[i - 1]} m)`)
  }
  if (out.length > 0) return out
  for (let i = 1; i < n && out.length < MAX_ISSUES; i++) {
    const step = groundDistance(lat[i - 1]!, lon[i - 1]!, lat[i]!, lon[i]!)
    const along = distance[i]! - distance[i - 1]!
    if (step > TRACK_STEP_FACTOR * along + TRACK_STEP_SLACK_M) {
      add(
        ['lat', i],
        `point ${i} is ${km(step)} from point ${i - 1} in a straight line but ${along.toFixed(1)} m farther along the course: a jump no rider makes; correct or remove the point`,
      )
    }
  }
  if (out.length > 0) return out
  const { spikes, thresholdM } = positionSpikes(lat, lon)
  for (const s of spikes.slice(0, MAX_ISSUES)) {
    add(
      ['lat', s.index],
      `point ${s.index} lies off the line of its neighbours: the way out to it and back is ${km(s.detourM)} (more than ${km(thresholdM)} is a spike, not a road); correct or remove the point`,
    )
  }
  return out
}

/** Issues of a list of segments (empty when it is plausible). */
export function segmentsIssues(segments: readonly StoredSegmentJson[]): CourseIssue[] {
  const out: CourseIssue[] = []
  const add = (path: (string | number)[], message: string) => {
    if (out.length < MAX_ISSUES) out.push({ path, message })
  }
  const n = segments.length
  for (let i = 0; i < n && out.length < MAX_ISSUES; i++) {
    const s = segments[i]!
    if (!(finite(s.start) && s.start >= 0 && s.start <= MAX_COURSE_M))
      add([i, 'start'], `expected a distance from 0 to ${MAX_COURSE_M} m`)
    else if (i > 0 && Math.abs(s.start - segments[i - 1]!.end) > CONTIGUOUS_M)
      add(
        [i, 'start'],
        `must be where segment ${i - 1} ends (${segments[i - 1]!.end} m): segments follow each other`,
      )
    if (!(finite(s.end) && s.end <= MAX_COURSE_M && s.end > s.start))
      add([i, 'end'], `expected more than start (${s.start} m) and at most ${MAX_COURSE_M} m`)
    if (!(finite(s.grade) && Math.abs(s.grade) <= MAX_SEGMENT_GRADE))
      add(
        [i, 'grade'],
        `expected a grade (rise/run) from −${MAX_SEGMENT_GRADE} to ${MAX_SEGMENT_GRADE}`,
      )
    if (!(finite(s.altitude) && s.altitude >= ELE_LO && s.altitude <= ELE_HI))
      add([i, 'altitude'], `expected an elevation from ${ELE_LO} to ${ELE_HI} m`)
    if (!(finite(s.heading) && s.heading >= 0 && s.heading <= 360))
      add([i, 'heading'], 'expected a heading from 0 to 360°')
    if (s.radius !== null && !(finite(s.radius) && s.radius > 0))
      add([i, 'radius'], 'expected a curvature radius above 0 m, or null for a straight')
  }
  if (out.length > 0 || n === 0) return out
  // Boundaries and the altitude the grades make, from the first segment's altitude.
  const x = new Float64Array(n + 1)
  const z = new Float64Array(n + 1)
  x[0] = segments[0]!.start
  z[0] = segments[0]!.altitude
  for (let i = 0; i < n; i++) {
    const s = segments[i]!
    x[i + 1] = s.end
    z[i + 1] = z[i]! + s.grade * (s.end - s.start)
    if (z[i + 1]! < ELE_LO - 1 || z[i + 1]! > ELE_HI + 1) {
      add(
        [i, 'grade'],
        `the grades reach an elevation of ${z[i + 1]!.toFixed(0)} m at ${km(s.end)}, expected ${ELE_LO} to ${ELE_HI} m`,
      )
      return out
    }
  }
  const total = x[n]! - x[0]!
  if (total <= GRADE_WINDOW_M) {
    const g = (z[n]! - z[0]!) / total
    if (Math.abs(g) > MAX_GRADE + 1e-9)
      add(
        [0, 'grade'],
        `the course climbs ${pct(g)} over its ${total.toFixed(0)} m, expected at most ±${pct(MAX_GRADE)}`,
      )
    return out
  }
  let j = 0
  for (let k = 0; k < n; k++) {
    if (j <= k) j = k + 1
    while (j < n && x[j]! - x[k]! < GRADE_WINDOW_M) j++
    const run = x[j]! - x[k]!
    if (run < GRADE_WINDOW_M && k > 0) break
    const g = (z[j]! - z[k]!) / run
    if (Math.abs(g) > MAX_GRADE + 1e-9) {
      add(
        [k, 'grade'],
        `the ${run.toFixed(0)} m from ${km(x[k]!)} are ${pct(g)} steep: grades over ${GRADE_WINDOW_M} m of road stay within ±${pct(MAX_GRADE)}`,
      )
      return out
    }
  }
  return out
}

/** Issues of a course's statistics (empty when they are plausible). */
export function statsIssues(stats: StoredStatsJson): CourseIssue[] {
  const out: CourseIssue[] = []
  const add = (path: (string | number)[], message: string) => {
    if (out.length < MAX_ISSUES) out.push({ path, message })
  }
  const d = stats.distance
  if (!(finite(d) && d >= 0 && d <= MAX_COURSE_M))
    add(['distance'], `expected a distance from 0 to ${MAX_COURSE_M} m`)
  const top = finite(d) ? d : MAX_COURSE_M
  for (const key of ['ascent', 'descent'] as const) {
    const v = stats[key]
    if (!(finite(v) && v >= 0 && v <= top * MAX_SEGMENT_GRADE + 1))
      add([key], `expected 0 m up to the course's distance (${top} m)`)
  }
  for (const key of ['max_grade', 'min_grade'] as const) {
    const v = stats[key]
    if (!(finite(v) && Math.abs(v) <= MAX_GRADE))
      add(
        [key],
        `expected a grade (over at least ${GRADE_WINDOW_M} m) from −${MAX_GRADE} to ${MAX_GRADE}`,
      )
  }
  if (out.length === 0 && stats.min_grade > stats.max_grade)
    add(['min_grade'], `must not be more than max_grade (${stats.max_grade})`)
  stats.climbs?.forEach((c, i) => {
    if (!(finite(c.start) && c.start >= 0 && finite(c.end) && c.end > c.start && c.end <= top + 1))
      add(['climbs', i, 'end'], `expected start < end ≤ the course's distance (${top} m)`)
    else if (!(finite(c.ascent) && c.ascent >= 0 && c.ascent <= c.end - c.start))
      add(['climbs', i, 'ascent'], `expected 0 m up to the climb's length (${c.end - c.start} m)`)
    if (!(finite(c.grade) && Math.abs(c.grade) <= MAX_GRADE))
      add(['climbs', i, 'grade'], `expected a grade from −${MAX_GRADE} to ${MAX_GRADE}`)
  })
  return out
}

/**
 * Issues between the parts of one course (each part already plausible on its own): the
 * statistics' distance is the segments' length, the track lies within it. Paths start at the
 * course's field (`stats`, `track`).
 */
export function courseConsistencyIssues(course: {
  track?: StoredTrackJson | null | undefined
  segments?: readonly StoredSegmentJson[] | undefined
  stats?: StoredStatsJson | null | undefined
}): CourseIssue[] {
  const out: CourseIssue[] = []
  const segs = course.segments
  if (!segs || segs.length === 0) return out
  const length = segs[segs.length - 1]!.end - segs[0]!.start
  const slack = Math.max(1, 0.005 * length)
  if (course.stats && Math.abs(course.stats.distance - length) > slack) {
    out.push({
      path: ['stats', 'distance'],
      message: `expected the segments' length (${length.toFixed(1)} m)`,
    })
  }
  const t = course.track
  if (t && t.distance.length > 0) {
    const last = t.distance[t.distance.length - 1]!
    if (last > length + slack) {
      out.push({
        path: ['track', 'distance', t.distance.length - 1],
        message: `expected at most the segments' length (${length.toFixed(1)} m): the track lies along the course`,
      })
    }
  }
  return out
}
