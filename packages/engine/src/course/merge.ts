// A coarser copy of a course's segments, for quick estimates (the browser's draft preview):
// consecutive segments merged until each piece is long enough.
import type { CourseSegmentInput } from './types.ts'

/**
 * Consecutive segments merged until each piece is about `minLengthM` long (at least 90 % of it,
 * or what is left at the end): length-weighted grade (the same climb) and rolling-resistance
 * factor, the direction of the chord, the tightest bend's radius (a merged corner never gets
 * faster). With `keepBendsBelowM`, a segment on a tighter bend stays a piece of its own, so the
 * corner's speed limit holds over the bend only, not over the whole merged piece.
 */
export function mergeSegments(
  segments: readonly CourseSegmentInput[],
  minLengthM: number,
  options: { keepBendsBelowM?: number } = {},
): CourseSegmentInput[] {
  const keep = options.keepBendsBelowM ?? 0
  const isBend = (s: CourseSegmentInput) => s.radiusM !== undefined && s.radiusM < keep
  const out: CourseSegmentInput[] = []
  let i = 0
  while (i < segments.length) {
    let len = 0
    let rise = 0
    let crr = 0
    let sx = 0
    let sy = 0
    let radius = Infinity
    // 10 % short still counts (two 9.99 m segments make one piece of 20 m, not three)
    for (; i < segments.length && len < 0.9 * minLengthM; i++) {
      const s = segments[i]!
      // a tight bend is a piece of its own: close the piece before it, and after it
      if (isBend(s) && len > 0) break
      const h = ((s.headingDeg ?? 0) * Math.PI) / 180
      len += s.lengthM
      rise += s.grade * s.lengthM
      crr += (s.crrFactor ?? 1) * s.lengthM
      sx += s.lengthM * Math.sin(h)
      sy += s.lengthM * Math.cos(h)
      if (s.radiusM !== undefined && s.radiusM < radius) radius = s.radiusM
      if (isBend(s)) {
        i++
        break
      }
    }
    const heading = ((Math.atan2(sx, sy) * 180) / Math.PI + 360) % 360
    out.push({
      lengthM: len,
      grade: rise / len,
      headingDeg: heading,
      ...(Number.isFinite(radius) ? { radiusM: radius } : {}),
      crrFactor: crr / len,
    })
  }
  return out
}
