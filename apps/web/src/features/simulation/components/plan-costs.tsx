// What the day's conditions and the plan's rules cost: seconds the plan is slower for the heat,
// the altitude, the rider's durability (each left out in turn and the plan optimized again), and
// for each rule of riding (an easy start, coasting, a descent cap, stretches with their own
// limits): "heat +42 s, altitude +12 s, durability +1 min 35 s, easy start +8 s".
import { formatSaving } from '../lib/format.ts'
import type { PacingOutput } from '../lib/run-output.ts'

type Costs = Partial<Record<string, number>>

/** The costs in the order a rider reads them, each with its name. */
const NAMES: [group: 'capacity_costs' | 'rule_costs', key: string, name: string][] = [
  ['capacity_costs', 'heat_s', 'heat'],
  ['capacity_costs', 'altitude_s', 'altitude'],
  ['capacity_costs', 'durability_s', 'durability'],
  ['rule_costs', 'easy_start_s', 'easy start'],
  ['rule_costs', 'coast_s', 'coasting'],
  ['rule_costs', 'descent_cap_s', 'descent cap'],
  ['rule_costs', 'stretches_s', 'stretch limits'],
]

/**
 * A cost the plan can have, at most its time. Heat, altitude and durability only slow a plan (up
 * to a second under zero is the optimizer's rounding); a rule may make the rideable plan faster
 * (coasting a dip into a hairpin, which no long section can follow), so its cost may be negative,
 * by less than the plan's time.
 */
function costOf(v: unknown, timeS: number, group: (typeof NAMES)[number][0]): number | null {
  if (typeof v !== 'number' || !Number.isFinite(v)) return null
  const limit = Math.max(timeS, 1)
  if (v > limit) return null
  if (group === 'rule_costs') return v < -limit ? null : v
  return v < -1 ? null : Math.max(0, v)
}

/** Each cost the output carries, named, in order; the ones outside what a plan can cost left out. */
export function planCosts(output: PacingOutput): { name: string; seconds: number }[] {
  const groups = output as PacingOutput & { capacity_costs?: Costs; rule_costs?: Costs }
  return NAMES.flatMap(([group, key, name]) => {
    const seconds = costOf(groups[group]?.[key], output.time_s, group)
    return seconds === null ? [] : [{ name, seconds }]
  })
}

/** "heat +42 s, durability +1 min 35 s, coasting −7 s" (nothing to say: null). */
export function planCostsText(output: PacingOutput): string | null {
  const costs = planCosts(output)
  if (costs.length === 0) return null
  return costs
    .map((c) => `${c.name} ${c.seconds < -0.5 ? '' : '+'}${formatSaving(c.seconds)}`)
    .join(', ')
}

export function PlanCosts({
  output,
  windShown,
}: {
  output: PacingOutput
  /** the race-day weather card is on the page, with the wind's effect on the time */
  windShown: boolean
}) {
  const text = planCostsText(output)
  if (text === null) return null
  return (
    <p className="text-sm text-slate-800">
      What they cost the plan: <strong data-testid="plan-costs">{text}</strong>.{' '}
      <span className="text-xs text-slate-500">
        Each is the plan’s time minus that of the plan optimized without it
        {windShown ? '; the wind’s effect is in the race-day weather above' : ''}.
      </span>
    </p>
  )
}
