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
import { boundRun, type BoundRun } from './pacing-run.ts'
import { LONG_COARSE } from './rideable-targets.ts'
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
 * With both grids' optima known, the first (default) grid's rideable plan is searched only when the
 * second's optimum is not faster by more than this share of its time, or on a very long course
 * (a coarse copy of more than LONG_COARSE pieces, where the plan's search is cut short): measured
 * on six courses × five riders (decision 0002), the second grid's plan won in 13 of the 15 cases
 * past it and lost the other two by 0.06 and 0.59 s (0.03 % at most); on the preview's 180 km
 * course at 36 m (4,500 segments, a very long one) it lost by 33 s. The first grid's plan search
 * is about a third of a run.
 */
export const FINE_LEAD = 1e-4

/**
 * The pacing optimizer at a fixed drag (the public `optimizePacing` of positions.ts wraps it with
 * the riding positions): one run with the default control segments and, under W′ on courses of at
 * most FINE_RETRY_MAX_SEGMENTS segments when the scenario sets no control options, a second with
 * FINE_CONTROLS; the result whose rideable plan is faster is returned (its bound is then the
 * faster of the two per-segment optima). Both optima are found first; the first grid's plan is
 * then searched unless the second's optimum leads by more than FINE_LEAD (decision 0002).
 */
export function optimizeWithoutPositions(input: PacingInput, known: KnownRuns = []): PacingResult {
  const grids = gridInputs(input)
  const runOf = (q: number) => (known[q] ??= boundRun(grids[q]!.input))
  const bound = (q: number, run: BoundRun) => ({
    ...run.result,
    controlOptions: grids[q]!.controlOptions,
  })
  const finish = (q: number, run: BoundRun) =>
    run.finish ? { ...run.finish(), controlOptions: grids[q]!.controlOptions } : bound(q, run)
  const firstRun = runOf(0)
  if (grids.length === 1) return input.boundOnly ? bound(0, firstRun) : finish(0, firstRun)
  const firstBound = bound(0, firstRun)
  if (firstBound.status !== 'optimal') return firstBound
  const secondRun = runOf(1)
  const secondBound = bound(1, secondRun)
  if (input.boundOnly) return merged(firstBound, secondBound, true)
  // the first grid's plan is searched unless the second's optimum is faster by more than FINE_LEAD,
  // and never on a very long course (its plan's search is cut short: LONG_COARSE)
  const skipFirst =
    secondBound.status === 'optimal' &&
    secondBound.timeS < firstBound.timeS * (1 - FINE_LEAD) &&
    Math.max(firstRun.pieces, secondRun.pieces) <= LONG_COARSE
  const second = finish(1, secondRun)
  if (skipFirst && second.status === 'optimal' && second.plan)
    return { ...second, stats: added(firstBound.stats, second.stats) }
  return merged(finish(0, firstRun), second, false)
}

/**
 * Runs already taken to their optimum, by grid (the index in `gridInputs`), each from that grid's
 * input: the whole run continues them instead of starting again, and adds those it starts, so a
 * bound-only call can hand its runs to the whole run of the same input. Each is finished at most
 * once.
 */
export type KnownRuns = (BoundRun | undefined)[]

/**
 * The runs of `optimizeWithoutPositions`, one per control grid: its input and the control options
 * reported with its result. With a second grid to follow, the first leaves out the joint cut and
 * polishes one section optimum, not two: on the twelve bench cases (six courses, two riders) the
 * joint cut never led a winning plan from the first grid, and polishing only the cut its DP ranks
 * fastest left every plan the same but TT Beton's (+0.08 and +0.15 s; decision 0002).
 */
export function gridInputs(
  input: PacingInput,
): { input: PacingInput; controlOptions: Partial<ControlOptions> }[] {
  const controlOptions = input.pacing.controls ?? {}
  const twoGrids =
    input.pacing.constraint.type === 'w_prime_balance' &&
    !input.pacing.controls &&
    input.course.n <= FINE_RETRY_MAX_SEGMENTS
  if (!twoGrids) return [{ input, controlOptions }]
  return [
    { input: { ...input, jointCut: false, sectionPolishes: 1 }, controlOptions },
    {
      input: { ...input, pacing: { ...input.pacing, controls: FINE_CONTROLS } },
      controlOptions: FINE_CONTROLS,
    },
  ]
}

/**
 * The run whose plan is faster (bound only: whose optimum is faster), with the faster per-segment
 * optimum of the two as its bound and the work of both.
 */
function merged(first: PacingResult, second: PacingResult, boundOnly: boolean): PacingResult {
  if (!first.plan && !boundOnly) {
    // no rideable plan on the first grid: the second, with its joint cut, may find one
    if (second.status === 'optimal' && second.plan) return second
    if (first.status === 'optimal') return first
  }
  const stats = added(first.stats, second.stats)
  const better =
    second.status === 'optimal' &&
    (boundOnly
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

function added(a: PacingResult['stats'], b: PacingResult['stats']): PacingResult['stats'] {
  return {
    outerIterations: a.outerIterations + b.outerIterations,
    innerIterations: a.innerIterations + b.innerIterations,
    gradientEvaluations: a.gradientEvaluations + b.gradientEvaluations,
    simulations: a.simulations + b.simulations,
  }
}
