// Elevation, power, speed and W′ balance along the distance (uPlot, one chart each, cursors
// synchronized so hovering one shows the same place on all).
import { useEffect, useRef } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { toDisplay, unitLabel, useUnits } from '../../../lib/units.ts'
import type { RideSeries } from '../lib/run-output.ts'

type ChartDef = { title: string; unit: string; values: number[]; color: string }

/**
 * The height of a chart's plot area, whatever the width (docs/web-app.md, "On a phone"): uPlot's
 * `height` includes the axes, so the chart is made, measured and grown until its plot is this tall.
 */
export const PLOT_HEIGHT_PX = 160
const AXES_GUESS_PX = 100

/** Grows the chart so that its plot area (`.u-over`) is PLOT_HEIGHT_PX tall at `width`. */
function fitPlotHeight(plot: uPlot, width: number) {
  const axes = plot.height - plot.over.clientHeight
  plot.setSize({ width, height: PLOT_HEIGHT_PX + axes })
}

function Chart({
  x,
  def,
  xLabel,
  syncKey,
}: {
  x: number[]
  def: ChartDef
  xLabel: string
  syncKey: string
}) {
  const el = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!el.current) return
    const width = Math.max(300, el.current.clientWidth)
    const plot = new uPlot(
      {
        width,
        height: PLOT_HEIGHT_PX + AXES_GUESS_PX,
        cursor: { sync: { key: syncKey } },
        legend: { show: true },
        scales: { x: { time: false } },
        axes: [{ label: xLabel }, { label: def.unit, size: 60 }],
        series: [
          { label: xLabel },
          {
            label: `${def.title} (${def.unit})`,
            stroke: def.color,
            width: 2,
            fill: `${def.color}22`,
          },
        ],
      },
      [x, def.values],
      el.current,
    )
    fitPlotHeight(plot, width)
    const resize = () => el.current && fitPlotHeight(plot, el.current.clientWidth)
    window.addEventListener('resize', resize)
    return () => {
      window.removeEventListener('resize', resize)
      plot.destroy()
    }
  }, [x, def, xLabel, syncKey])
  return (
    <figure className="plan-chart" aria-label={`${def.title} along the course`}>
      <div ref={el} />
    </figure>
  )
}

/** Every `stride`-th value so a chart keeps at most ~1500 points (uPlot draws them all). */
function thin(values: number[], stride: number): number[] {
  return stride <= 1 ? values : values.filter((_, i) => i % stride === 0 || i === values.length - 1)
}

export function PlanCharts({ series, syncKey = 'plan' }: { series: RideSeries; syncKey?: string }) {
  const { system } = useUnits()
  const stride = Math.ceil(series.distance_m.length / 1500)
  const x = thin(series.distance_m, stride).map((d) => toDisplay('distance', d, system))
  const defs: ChartDef[] = [
    {
      title: 'Elevation',
      unit: unitLabel('elevation', system),
      values: thin(series.altitude_m, stride).map((a) => toDisplay('elevation', a, system)),
      color: '#64748b',
    },
    { title: 'Power', unit: 'W', values: thin(series.power_w, stride), color: '#ea580c' },
    {
      title: 'Speed',
      unit: unitLabel('speed', system),
      values: thin(series.speed_mps, stride).map((v) => toDisplay('speed', v, system)),
      color: '#2563eb',
    },
  ]
  if (series.w_prime_balance_j.some((w) => w !== 0)) {
    defs.push({
      title: 'W′ balance',
      unit: 'kJ',
      values: thin(series.w_prime_balance_j, stride).map((w) => w / 1000),
      color: '#16a34a',
    })
  }
  const xLabel = `Distance (${unitLabel('distance', system)})`
  return (
    <div className="space-y-2" data-testid="plan-charts">
      {defs.map((d) => (
        <Chart key={d.title} x={x} def={d} xLabel={xLabel} syncKey={syncKey} />
      ))}
    </div>
  )
}

/** Δ-time against the baseline along the course, one line per equipment combination. */
export function DeltaChart({
  lines,
  syncKey = 'delta',
}: {
  lines: { label: string; distance_m: number[]; delta_s: number[] }[]
  syncKey?: string
}) {
  const { system } = useUnits()
  const el = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (!el.current || lines.length === 0) return
    const x = lines[0]!.distance_m.map((d) => toDisplay('distance', d, system))
    const colors = ['#ea580c', '#2563eb', '#16a34a', '#9333ea', '#0891b2', '#ca8a04']
    const width = Math.max(300, el.current.clientWidth)
    const plot = new uPlot(
      {
        width,
        height: PLOT_HEIGHT_PX + AXES_GUESS_PX,
        cursor: { sync: { key: syncKey } },
        scales: { x: { time: false } },
        axes: [
          { label: `Distance (${unitLabel('distance', system)})` },
          { label: 'Δ time (s)', size: 60 },
        ],
        series: [
          { label: 'Distance' },
          ...lines.map((l, i) => ({
            label: l.label,
            stroke: colors[i % colors.length]!,
            width: 2,
          })),
        ],
      },
      [x, ...lines.map((l) => l.delta_s)],
      el.current,
    )
    fitPlotHeight(plot, width)
    return () => plot.destroy()
  }, [lines, system, syncKey])
  return (
    <figure className="plan-chart" aria-label="Δ time against the baseline along the course">
      <div ref={el} />
    </figure>
  )
}
