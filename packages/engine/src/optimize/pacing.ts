// The pacing optimizer: minimum finish time over one power per control segment, subject to a hard
// constraint (W′ balance ≥ 0, NP, mean power or work) and to power bounds.
//
//   1. Baseline: the best feasible constant power, by bisection on the exact simulation.
//   2. Augmented Lagrangian (PHR) on the constraint, inner projected L-BFGS with the exact
//      gradient of a reverse (adjoint) sweep through the simulation's own step maps.
//   3. Repair: scale the plan along a monotone one-parameter family to the largest feasible
//      member, judged by the exact simulation, so the returned plan is feasible by construction.
//   4. Never slower than the baseline: if the optimized plan were slower, the baseline is kept.
// Every stop is a tolerance or an iteration count, never wall-clock time (docs/decisions/0002).
import type { ControlOptions } from './controls.ts'
import { optimizeOnce } from './pacing-run.ts'
import type { PacingInput, PacingResult } from './pacing-setup.ts'

export type { PacingConstraint } from './exact.ts'
export { powerBounds, withDragFactor } from './pacing-setup.ts'
export type { PacingInput, PacingResult, PacingSettings } from './pacing-setup.ts'

/**
 * Finer control segments (50–200 m instead of 100–1 000 m), tried as a second run under a W′
 * constraint when the scenario sets none: sections of the rideable plan are made of whole controls, so finer controls
 * let them end where the climb changes. Measured (docs/engine/pacing.md's rider, decision 0002): the plan
 * saves 18.1 s instead of 11.0 s on Crank the Kanc and 5.2 s instead of 4.8 s on Alpe d'Huez, but
 * less on TT Beton and the Galibier; the run whose plan is faster is returned.
 */
export const FINE_CONTROLS: Partial<ControlOptions> = { minLengthM: 50, maxLengthM: 200 }

/** Courses of more fine segments than this get one run only (the 180 km bench course: 18 000). */
export const FINE_RETRY_MAX_SEGMENTS = 8000

/**
 * The pacing optimizer at a fixed drag (the public `optimizePacing` of positions.ts wraps it with
 * the riding positions): one run with the default control segments and, under W′ on courses of at
 * most FINE_RETRY_MAX_SEGMENTS segments when the scenario sets no control options, a second with
 * FINE_CONTROLS; the result whose rideable plan is faster is returned (its bound is then the
 * faster of the two per-segment optima). The first run then leaves the joint cut of the rideable
 * plan's search to the second (decision 0002).
 */
export function optimizeWithoutPositions(input: PacingInput): PacingResult {
  const twoGrids =
    input.pacing.constraint.type === 'w_prime_balance' &&
    !input.pacing.controls &&
    input.course.n <= FINE_RETRY_MAX_SEGMENTS
  // with a second grid to follow, the first leaves out the joint cut and polishes one section
  // optimum, not two: on the twelve bench cases (six courses, two riders) the joint cut never led
  // a winning plan from the first grid, and polishing only the cut its DP ranks fastest left every
  // plan the same but TT Beton's (+0.08 and +0.15 s; decision 0002)
  const first = {
    ...optimizeOnce(twoGrids ? { ...input, jointCut: false, sectionPolishes: 1 } : input),
    controlOptions: input.pacing.controls ?? {},
  }
  const fine = (): PacingResult => ({
    ...optimizeOnce({ ...input, pacing: { ...input.pacing, controls: FINE_CONTROLS } }),
    controlOptions: FINE_CONTROLS,
  })
  if (!twoGrids || first.status !== 'optimal') return first
  if (!first.plan && !input.boundOnly) {
    // no rideable plan on the first grid: the second, with its joint cut, may find one
    const second = fine()
    return second.status === 'optimal' && second.plan ? second : first
  }
  const second = fine()
  const stats = {
    outerIterations: first.stats.outerIterations + second.stats.outerIterations,
    innerIterations: first.stats.innerIterations + second.stats.innerIterations,
    gradientEvaluations: first.stats.gradientEvaluations + second.stats.gradientEvaluations,
    simulations: first.stats.simulations + second.stats.simulations,
  }
  // the run whose plan is faster (bound only: whose optimum is faster)
  const better =
    second.status === 'optimal' &&
    (input.boundOnly
      ? second.timeS < first.timeS
      : second.plan !== null && second.plan.timeS < first.plan!.timeS)
  const chosen = better ? second : first
  const other = better ? first : second
  // the bound is the faster per-segment optimum of the two runs
  if (other.status === 'optimal' && other.simulation && other.timeS < chosen.timeS) {
    return {
      ...chosen,
      reason: other.reason,
      powerW: other.powerW,
      simulation: other.simulation,
      timeS: other.timeS,
      timeSavedS: other.timeSavedS,
      controls: other.controls,
      controlOptions: other.controlOptions,
      stats,
    }
  }
  return { ...chosen, stats }
}
