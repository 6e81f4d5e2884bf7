// The optimization computed in the browser (Web Worker): the scenario the server would run,
// parsed by the engine's own parser, optimized, summarized like the server's stored result.
import {
  courseFromSegments,
  optimizeEquipment,
  optimizePacing,
  parseOptimizeScenario,
} from '@veloptima/engine'
import type { OptimizerInput } from './engine-input.ts'
import { equipmentOutput, pacingOutput, type RunOutput } from './run-output.ts'

export function computePreview(input: OptimizerInput, type: 'pacing' | 'equipment'): RunOutput {
  const parsed = parseOptimizeScenario(input.scenario, () =>
    courseFromSegments(input.segments, input.startAltitudeM),
  )
  const course = parsed.input.course
  if (type === 'equipment') {
    if (!parsed.equipment) throw new Error('equipment: expected option groups, got nothing')
    return equipmentOutput(
      optimizeEquipment({ ...parsed.input, equipment: parsed.equipment }),
      course,
    )
  }
  return pacingOutput(optimizePacing(parsed.input), course)
}
