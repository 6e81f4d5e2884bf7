// The aero analysis: runs, virtual elevation (Chung), the direct method, baseline comparison.
export * from './types.ts'
export {
  analyzeAero,
  DEFAULT_CALIBRATION_FACTOR,
  DEFAULT_REFERENCE_POWER_W,
  DEFAULT_REFERENCE_SPEED_MPS,
} from './analyze.ts'
export { detectRuns } from './runs.ts'
export {
  DEFAULT_TRACK,
  positionAveragedElevation,
  prepareVe,
  trackSeries,
  type PrepareVeOptions,
} from './series.ts'
export { virtualElevation, fitVirtualElevation, FALLBACK_CRR } from './ve.ts'
export { directCda, type DirectOptions, type DirectRunResult, type DirectWindow } from './direct.ts'
export { compareRuns, type CompareOptions, type CompareRun } from './compare.ts'
export {
  DEFAULT_RESOLVE_CDA,
  DEFAULT_RUN_SD,
  normalQuantile,
  planAnswer,
  runScatter,
  runsNeeded,
  type AeroPlan,
  type AeroPlanAnswer,
} from './plan.ts'
