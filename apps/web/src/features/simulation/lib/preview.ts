// The optimization computed in the browser (Web Worker): the scenario the server would run,
// parsed by the engine's own parser, optimized, summarized like the server's stored result.
// On long courses the worker answers twice: first a draft on a course of segments merged to about
// 20 m and with longer control segments (one power per ≥ 250 m of similar grade): a third of the
// work, within ~0.4 % of the full optimum on a 200 km course and the shared real courses; then the
// full resolution, which is what the saved run computes.
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
/** Segment length of the draft (m). */
export const DRAFT_SEGMENT_M = 20
/** Control segments of the draft: at least 250 m unless the grade changes by 4.5 %, else a new
 * control when the grade departs by 1.5 % (the saved run: 100 m and 1 %). */
const DRAFT_CONTROLS = { minLengthM: 250, gradeTolerance: 0.015 }

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
