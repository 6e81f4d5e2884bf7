// The state one run of the pacing optimizer carries from step to step (pacing-run.ts): the input
// prepared once, the work counted, and what each step hands to the next.
import type { Course } from '../course/types.ts'
import type { Environment, SimModel } from '../sim/model.ts'
import type { SimulationOptions } from '../sim/simulate.ts'
import type { Controls } from './controls.ts'
import type { Baseline, FitResult, Judge } from './exact.ts'
import type { CoarseCourse } from './coarse.ts'
import type { AugmentedState, ConstraintSpec, Workspace } from './problem.ts'
import type { PacingInput, PacingResult } from './pacing-setup.ts'

/** What every step of a run reads: the input, prepared once. */
export interface RunSetup {
  input: PacingInput
  course: Course
  env: Environment
  opts: SimulationOptions
  /** the fine model, as the plan is judged (with the input's drag factor) */
  model: SimModel
  v0: number
  controls: Controls
  lo: number
  hi: number
  j: Judge
  spec: ConstraintSpec
  /** stall floor of each control (W) */
  floorC: Float64Array
  tol: number
}

/** The work a run reports (`PacingResult.stats`), added to by each step. */
export type RunCounts = PacingResult['stats']

/** A per-segment plan made feasible on the fine course: a candidate for the optimum. */
export interface Fitted {
  plan: Float64Array
  fit: FitResult
}

/** The best constant power (the baseline, null when none finishes) and the polish's start. */
export interface Baselined {
  base: Baseline
  baseline: { powerW: number; timeS: number } | null
  /** control powers to start from */
  x: Float64Array
}

/** The coarse copy of the course (~50 m pieces) the DP and the gradient stage run on. */
export interface CoarseStage {
  coarse: CoarseCourse
  /** its model with kinetic energy */
  im: SimModel
  /** its quasi-steady model (W′ only: the DP's times) */
  qs: SimModel | null
  /** the fastest DP plan (control powers) once made feasible, and its marginal value of W′ */
  dpPlan: Float64Array | null
  wPrimeValue: number
}

/** The gradient stage's optimum and the state the later polishes start from. */
export interface GradientStage {
  /** the polished plan, per fine segment */
  p: Float64Array
  /** the augmented-Lagrangian state where the polish ended */
  al: AugmentedState
  timeScale: number
  pRef: number
  ws: Workspace
}
