// Where the forecast is read: positions along a course's track at distances.
import type { CoursePoint } from './source.ts'

/** Forecast points along the course: the start, the finish and evenly between (6 in all). */
export const COURSE_POINTS = 6

/** The position at `distanceM` along a track (interpolated between its points, clamped). */
export function positionAt(
  track: { lat: number[]; lon: number[]; distance: number[] },
  distanceM: number,
): { latDeg: number; lonDeg: number } {
  const d = track.distance
  let k = 0
  while (k < d.length - 2 && d[k + 1]! < distanceM) k++
  const span = d[k + 1]! - d[k]!
  const f = span > 0 ? Math.min(1, Math.max(0, (distanceM - d[k]!) / span)) : 0
  return {
    latDeg: track.lat[k]! + f * (track.lat[k + 1]! - track.lat[k]!),
    lonDeg: track.lon[k]! + f * (track.lon[k + 1]! - track.lon[k]!),
  }
}

/** Points along a track at even distances, positions interpolated between the track's points. */
export function pointsAlong(
  track: { lat: number[]; lon: number[]; distance: number[] },
  count = COURSE_POINTS,
): CoursePoint[] {
  const total = track.distance[track.distance.length - 1] ?? 0
  return Array.from({ length: count }, (_, j) => {
    const at = count === 1 ? 0 : (total * j) / (count - 1)
    return { ...positionAt(track, at), distanceM: at }
  })
}
