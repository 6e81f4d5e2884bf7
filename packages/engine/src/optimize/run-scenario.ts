// One pacing run of a parsed optimize scenario, as the CLI, the API's job and the browser's
// preview all do it: the fastest legal plan (or the least-effort plan for a target time), then
// what the output adds beside it (the fuel plan's options, the seconds heat, altitude, durability
// and each of the rider's rules cost, where the rules hold the power).
import { capacityCosts, costsAsked } from './capacity-costs.ts'
import { optimizePacing, type PacingResult } from './positions.ts'
import { outputContext, type OutputContext } from './run-output.ts'
import type { OptimizeScenario } from './scenario.ts'
import { optimizeTargetTime, type TargetTimeOutcome } from './target-time.ts'
import { prepareModel } from '../sim/model.ts'
import { ruleStretches } from '../sim/rules.ts'

export type PacingRun = {
  result: PacingResult & { targetTime?: TargetTimeOutcome }
  ctx: OutputContext
}

/**
 * The plan of a scenario and its output context. The costs (one more optimization per asked
 * effect) are left out of a target-time run, whose plan is not the fastest one, and, with
 * `costs: false`, left for `withCosts` (the browser's preview shows the plan before them).
 */
export function runPacingScenario(
  parsed: OptimizeScenario,
  o: { costs?: boolean } = {},
): PacingRun {
  const { input, targetTimeS, fuel } = parsed
  const result =
    targetTimeS !== null ? optimizeTargetTime(input, targetTimeS) : optimizePacing(input)
  const ctx: OutputContext = { ...outputContext(input), ...(fuel ? { fuel } : {}) }
  const rules = input.options?.rules
  if (rules) {
    const model = prepareModel(input.course, input.rider, input.environment ?? {}, input.options)
    ctx.ruleStretches = ruleStretches(input.course, model.rule).map((r) => ({
      start_m: Math.round(r.startM * 10) / 10,
      end_m: Math.round(r.endM * 10) / 10,
      kind: r.kind,
      power_w: Math.round(r.powerW * 10) / 10,
    }))
  }
  const run = { result, ctx }
  return o.costs === false ? run : withCosts(parsed, run)
}

/** The plan's time, or NaN when it has none to cost. */
function costedTime(parsed: OptimizeScenario, run: PacingRun): number {
  const { result } = run
  if (parsed.targetTimeS !== null || result.status !== 'optimal') return NaN
  return result.plan && Number.isFinite(result.plan.timeS) ? result.plan.timeS : result.timeS
}

/** Whether `withCosts` has work to do: the run has a plan and the scenario asks for an effect. */
export function costsFollow(parsed: OptimizeScenario, run: PacingRun): boolean {
  return Number.isFinite(costedTime(parsed, run)) && costsAsked(parsed.input)
}

/** The run with what heat, altitude, durability and each rule cost its plan (capacity-costs.ts). */
export function withCosts(parsed: OptimizeScenario, run: PacingRun): PacingRun {
  const time = costedTime(parsed, run)
  if (!Number.isFinite(time)) return run
  return { ...run, ctx: { ...run.ctx, costs: capacityCosts(parsed.input, time) } }
}
