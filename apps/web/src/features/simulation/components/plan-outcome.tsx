// What a pacing result says about the rider beside the plan: the CP left at the finish when heat,
// altitude or durability lower it along the ride, and for a target-time run whether the target is
// reached ("finishes in 1:29:58 at NP 187 W") or not ("not reachable: the fastest legal plan is
// 1:24:31", the plan shown then being that fastest legal plan).
import { formatDuration } from '../lib/format.ts'
import type { PacingOutput } from '../lib/run-output.ts'
import { PlanCosts, planCostsText } from './plan-costs.tsx'
import { inRange, RANGE, within } from './plan-numbers.ts'
import { Card } from './ui.tsx'

/** The finish CP (W) when the result carries one a rider can have, else null. */
export const finishCpOf = (output: PacingOutput): number | null =>
  inRange(output.finish_cp_w, RANGE.powerW)

/** "At the finish your CP is 272 W (300 W at the start)." */
export function FinishCp({ output, cpW }: { output: PacingOutput; cpW: number | null }) {
  const finish = finishCpOf(output)
  if (finish === null) return null
  const start = inRange(cpW, RANGE.powerW)
  return (
    <p className="text-sm text-slate-800" data-testid="finish-cp">
      At the finish your CP is <strong className="tabular-nums">{Math.round(finish)} W</strong>
      {start !== null && Math.round(start) !== Math.round(finish)
        ? ` (${Math.round(start)} W at the start)`
        : ''}
      .
    </p>
  )
}

/** A duration a ride can take (s): more than nothing, less than a week. */
const rideTime = (v: unknown) => within(v, 1, 7 * 86400)

/** The sentence of a target-time run's outcome, or null for another run (or numbers not kept). */
export function targetTimeText(output: PacingOutput): string | null {
  const t = output.target_time
  const target = t ? rideTime(t.time_s) : null
  if (!t || target === null) return null
  const head = `Target ${formatDuration(target)}`
  const fastest = rideTime(t.fastest_time_s)
  if (!t.reached) {
    return fastest !== null
      ? `${head} not reachable: the fastest legal plan is ${formatDuration(fastest)}.`
      : `${head} not reachable: no plan within W′ finishes.`
  }
  const time = rideTime(t.plan_time_s) ?? rideTime(output.time_s)
  const np = inRange(output.normalized_power_w, RANGE.powerW) ?? inRange(t.level_w, RANGE.powerW)
  if (time === null) return null
  const effort = np !== null ? ` at NP ${Math.round(np)} W` : ''
  const spare =
    fastest !== null && fastest < time - 0.5
      ? ` The least effort that makes it; the fastest legal plan is ${formatDuration(fastest)}.`
      : ''
  return `${head}: finishes in ${formatDuration(time)}${effort}.${spare}`
}

export function TargetTimeOutcome({ output }: { output: PacingOutput }) {
  const text = targetTimeText(output)
  if (text === null) return null
  const reached = output.target_time?.reached === true
  return (
    <p
      className={`rounded-md p-2 text-sm ring-1 ${
        reached
          ? 'bg-emerald-50 text-emerald-900 ring-emerald-200'
          : 'bg-amber-50 text-amber-900 ring-amber-200'
      }`}
      data-testid="target-time"
    >
      {text}
      {reached ? '' : ' The plan below is that fastest plan.'}
    </p>
  )
}

/**
 * The output a page shows as the plan. A target time out of reach is stored as not met
 * (`infeasible`) with the fastest legal plan, a plan the rider can ride: it is shown as such.
 */
export function planShown(output: PacingOutput): PacingOutput {
  const t = output.target_time
  if (output.status !== 'infeasible' || !t || t.reached || output.plan.length === 0) return output
  return { ...output, status: 'optimal', reason: null }
}

/** The card beside the plan: the target time's outcome, the finish CP, what conditions cost. */
export function PlanOutcomeCard({
  output,
  cpW,
  windShown,
}: {
  output: PacingOutput
  cpW: number | null
  windShown: boolean
}) {
  const any =
    targetTimeText(output) !== null || finishCpOf(output) !== null || planCostsText(output) !== null
  if (!any) return null
  return (
    <Card title="Target, capacity and costs">
      <div className="space-y-2">
        <TargetTimeOutcome output={output} />
        <FinishCp output={output} cpW={cpW} />
        <PlanCosts output={output} windShown={windShown} />
      </div>
    </Card>
  )
}
