// The optimization computed in the browser (Web Worker): the scenario the server would run,
// parsed by the engine's own parser, optimized, summarized like the server's stored result.
// On long courses the worker answers twice: first a draft on a course of segments merged to about
// 20 m and with longer control segments (one power per ≥ 250 m of similar grade): a third of the
// work, within ~0.4 % of the full optimum on a 200 km course and the shared real courses; then the
// full resolution, which is what the saved run computes.
import {
  courseFromSegments,
  optimizeEquipment,
  optimizePacing,
  parseOptimizeScenario,
  type CourseSegmentInput,
} from '@veloptima/engine'
import type { OptimizerInput } from './engine-input.ts'
import { equipmentOutput, pacingOutput, type RunOutput } from './run-output.ts'

/** Courses with more segments than this get a draft first (≈ 40 km at the 10 m default). */
export const DRAFT_ABOVE_SEGMENTS = 4000
/** Segment length of the draft (m). */
export const DRAFT_SEGMENT_M = 20
/** Control segments of the draft: at least 250 m unless the grade changes by 4.5 %, else a new
 * control when the grade departs by 1.5 % (the saved run: 100 m and 1 %). */
const DRAFT_CONTROLS = { minLengthM: 250, gradeTolerance: 0.015 }

/**
 * Consecutive segments merged until each piece is at least `minLengthM` long: length-weighted
 * grade (the same climb) and rolling-resistance factor, the direction of the chord, the tightest
 * bend's radius (a merged corner never gets faster).
 */
export function mergeSegments(
  segments: readonly CourseSegmentInput[],
  minLengthM: number,
): CourseSegmentInput[] {
  const out: CourseSegmentInput[] = []
  let i = 0
  while (i < segments.length) {
    let len = 0
    let rise = 0
    let crr = 0
    let sx = 0
    let sy = 0
    let radius = Infinity
    for (; i < segments.length && len < minLengthM; i++) {
      const s = segments[i]!
      const h = ((s.headingDeg ?? 0) * Math.PI) / 180
      len += s.lengthM
      rise += s.grade * s.lengthM
      crr += (s.crrFactor ?? 1) * s.lengthM
      sx += s.lengthM * Math.sin(h)
      sy += s.lengthM * Math.cos(h)
      if (s.radiusM !== undefined && s.radiusM < radius) radius = s.radiusM
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

export function computePreview(
  input: OptimizerInput,
  type: 'pacing' | 'equipment',
  options: { draft?: boolean } = {},
): RunOutput {
  const segments = options.draft ? mergeSegments(input.segments, DRAFT_SEGMENT_M) : input.segments
  const parsed = parseOptimizeScenario(input.scenario, () =>
    courseFromSegments(segments, input.startAltitudeM),
  )
  const course = parsed.input.course
  const pacing = parsed.input.pacing
  const run = options.draft
    ? {
        ...parsed.input,
        pacing: { ...pacing, controls: { ...pacing.controls, ...DRAFT_CONTROLS } },
      }
    : parsed.input
  if (type === 'equipment') {
    if (!parsed.equipment) throw new Error('equipment: expected option groups, got nothing')
    return equipmentOutput(optimizeEquipment({ ...run, equipment: parsed.equipment }), course)
  }
  return pacingOutput(optimizePacing(run), course)
}
