// The pure tasks a worker thread runs: JSON in, JSON out, progress along the way. They call the
// engine and nothing else (no database, no files), so a thread can be killed at any moment.
import {
  equipmentOutput,
  optimizeEquipment,
  outputContext,
  pacingOutput,
  runPacingScenario,
  type EquipmentOutput,
  type PacingOutput,
} from '@veloptima/engine'
import { courseFromFile } from '../routes/imports/course-rows.ts'
import { analyseSession, readActivitySummary } from './aero-task.ts'
import { parseOptimizerInput, type OptimizerInput } from './engine-inputs.ts'

export type Progress = (progress: number, message?: string) => void

export type {
  EquipmentOutput,
  PacingOutput,
  RunOutput,
  RunPlanSection as PlanSection,
} from '@veloptima/engine'

function pacing(input: OptimizerInput, progress: Progress): PacingOutput {
  progress(5, 'Reading the inputs')
  const parsed = parseOptimizerInput(input)
  progress(10, `Optimizing the pacing over ${parsed.input.course.n} segments`)
  const { result, ctx } = runPacingScenario(parsed)
  progress(95, 'Summarizing the plan')
  return pacingOutput(result, parsed.input.course, ctx)
}

function equipment(input: OptimizerInput, progress: Progress): EquipmentOutput {
  progress(5, 'Reading the inputs')
  const parsed = parseOptimizerInput(input)
  if (!parsed.equipment) throw new Error('equipment: expected option groups, got nothing')
  const course = parsed.input.course
  progress(10, 'Optimizing every equipment combination')
  const r = optimizeEquipment({ ...parsed.input, equipment: parsed.equipment })
  progress(95, 'Summarizing the ranking')
  return equipmentOutput(r, course, outputContext(parsed.input))
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export const tasks: Record<string, (input: any, progress: Progress) => unknown> = {
  pacing,
  equipment,
  'import-course': (input: { bytes: Uint8Array; fileName: string }) =>
    courseFromFile(input.bytes, input.fileName),
  'aero-read': readActivitySummary,
  'aero-analysis': analyseSession,
}
