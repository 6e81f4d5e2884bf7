// The fuel plan of a pacing result (the engine's fuel/fuel.ts, computed for the plan as ridden
// with the rider's CP): carbohydrate per hour and in all against what the ride burns, fluid and
// sodium per hour, the glycogen left at the finish (or where it runs out), each feed with where
// and when to take it, and the plan's warnings. Numbers outside what a body takes are left out.
import { toDisplay, unitLabel, useUnits, type UnitSystem } from '../../../lib/units.ts'
import { clockTime, formatDuration } from '../lib/format.ts'
import type { PacingOutput } from '../lib/run-output.ts'
import { inRange, RANGE, within } from './plan-numbers.ts'
import { Card } from './ui.tsx'

type Fuel = NonNullable<PacingOutput['fuel']>
export type Feed = Fuel['feeds'][number]

/** The feeds a rider can take: on the course, within the ride's time, with something to take. */
export function feedsOf(output: PacingOutput): Feed[] {
  const length = output.series?.distance_m.at(-1) ?? output.plan.at(-1)?.end_m ?? Infinity
  const end = output.time_s + 60
  return (output.fuel?.feeds ?? []).filter(
    (f) =>
      within(f.distance_m, 0, length + 1) !== null &&
      within(f.elapsed_s, 0, end) !== null &&
      inRange(f.carbohydrate_g, RANGE.carbohydrateG) !== null &&
      inRange(f.fluid_ml, RANGE.fluidMl) !== null &&
      f.carbohydrate_g + f.fluid_ml > 0,
  )
}

/** "30 g/h" (null when the rate is not one a gut takes). */
export const carbohydrateRate = (fuel: Fuel) => {
  const v = inRange(fuel.target_g_per_h, RANGE.carbohydrateGPerH)
  return v === null ? null : `${Math.round(v)} g/h`
}

/** "802 ml/h" and "461 mg/h sodium", each only when within what a rider drinks. */
export function fluidText(fuel: Fuel): string | null {
  const ml = inRange(fuel.fluid_ml_per_h, RANGE.fluidMlPerH)
  const na = inRange(fuel.sodium_mg_per_h, RANGE.sodiumMgPerH)
  const parts = [
    ml !== null ? `fluid ${Math.round(ml)} ml/h` : null,
    na !== null ? `sodium ${Math.round(na)} mg/h` : null,
  ].filter((p): p is string => p !== null)
  const total = inRange(fuel.fluid_total_ml, RANGE.fluidMl)
  if (parts.length === 0) return null
  return `${parts.join(', ')}${ml !== null && total !== null ? ` (${Math.round(total)} ml in all)` : ''}`
}

const distanceText = (m: number, system: UnitSystem) =>
  `${toDisplay('distance', m, system).toFixed(1)} ${unitLabel('distance', system)}`

/** "Glycogen 500 g at the start, 439 g at the finish" or where it runs out. */
export function glycogenText(fuel: Fuel, system: UnitSystem): string | null {
  const store = inRange(fuel.glycogen_store_g, RANGE.glycogenG)
  const finish = inRange(fuel.glycogen_finish_g, RANGE.glycogenG)
  if (store === null) return null
  const empty = within(fuel.glycogen_empty_at_m, 0, 1e7)
  if (empty !== null) {
    return `Glycogen ${Math.round(store)} g at the start runs out at ${distanceText(empty, system)}: eat more, or ride easier.`
  }
  return finish !== null
    ? `Glycogen ${Math.round(store)} g at the start, ${Math.round(finish)} g left at the finish.`
    : null
}

const SUGARS: Record<Fuel['sugars'], string> = {
  none: '',
  any: '',
  'glucose-fructose': 'a glucose–fructose mix (one gut path takes about 60 g/h)',
}

/** The headline: the rate, the total, what the ride burns and what the gut takes. */
export function carbohydrateText(fuel: Fuel): string | null {
  const rate = carbohydrateRate(fuel)
  if (rate === null) return null
  const intake = inRange(fuel.intake_g, RANGE.carbohydrateG)
  const burned = inRange(fuel.burned_g, RANGE.carbohydrateG)
  const gut = inRange(fuel.gut_tolerance_g_per_h, RANGE.carbohydrateGPerH)
  const sugars = SUGARS[fuel.sugars] ?? ''
  const burns = [
    burned !== null ? `The ride burns ${Math.round(burned)} g` : '',
    burned !== null && gut !== null ? `; your gut takes up to ${Math.round(gut)} g/h` : '',
    burned !== null ? '.' : '',
  ].join('')
  // a ride short enough to need none: say so rather than "0 g/h, 0 g in all"
  if (Math.round(inRange(fuel.target_g_per_h, RANGE.carbohydrateGPerH)!) === 0) {
    return `No carbohydrate to eat on this ride. ${burns}`.trim()
  }
  return [
    `Carbohydrate ${rate}`,
    intake !== null ? `, ${Math.round(intake)} g in all` : '',
    sugars ? ` as ${sugars}` : '',
    '. ',
    burns,
  ]
    .join('')
    .trim()
}

export function FuelCard({ output, eventStart }: { output: PacingOutput; eventStart?: string }) {
  const { system } = useUnits()
  const fuel = output.fuel
  if (!fuel) return null
  const head = carbohydrateText(fuel)
  const fluid = fluidText(fuel)
  const glycogen = glycogenText(fuel, system)
  const feeds = feedsOf(output)
  if (head === null && fluid === null && glycogen === null && feeds.length === 0) return null
  return (
    <Card title="Fuel" className="print:hidden">
      <div className="space-y-2 text-sm text-slate-800" data-testid="fuel-card">
        {head ? <p data-testid="fuel-carbohydrate">{head}</p> : null}
        {fuel.guideline ? (
          <p className="text-xs text-slate-500">Guideline for this ride: {fuel.guideline}.</p>
        ) : null}
        {fluid ? (
          <p data-testid="fuel-fluid">{fluid.charAt(0).toUpperCase() + fluid.slice(1)}.</p>
        ) : null}
        {glycogen ? <p data-testid="fuel-glycogen">{glycogen}</p> : null}
        {feeds.length > 0 ? (
          <ol
            className="divide-y divide-slate-100 rounded-md ring-1 ring-slate-200"
            aria-label="Feeds"
          >
            {feeds.map((f) => {
              const clock = clockTime(eventStart, f.elapsed_s)
              return (
                <li
                  key={`${f.distance_m}-${f.elapsed_s}`}
                  className="flex flex-wrap items-baseline gap-x-3 px-3 py-1.5"
                  data-testid="fuel-feed"
                >
                  <span className="min-w-20 font-semibold tabular-nums">
                    {distanceText(f.distance_m, system)}
                  </span>
                  <span className="min-w-16 text-slate-600 tabular-nums">
                    {formatDuration(f.elapsed_s)}
                    {clock ? ` · ${clock}` : ''}
                  </span>
                  <span>{f.label}</span>
                </li>
              )
            })}
          </ol>
        ) : null}
        {fuel.warnings.length > 0 ? (
          <ul
            className="space-y-1 rounded-md bg-amber-50 p-2 text-amber-900 ring-1 ring-amber-200"
            data-testid="fuel-warnings"
          >
            {fuel.warnings.map((w) => (
              <li key={w}>{w.charAt(0).toUpperCase() + w.slice(1)}.</li>
            ))}
          </ul>
        ) : null}
      </div>
    </Card>
  )
}
