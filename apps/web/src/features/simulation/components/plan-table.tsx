import type { ReactNode } from 'react'
import { formatQuantity, toDisplay, unitLabel, useUnits } from '../../../lib/units.ts'
import { clockTime, formatDuration, percent } from '../lib/format.ts'
import { sectionNamesFor, type NamedSection } from '../lib/plan-sections.ts'
import type { PlanSection } from '../lib/run-output.ts'
import { ScrollRegion } from '../../../components/scroll-region.tsx'

/**
 * The plan as the rider takes it to the race: one row per target; with an event start, the clock
 * time at each row's start (a row's `elapsed_s` is the time at its end); with named course
 * sections, the names of those the row covers; with several riding positions, the one ridden.
 */
export function PlanTable({
  rows,
  eventStart,
  sections,
}: {
  rows: PlanSection[]
  eventStart?: string | undefined
  sections?: readonly NamedSection[] | null | undefined
}) {
  const { system } = useUnits()
  const clock = (r: PlanSection) => clockTime(eventStart, r.elapsed_s - r.duration_s)
  const withClock = rows.length > 0 && clock(rows[0]!) !== null
  const names = rows.map((r) => sectionNamesFor(r, sections).join(' · '))
  const withNames = names.some((n) => n !== '')
  // with several riding positions (by speed range), the one ridden over most of each row
  const withPosition = rows.some((r) => r.position !== undefined)
  return (
    <>
      <PlanCards
        rows={rows}
        clock={withClock ? clock : undefined}
        names={withNames ? names : undefined}
        withPosition={withPosition}
      />
      {/* Wider than a phone: the table, all columns side by side; the scroller takes the focus so
          that a keyboard scrolls it, and holds the table's positioned caption. */}
      <ScrollRegion className="relative hidden overflow-x-auto sm:block" label="Pacing plan table">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">Pacing plan by section</caption>
          <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-600">
            <tr>
              <th className="px-2 py-2">#</th>
              {withClock ? <th className="px-2 py-2">Clock at start</th> : null}
              <th className="px-2 py-2">From – to ({unitLabel('distance', system)})</th>
              {withNames ? <th className="px-2 py-2">Course section</th> : null}
              <th className="px-2 py-2">Terrain</th>
              {withPosition ? <th className="px-2 py-2">Position</th> : null}
              <th className="px-2 py-2">Grade</th>
              <th className="px-2 py-2">Target power</th>
              <th className="px-2 py-2">Expected speed</th>
              <th className="px-2 py-2">Section time</th>
              <th className="px-2 py-2">Elapsed</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((r, i) => (
              <tr key={i}>
                <td className="px-2 py-1.5 text-slate-500">{i + 1}</td>
                {withClock ? (
                  <td
                    className="px-2 py-1.5 font-medium whitespace-nowrap tabular-nums"
                    data-testid="plan-clock"
                  >
                    {clock(r)}
                  </td>
                ) : null}
                <td className="px-2 py-1.5 whitespace-nowrap tabular-nums">
                  {toDisplay('distance', r.start_m, system).toFixed(2)} –{' '}
                  {toDisplay('distance', r.end_m, system).toFixed(2)}
                </td>
                {withNames ? (
                  <td className="px-2 py-1.5" data-testid="plan-section-name">
                    {names[i]}
                  </td>
                ) : null}
                <td className="px-2 py-1.5">{r.label}</td>
                {withPosition ? (
                  <td className="px-2 py-1.5" data-testid="plan-position">
                    {r.position ?? ''}
                  </td>
                ) : null}
                <td className="px-2 py-1.5 whitespace-nowrap tabular-nums">{percent(r.grade)}</td>
                <td className="px-2 py-1.5 font-semibold whitespace-nowrap tabular-nums">
                  {Math.round(r.power_w)} W
                </td>
                <td className="px-2 py-1.5 whitespace-nowrap tabular-nums">
                  {formatQuantity('speed', r.speed_mps, system)}
                </td>
                <td className="px-2 py-1.5 tabular-nums">{formatDuration(r.duration_s)}</td>
                <td className="px-2 py-1.5 tabular-nums">{formatDuration(r.elapsed_s)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </>
  )
}

/**
 * Below 640 px (Tailwind's `sm`): a card per target, the target power first and largest, then
 * where it applies, the terrain, the position, the grade and the times, so that nothing a rider
 * needs sits beyond the screen's edge.
 */
function PlanCards({
  rows,
  clock,
  names,
  withPosition,
}: {
  rows: PlanSection[]
  clock: ((r: PlanSection) => string | null) | undefined
  names: string[] | undefined
  withPosition: boolean
}) {
  const { system } = useUnits()
  const unit = unitLabel('distance', system)
  return (
    <ol className="space-y-2 sm:hidden" aria-label="Pacing plan by section">
      {rows.map((r, i) => (
        <li
          key={i}
          className="rounded-lg border border-slate-200 bg-white px-3 py-2"
          data-testid="plan-card"
        >
          <div className="flex items-baseline justify-between gap-3">
            <span
              className="text-2xl font-bold text-slate-900 tabular-nums"
              data-testid="plan-card-power"
            >
              {Math.round(r.power_w)} W
            </span>
            <span className="text-right text-sm text-slate-700 tabular-nums">
              {toDisplay('distance', r.start_m, system).toFixed(2)} –{' '}
              {toDisplay('distance', r.end_m, system).toFixed(2)} {unit}
            </span>
          </div>
          {names?.[i] ? <p className="text-sm font-medium text-slate-800">{names[i]}</p> : null}
          <dl className="mt-1 grid grid-cols-3 gap-x-3 gap-y-0.5 text-xs text-slate-600">
            <Fact term="Terrain">{r.label}</Fact>
            {withPosition ? <Fact term="Position">{r.position ?? '—'}</Fact> : null}
            <Fact term="Grade">{percent(r.grade)}</Fact>
            <Fact term="Speed">{formatQuantity('speed', r.speed_mps, system)}</Fact>
            <Fact term="Time">{formatDuration(r.duration_s)}</Fact>
            <Fact term="Elapsed">{formatDuration(r.elapsed_s)}</Fact>
            {clock ? <Fact term="Clock">{clock(r)}</Fact> : null}
          </dl>
        </li>
      ))}
    </ol>
  )
}

function Fact({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-slate-500">{term}</dt>
      <dd className="truncate font-medium text-slate-800 tabular-nums">{children}</dd>
    </div>
  )
}
