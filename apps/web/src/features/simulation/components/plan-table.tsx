import { use, type ReactNode } from 'react'
import { formatQuantity, toDisplay, unitLabel, useUnits } from '../../../lib/units.ts'
import { clockTime, formatDuration, percent } from '../lib/format.ts'
import {
  formatRanges,
  PlanCpContext,
  planTargets,
  sectionNamesFor,
  type NamedSection,
  type PlanTargetRow,
} from '../lib/plan-sections.ts'
import type { PlanSection } from '../lib/run-output.ts'
import { ScrollRegion } from '../../../components/scroll-region.tsx'

/** A plan's sections, with the event's start and the course's named sections when there are. */
type PlanRows = {
  rows: PlanSection[]
  eventStart?: string | undefined
  sections?: readonly NamedSection[] | null | undefined
}

/**
 * The plan as the rider takes it to the race: one row per target (its power, where it applies,
 * the time in it), then every section as a detail, one click away.
 */
export function PlanTable({ rows, eventStart, sections }: PlanRows) {
  return (
    <div className="space-y-3">
      <TargetTable targets={planTargets(rows)} />
      <details className="group rounded-md border border-slate-200" data-testid="plan-sections">
        <summary className="cursor-pointer px-3 py-2 text-sm font-medium text-slate-700 select-none">
          Every section ({rows.length}): where each starts, its grade, speed and times
        </summary>
        <div className="border-t border-slate-200 p-2">
          <SectionTable rows={rows} eventStart={eventStart} sections={sections} />
        </div>
      </details>
    </div>
  )
}

/** A target's power as a share of CP: "111 % CP". */
const ofCp = (powerW: number, cp: number | null) =>
  cp && cp > 0 ? `${Math.round((powerW / cp) * 100)} % CP` : null

/**
 * One row per target (at most 20): its key (A, B, … as on the race sheet and in the exports), the
 * power (and its share of CP when known), where it applies and the time ridden at it.
 */
export function TargetTable({ targets }: { targets: PlanTargetRow[] }) {
  const { system } = useUnits()
  const cp = use(PlanCpContext)
  const unit = unitLabel('distance', system)
  const where = (t: PlanTargetRow) =>
    formatRanges(t.ranges, (m) => toDisplay('distance', m, system))
  return (
    <>
      <ol className="space-y-2 sm:hidden" aria-label="Pacing plan by target">
        {targets.map((t) => (
          <li
            key={t.key}
            className="rounded-lg border border-slate-200 bg-white px-3 py-2"
            data-testid="plan-card"
          >
            <div className="flex items-baseline gap-3">
              <span className="text-sm font-semibold text-slate-500">{t.key}</span>
              <span
                className="text-2xl font-bold text-slate-900 tabular-nums"
                data-testid="plan-card-power"
              >
                {Math.round(t.power_w)} W
              </span>
              <span className="ml-auto text-sm text-slate-600 tabular-nums">
                {ofCp(t.power_w, cp)}
              </span>
            </div>
            <p className="text-sm text-slate-800 tabular-nums">
              {where(t)} {unit}
            </p>
            <p className="text-xs text-slate-600">
              {t.label} · {formatDuration(t.duration_s)} in it
            </p>
          </li>
        ))}
      </ol>
      <ScrollRegion
        className="relative hidden overflow-x-auto sm:block"
        label="Pacing plan by target"
      >
        <table
          className="min-w-full divide-y divide-slate-200 text-sm"
          data-testid="plan-targets-table"
        >
          <caption className="sr-only">Pacing plan by target</caption>
          <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-600">
            <tr>
              <th className="px-2 py-2">Target</th>
              <th className="px-2 py-2">Power</th>
              <th className="px-2 py-2">Where ({unit})</th>
              <th className="px-2 py-2">Time in it</th>
              <th className="px-2 py-2">Terrain</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {targets.map((t) => (
              <tr key={t.key}>
                <td className="px-2 py-1.5 font-semibold text-slate-500">{t.key}</td>
                <td className="px-2 py-1.5 whitespace-nowrap tabular-nums">
                  <span className="text-base font-bold text-slate-900">
                    {Math.round(t.power_w)} W
                  </span>
                  {cp ? (
                    <span className="text-xs text-slate-600"> {ofCp(t.power_w, cp)}</span>
                  ) : null}
                </td>
                <td className="px-2 py-1.5 tabular-nums">{where(t)}</td>
                <td className="px-2 py-1.5 tabular-nums">{formatDuration(t.duration_s)}</td>
                <td className="px-2 py-1.5">{t.label}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </>
  )
}

/**
 * Every section of the plan: with an event start, the clock time at each row's start (a row's
 * `elapsed_s` is the time at its end); with named course sections, the names of those the row
 * covers; with several riding positions, the one ridden.
 */
function SectionTable({ rows, eventStart, sections }: PlanRows) {
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
      <ScrollRegion
        className="relative hidden overflow-x-auto sm:block"
        label="Pacing plan by section"
      >
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
 * Below 640 px (Tailwind's `sm`): a card per section, the target power first and largest, then
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
          data-testid="section-card"
        >
          <div className="flex items-baseline justify-between gap-3">
            <span
              className="text-2xl font-bold text-slate-900 tabular-nums"
              data-testid="section-card-power"
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
