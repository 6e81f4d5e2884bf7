// Stretches of a course (wind, air) laid over its segments.
import type { Course } from './types.ts'

/** A stretch between two distances from the start (m). */
export interface Stretch {
  startM: number
  endM: number
}

/** A segment that stretches cover: its index, its length and the metres inside each stretch. */
export interface SegmentCover<S extends Stretch> {
  i: number
  len: number
  parts: [stretch: S, metres: number][]
}

/** The segments that sorted, non-overlapping stretches cover, in course order. */
export function stretchCover<S extends Stretch>(
  course: Course,
  stretches: readonly S[],
): SegmentCover<S>[] {
  const out: SegmentCover<S>[] = []
  let j = 0
  for (let i = 0; i < course.n; i++) {
    const a = course.start[i]!
    const b = course.start[i + 1]!
    const len = b - a
    if (!(len > 0)) continue
    while (j < stretches.length && stretches[j]!.endM <= a) j++
    if (j >= stretches.length || stretches[j]!.startM >= b) continue
    const parts: [S, number][] = []
    for (let k = j; k < stretches.length && stretches[k]!.startM < b; k++) {
      const s = stretches[k]!
      const part = Math.min(b, s.endM) - Math.max(a, s.startM)
      if (!(part <= 0)) parts.push([s, part])
    }
    out.push({ i, len, parts })
  }
  return out
}
