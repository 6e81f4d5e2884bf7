// The optimization computed in the browser (Web Worker, worker/preview.worker.ts): the scenario
// the server would run, parsed by the engine's own parser, optimized, summarized like the server's
// stored result. A pacing preview answers in two steps (docs/web-app.md, "Instant preview"):
//   1. the first answer: the per-segment optimum (the bound a rideable plan comes close to) and
//      the best constant power, by one `boundOnly` run of the engine (a fraction of the whole
//      run's cost);
//   2. the refined answer: the whole run, rideable plan included, which is what the saved run
//      computes; where the scenario asks for heat, altitude, durability or rules, the plan is
//      answered first and what each of them costs (one more optimization each) follows it.
// An equipment ranking already compares every combination's per-segment optimum and builds only
// the winner's plan: it answers once.
import {
  costsFollow,
  courseFromSegments,
  optimizeEquipment,
  optimizePacing,
  outputContext,
  parseOptimizeScenario,
  runPacingScenario,
  withCosts,
  type Course,
} from '@veloptima/engine'
import type { OptimizerInput } from './engine-input.ts'
import { equipmentOutput, pacingOutput, type RunOutput } from './run-output.ts'

export type PreviewType = 'pacing' | 'equipment'

type Prepared = ReturnType<typeof parseOptimizeScenario> & { course: Course }

/** The scenario parsed once for both steps (throws the engine's message naming a bad field). */
export function preparePreview(input: OptimizerInput): Prepared {
  const parsed = parseOptimizeScenario(input.scenario, () =>
    courseFromSegments(input.segments, input.startAltitudeM),
  )
  return { ...parsed, course: parsed.input.course }
}

/**
 * Control segments of the first answer under a W′ limit: the finer ones (50–200 m) the whole run
 * also tries (FINE_CONTROLS in packages/engine/src/optimize/pacing.ts). On the Mont Ventoux climb
 * and the 180 km bench course their optimum is the faster of the two, at the cost of one run.
 */
const FIRST_ANSWER_CONTROLS = { minLengthM: 50, maxLengthM: 200 }

/**
 * The first answer of a pacing preview: the per-segment optimum's time and saving and the best
 * constant power (`plan` empty: the rideable plan is the refined answer's). One optimizer run over
 * one set of control segments, without the rideable plan and without the structured starts (the
 * two-level and grade-proportional plans the whole run also starts from: on the six real courses
 * of the bench, for two riders, the same optimum at 0.4–0.8× the CPU); the whole run's bound is
 * never slower. Null for an equipment ranking, which answers once.
 */
export function firstAnswer(prepared: Prepared, type: PreviewType): RunOutput | null {
  if (type !== 'pacing') return null
  const pacing = prepared.input.pacing
  const controls =
    pacing.controls ?? (pacing.constraint.type === 'w_prime_balance' ? FIRST_ANSWER_CONTROLS : {})
  const run = optimizePacing({
    ...prepared.input,
    pacing: { ...pacing, controls },
    boundOnly: true,
    structuredStarts: false,
  })
  return pacingOutput(run, prepared.course)
}

/**
 * The refined answer in its two parts: the plan, and (null when nothing is asked) the same output
 * with what each asked effect and rule costs, computed when called.
 */
export function refinedSteps(
  prepared: Prepared,
  type: PreviewType,
): { plan: RunOutput; costs: (() => RunOutput) | null } {
  if (type === 'equipment') {
    if (!prepared.equipment) throw new Error('equipment: expected option groups, got nothing')
    const ranking = optimizeEquipment({ ...prepared.input, equipment: prepared.equipment })
    return {
      plan: equipmentOutput(ranking, prepared.course, outputContext(prepared.input)),
      costs: null,
    }
  }
  const run = runPacingScenario(prepared, { costs: false })
  return {
    plan: pacingOutput(run.result, prepared.course, run.ctx),
    costs: costsFollow(prepared, run)
      ? () => pacingOutput(run.result, prepared.course, withCosts(prepared, run).ctx)
      : null,
  }
}

/** The refined answer: the whole run, rideable plan and costs included (the saved run's computation). */
export function refinedAnswer(prepared: Prepared, type: PreviewType): RunOutput {
  const steps = refinedSteps(prepared, type)
  return steps.costs ? steps.costs() : steps.plan
}

/** The refined answer of an input (what the saved run computes). */
export function computePreview(input: OptimizerInput, type: PreviewType): RunOutput {
  return refinedAnswer(preparePreview(input), type)
}
