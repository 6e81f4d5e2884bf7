// One pacing run of a parsed optimize scenario, as the CLI, the API's job and the browser's
// preview all do it: the fastest legal plan (or the least-effort plan for a target time), then
// what the output adds beside it (the fuel plan's options, the seconds heat, altitude, durability
// and each of the rider's rules cost, where the rules hold the power).
import { capacityCosts } from './capacity-costs.ts'
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
 * effect) are left out of a target-time run, whose plan is not the fastest one.
 */
export function runPacingScenario(parsed: OptimizeScenario): PacingRun {
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
  const time = result.plan && Number.isFinite(result.plan.timeS) ? result.plan.timeS : result.timeS
  if (targetTimeS === null && result.status === 'optimal' && Number.isFinite(time)) {
    ctx.costs = capacityCosts(input, time)
  }
  return { result, ctx }
}
