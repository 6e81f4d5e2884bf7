// The optimization computed in the browser (Web Worker): the scenario the server would run,
// parsed by the engine's own parser, optimized, summarized like the server's stored result.
// On long courses the worker answers twice: first a draft on a copy of the course merged to at
// most ~2 500 pieces (20 m or longer: 80 m on a 200 km course; hairpins keep their own) with
// longer control segments (one power per ≥ 250 m of similar grade): about a third of the work, its
// optimum within 0.2 % of the full one on 120–200 km courses made of the shared real climbs; then
// the full resolution, which is what the saved run computes.
import {
  courseFromSegments,
  mergeSegments,
  optimizeEquipment,
  optimizePacing,
  parseOptimizeScenario,
} from '@veloptima/engine'
import type { OptimizerInput } from './engine-input.ts'
import { equipmentOutput, pacingOutput, type RunOutput } from './run-output.ts'

/** Courses with more segments than this get a draft first (≈ 40 km at the 10 m default). */
export const DRAFT_ABOVE_SEGMENTS = 4000
/** Shortest segment of the draft (m). */
export const DRAFT_SEGMENT_M = 20
/** The draft has about this many segments at most (longer pieces on longer courses). */
export const DRAFT_MAX_SEGMENTS = 2500
/** Bends tighter than this (m) keep their own segments in the draft: merged into a long piece, a
 * hairpin's speed limit would hold over all of it (Alpe d'Huez at 48 m: 1.3 % slow, 0.2 % so). */
const DRAFT_KEEP_BENDS_BELOW_M = 30

/** Length (m) the draft merges a course's segments to: 20 m, or longer past 50 km. */
export function draftSegmentLength(segments: readonly { lengthM: number }[]): number {
  const length = segments.reduce((sum, s) => sum + s.lengthM, 0)
  return Math.max(DRAFT_SEGMENT_M, length / DRAFT_MAX_SEGMENTS)
}
/** Control segments of the draft: at least 250 m unless the grade changes by 4.5 %, else a new
 * control when the grade departs by 1.5 % (the saved run: 100 m and 1 %). */
const DRAFT_CONTROLS = { minLengthM: 250, gradeTolerance: 0.015 }

export function computePreview(
  input: OptimizerInput,
  type: 'pacing' | 'equipment',
  options: { draft?: boolean } = {},
): RunOutput {
  const segments = options.draft
    ? mergeSegments(input.segments, draftSegmentLength(input.segments), {
        keepBendsBelowM: DRAFT_KEEP_BENDS_BELOW_M,
      })
    : input.segments
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
