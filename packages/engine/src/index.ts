// The engine's public API, by job: only what the apps, formats, the CLI and the tests use
// (ARCHITECTURE.md, src/README.md).

// Simulate: the physics (docs/engine/science.md), the rider model, W′ balance, a ride over a
// course, a recorded ride replayed, the scenario files
export {
  airDensity,
  isaDensity,
  isaPressurePa,
  isothermalPressurePa,
  saturationVapourPressurePa,
} from './physics/air.ts'
export { G0, MARTIN } from './physics/constants.ts'
export {
  brakingDeceleration,
  brakingDistance,
  corneringSpeedLimit,
  leanAngle,
} from './physics/cornering.ts'
export {
  aeroPower,
  bearingPower,
  gravityPower,
  kineticPower,
  rollingPower,
  steadySpeed,
} from './physics/martin.ts'
export { airSpeed, tangentialAirSpeed, windComponents, yawAngle } from './physics/wind.ts'
export { parseScenario, resultToJson } from './scenario.ts'
export { type CriticalPowerFit, criticalPowerFromEfforts } from './sim/critical-power.ts'
export { normalizedPower } from './sim/metrics.ts'
export {
  densityAt,
  type Environment,
  prepareModel,
  type Rider,
  type WindSegment,
} from './sim/model.ts'
export { positionAt, positionDragFactor, type RiderPosition, scaleDrag } from './sim/positions.ts'
export {
  type RecordedSamples,
  recordedSegments,
  type RecordedSegments,
  SEGMENT_PINNED,
} from './sim/recorded.ts'
export { replayRecorded } from './sim/replay.ts'
export { simulate, simulatePrepared, type SimulationResult } from './sim/simulate.ts'
export { createStepResult, step } from './sim/step.ts'
export { EngineInputError } from './sim/validate.ts'
export { bartramTau, skiba2012Tau, wPrimeBalance, type WPrimeModel } from './sim/wbal.ts'

// Optimize: the pacing and equipment optimizers, their stored inputs and their outputs
export { optimizeEquipment } from './optimize/equipment.ts'
export type { PacingConstraint } from './optimize/exact.ts'
export type { PacingInput, PacingSettings } from './optimize/pacing-setup.ts'
export { optimizePacing } from './optimize/positions.ts'
export { capacityCosts, costsAsked, type CapacityCosts } from './optimize/capacity-costs.ts'
export {
  costsFollow,
  runPacingScenario,
  withCosts,
  type PacingRun,
} from './optimize/run-scenario.ts'
export type { RideRules, RuleStretch } from './sim/rules.ts'
export { durabilityByLevel, type RiderLevel } from './sim/capacity.ts'
export {
  optimizeTargetTime,
  type TargetTimeOutcome,
  type TargetTimeResult,
} from './optimize/target-time.ts'
export {
  equipmentOutput,
  type EquipmentOutput,
  type DurabilityOutput,
  type FuelOutput,
  type RuleStretchOutput,
  type OutputContext,
  outputContext,
  type TargetTimeOutput,
  pacingOf,
  pacingOutput,
  planExtras,
  type PacingOutput,
  type RankedOutput,
  type RideSeries,
  type RunOutput,
  type RunPlanSection,
  type RunPlanTarget,
} from './optimize/run-output.ts'
export {
  optimizeResultToJson,
  type OptimizeScenario,
  parseOptimizeScenario,
} from './optimize/scenario.ts'
export {
  effectiveSetup,
  storedOptimizerInput,
  type StoredSegmentRow,
  type StoredSetup,
  type StoredSurface,
} from './optimize/stored-input.ts'
export { validatePacingInput } from './optimize/validate.ts'

// Aero: the field test analysis (runs, virtual elevation, the direct method, planning)
export { analyzeAero } from './aero/analyze.ts'
export {
  type AeroPlan,
  DEFAULT_POWER,
  DEFAULT_RESOLVE_CDA,
  DEFAULT_RUN_SD,
  runScatter,
  runsNeeded,
} from './aero/plan.ts'
export { detectRuns, detectRunsAndSkipped } from './aero/runs.ts'
export { DEFAULT_TRACK, prepareVe } from './aero/series.ts'
export {
  type ActivitySamples,
  type AeroAnalysis,
  type AeroAnalysisInput,
  type AeroComparison,
  type AeroEnvironment,
  type AeroRun,
  OPTIONAL_SAMPLE_CHANNELS,
  type RunSpec,
  type SkippedLap,
  type TrackGeometry,
  type VeParams,
  type VeSegment,
  type VeSeries,
  VE_EXCLUDED,
} from './aero/types.ts'
export { CRR_RANGE } from './aero/sound.ts'
export { virtualElevation } from './aero/ve-model.ts'
export { fitVirtualElevation } from './aero/ve.ts'

// Calibrate: effective CdA, Crr and wind from a recorded ride with power
export { calibrateRide } from './calibrate/calibrate.ts'
export {
  calibrateRecordedRide,
  compareReplay,
  type RecordedRide,
  type RideCalibrationInput,
  type RideCalibrationReport,
} from './calibrate/ride.ts'
export type { RideCalibration } from './calibrate/types.ts'
export type { RideWeather } from './calibrate/weather.ts'
export { type DurabilityFit, type DurationFit, fitDurability } from './durability/fit.ts'

// Tools: tyre pressure and wheel recommendations
export type { Handling } from './tools/stability.ts'
export {
  type BikeType,
  HOOKLESS_MAX_PA,
  recommendTyrePressure,
  type Surface,
  type TyrePressureInput,
  type TyrePressureResult,
  type TyreType,
  type WidthKind,
} from './tools/tyre-pressure.ts'
export { ToolInputError } from './tools/validate.ts'
export {
  FRONT_WHEELS,
  REAR_WHEELS,
  type WheelClass,
  WHEELS,
  YAW_STEP_DEG,
} from './tools/wheel-tables.ts'
export {
  recommendWheels,
  type Terrain,
  type WheelsInput,
  type WheelsResult,
} from './tools/wheels.ts'

// Weather: a forecast along the course at the rider's arrival times
export {
  type ArrivalInput,
  type ArrivalOutcome,
  iterateArrival,
  simulationEvaluator,
} from './weather/arrival.ts'
export {
  conditionsAlongCourse,
  type CourseConditions,
  forecastEnvironment,
  overlayWindSegments,
} from './weather/conditions.ts'
export {
  conditionsAt,
  type Forecast,
  type ForecastPoint,
  validateForecast,
} from './weather/forecast.ts'
export {
  iteratePlanArrival,
  type PlanArrivalOutcome,
  type PlanRound,
} from './weather/plan-arrival.ts'
export { windHeightFactor } from './weather/profile.ts'
export { forecastSensitivity, type ForecastSensitivity } from './weather/sensitivity.ts'

// Course: building, checking, sectioning and summarising a course
export {
  type BuildCourseOptions,
  type BuiltCourse,
  CourseError,
  type CourseErrorCode,
  type RawPoints,
} from './course/build-types.ts'
export { buildCourse } from './course/build.ts'
export { groundDistance, metresPerRadian } from './course/geo.ts'
export { mergeSegments } from './course/merge.ts'
export { positionSpikes } from './course/plausible.ts'
export {
  autoSections,
  checkSections,
  type CourseSection,
  mergeSections,
  moveSectionEnd,
  type SectionLevel,
  splitSection,
  summarizeSections,
} from './course/sections.ts'
export {
  courseConsistencyIssues,
  type CourseIssue,
  segmentsIssues,
  statsIssues,
  type StoredSegmentJson,
  type StoredStatsJson,
  type StoredTrackJson,
  trackIssues,
} from './course/stored-check.ts'
export {
  climbing,
  type Course,
  courseFromSegments,
  type CourseSegmentInput,
  courseStats,
  gradeRange,
} from './course/types.ts'

// Fuel: carbohydrate, fluid and feeds along a simulated ride
export {
  type Feed,
  type FuelInput,
  type FuelOptions,
  fuelPlan,
  type FuelPlan,
  fuelRideOf,
  type FuelRide,
} from './fuel/fuel.ts'
