// Public API of the optimizers (pacing and equipment), see docs/decisions/0002 and 0003.
export { powerBounds, withDragFactor } from './pacing.ts'
// the public optimizer is position-aware (positions.ts wraps the core in pacing.ts)
export { optimizePacing } from './positions.ts'
export type { PacingResult, PositionedPacingInput } from './positions.ts'
export type { PacingInput, PacingSettings, PacingConstraint } from './pacing.ts'
export { sectionLabel } from './plan.ts'
export type { PlanSection, PlanTarget, SimplifiedPlan } from './plan.ts'
export { DEFAULT_MAX_TARGETS, DEFAULT_MIN_SECTION_M, MAX_TARGETS_LIMIT } from './rideable.ts'
export { optimizeEquipment } from './equipment.ts'
export type {
  EquipmentInput,
  EquipmentOption,
  EquipmentResult,
  EquipmentSpec,
  RankedCombination,
} from './equipment.ts'
export { parseOptimizeScenario, optimizeResultToJson } from './scenario.ts'
export { validatePacingInput } from './validate.ts'
export type { OptimizeScenario } from './scenario.ts'
export { pacingOutput, equipmentOutput, pacingOf } from './run-output.ts'
export type {
  RunPlanSection,
  RunPlanTarget,
  RideSeries,
  PacingOutput,
  RankedOutput,
  EquipmentOutput,
  RunOutput,
} from './run-output.ts'
export { storedOptimizerInput, effectiveSetup, validateSetupOverride } from './stored-input.ts'
export type {
  StoredSegmentRow,
  StoredSetup,
  StoredSetupOverride,
  StoredPosition,
  StoredSurface,
  StoredOptimizerInput,
} from './stored-input.ts'
