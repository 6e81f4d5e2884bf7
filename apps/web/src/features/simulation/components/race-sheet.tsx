// The plan as a one-page race sheet to tape to a top tube: the course, the rider, the finish time,
// the targets in large type and a small elevation profile with each target's ranges marked. It is
// what the result page prints (race-sheet.css shows only the sheet on paper). With a fuel plan it
// carries the carbohydrate and fluid rates and every feed with where and when to take it.
import { createPortal } from 'react-dom'
import { toDisplay, unitLabel, useUnits } from '../../../lib/units.ts'
import { clockTime, formatDuration, formatEventStart } from '../lib/format.ts'
import { formatRanges, planTargets, type PlanTargetRow } from '../lib/plan-sections.ts'
import type { PacingOutput, RideSeries } from '../lib/run-output.ts'
import { carbohydrateRate, feedsOf, fluidText } from './fuel-card.tsx'
import './race-sheet.css'

export function RaceSheet({
  output,
  courseName,
  riderName,
  cpW,
  eventStart,
  footer,
}: {
  output: PacingOutput
  courseName: string
  riderName: string
  cpW: number | null
  eventStart?: string | undefined
  /** what the sheet was printed from (optimization and version) */
  footer: string
}) {
  const { system } = useUnits()
  const unit = unitLabel('distance', system)
  const targets = planTargets(output.plan)
  const finishClock = clockTime(eventStart, output.time_s)
  return createPortal(
    <article className="race-sheet" aria-label="Race sheet" data-testid="race-sheet">
      <header className="flex items-end justify-between gap-6 border-b-2 border-black pb-2">
        <div className="min-w-0">
          <h1 className="text-[20pt] leading-tight font-bold">{courseName}</h1>
          <p className="text-[12pt]">
            {riderName}
            {cpW ? ` · CP ${Math.round(cpW)} W` : ''}
          </p>
        </div>
        <div className="text-right whitespace-nowrap">
          <p className="text-[10pt] uppercase">Predicted finish</p>
          <p className="text-[24pt] leading-none font-bold tabular-nums">
            {formatDuration(output.time_s)}
          </p>
          {eventStart && finishClock ? (
            <p className="text-[10pt] tabular-nums">
              start {formatEventStart(eventStart)} · finish {finishClock}
            </p>
          ) : null}
        </div>
      </header>
      <table className="mt-2 w-full border-collapse">
        <thead>
          <tr className="border-b border-black text-left text-[9pt] uppercase">
            <th className="py-1 pr-2">Target</th>
            <th className="py-1 pr-3 text-right">Power</th>
            <th className="py-1 pr-3 text-right">Time</th>
            <th className="py-1">Where ({unit})</th>
          </tr>
        </thead>
        <tbody>
          {targets.map((t) => (
            <tr key={t.key} className="border-b border-gray-400 align-top">
              <td className="py-[1mm] pr-2 text-[16pt] leading-tight font-bold">{t.key}</td>
              <td className="py-[1mm] pr-3 text-right whitespace-nowrap tabular-nums">
                <span className="text-[19pt] leading-none font-bold">
                  {Math.round(t.power_w)} W
                </span>
                {cpW ? (
                  <span className="block text-[9pt]">
                    {Math.round((t.power_w / cpW) * 100)} % CP
                  </span>
                ) : null}
              </td>
              <td className="py-[1mm] pr-3 text-right text-[13pt] whitespace-nowrap tabular-nums">
                {formatDuration(t.duration_s)}
              </td>
              <td className="py-[1mm]">
                <span className="mr-2 text-[9pt] font-semibold uppercase">{t.label}</span>
                <span
                  className={`tabular-nums ${t.ranges.length > 6 ? 'text-[10pt]' : 'text-[13pt]'}`}
                >
                  {formatRanges(t.ranges, (m) => toDisplay('distance', m, system))}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <SheetFuel output={output} toUnit={(m) => toDisplay('distance', m, system)} unit={unit} />
      {output.series ? (
        <SheetProfile
          series={output.series}
          targets={targets}
          toUnit={(m) => toDisplay('distance', m, system)}
          unit={unit}
          plot={output.fuel && feedsOf(output).length > 0 ? PLOT_WITH_FUEL : PLOT}
        />
      ) : null}
      <p className="mt-1 text-[8pt]">
        {footer} · {output.plan.length} sections in {targets.length} targets · Veloptima
      </p>
    </article>,
    document.body,
  )
}

/** The fuel rate and the feeds on one or two lines: where (distance, elapsed time) and what. */
function SheetFuel({
  output,
  toUnit,
  unit,
}: {
  output: PacingOutput
  toUnit: (m: number) => number
  unit: string
}) {
  const fuel = output.fuel
  if (!fuel) return null
  const rate = carbohydrateRate(fuel)
  const eat = rate !== null && rate !== '0 g/h' ? `${rate} carbohydrate` : 'no carbohydrate to eat'
  const fluid = fluidText(fuel)
  const feeds = feedsOf(output)
  if (rate === null && feeds.length === 0) return null
  return (
    <p
      className="mt-1 border-b border-black pb-0.5 text-[8.5pt] leading-snug"
      data-testid="race-sheet-fuel"
    >
      <span className="mr-1 font-semibold uppercase">Fuel</span>
      <strong className="text-[11pt]">{eat}</strong>
      {fluid !== null ? ` · ${fluid}` : ''}
      {feeds.length > 0 ? ' · feeds: ' : ''}
      {feeds.map((f) => (
        <span
          key={`${f.distance_m}-${f.elapsed_s}`}
          className="mr-2 inline-block whitespace-nowrap tabular-nums"
          data-testid="race-sheet-feed"
        >
          <strong>
            {toUnit(f.distance_m).toFixed(1)} {unit}
          </strong>{' '}
          {formatDuration(f.elapsed_s)} {f.label}
        </span>
      ))}
    </p>
  )
}

const W = 1000
const TOP = 8
/** The profile's height (of 1000 wide); lower when the fuel plan takes a line of the page. */
const PLOT = 90
const PLOT_WITH_FUEL = 60
const STRIP = 24

/**
 * The course's elevation with a strip under it: each target's ranges in a grey as dark as its
 * power is high among the targets, with its key where it is wide enough to read.
 */
function SheetProfile({
  series,
  targets,
  toUnit,
  unit,
  plot,
}: {
  plot: number
  series: RideSeries
  targets: PlanTargetRow[]
  toUnit: (m: number) => number
  unit: string
}) {
  const stripY = TOP + plot + 6
  const h = stripY + STRIP + 20
  const d = series.distance_m
  const a = series.altitude_m
  const length = d.at(-1) ?? 0
  if (d.length < 2 || length <= 0) return null
  const lo = Math.min(...a)
  const hi = Math.max(...a)
  const x = (m: number) => (m / length) * W
  const y = (alt: number) => TOP + plot - ((alt - lo) / Math.max(hi - lo, 1)) * plot
  // at most ~500 points: the sheet is 19 cm wide
  const step = Math.max(1, Math.floor(d.length / 500))
  const line: string[] = [`M0,${y(a[0]!).toFixed(1)}`]
  for (let i = step; i < d.length; i += step)
    line.push(`L${x(d[i]!).toFixed(1)},${y(a[i]!).toFixed(1)}`)
  line.push(`L${W},${y(a.at(-1)!).toFixed(1)}`)
  const powers = targets.map((t) => t.power_w)
  const [pMin, pMax] = [Math.min(...powers), Math.max(...powers)]
  const grey = (p: number) => {
    const f = pMax > pMin ? (p - pMin) / (pMax - pMin) : 1
    return `hsl(0 0% ${Math.round(85 - f * 65)}%)`
  }
  const tickKm = [1, 2, 5, 10, 20, 50].find((s) => toUnit(length) / s <= 10) ?? 100
  const ticks: number[] = []
  for (let k = 0; k <= toUnit(length) + 1e-9; k += tickKm) ticks.push(k)
  return (
    <svg
      viewBox={`0 0 ${W} ${h}`}
      className="mt-3 w-full"
      role="img"
      aria-label={`Elevation ${Math.round(lo)}–${Math.round(hi)} m with the targets' ranges`}
    >
      <path d={`${line.join(' ')} L${W},${TOP + plot} L0,${TOP + plot} Z`} fill="#e5e7eb" />
      <path d={line.join(' ')} fill="none" stroke="#000" strokeWidth={2} />
      <text x={4} y={TOP + 12} fontSize={14}>
        {Math.round(hi)} m
      </text>
      <text x={4} y={TOP + plot - 4} fontSize={14}>
        {Math.round(lo)} m
      </text>
      {targets.flatMap((t) =>
        t.ranges.map((r) => {
          const x0 = x(r.start_m)
          const w = x(r.end_m) - x0
          const dark = grey(t.power_w)
          const light = pMax > pMin && (t.power_w - pMin) / (pMax - pMin) < 0.5
          return (
            <g key={`${t.key}-${r.start_m}`}>
              <line
                x1={x0}
                x2={x0}
                y1={TOP}
                y2={stripY + STRIP}
                stroke="#9ca3af"
                strokeWidth={0.8}
              />
              <rect
                x={x0}
                y={stripY}
                width={w}
                height={STRIP}
                fill={dark}
                stroke="#fff"
                strokeWidth={1}
              />
              {w >= 16 ? (
                <text
                  x={x0 + w / 2}
                  y={stripY + STRIP / 2 + 6}
                  fontSize={17}
                  fontWeight={700}
                  textAnchor="middle"
                  fill={light ? '#000' : '#fff'}
                >
                  {t.key}
                </text>
              ) : null}
            </g>
          )
        }),
      )}
      {ticks.map((k) => {
        const at = (k / toUnit(length)) * W
        return (
          <text
            key={k}
            x={Math.min(Math.max(at, 10), W - 10)}
            y={h - 3}
            fontSize={14}
            textAnchor="middle"
          >
            {k === 0 ? `0 ${unit}` : k}
          </text>
        )
      })}
    </svg>
  )
}
