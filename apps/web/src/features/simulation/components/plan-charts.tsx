// Elevation, power, speed and W′ balance along the distance (uPlot, one chart each, cursors
// synchronized so hovering one shows the same place on all).
import { useEffect, useRef } from 'react'
import uPlot from 'uplot'
import 'uplot/dist/uPlot.min.css'
import { toDisplay, unitLabel, useUnits } from '../../../lib/units.ts'
import type { Series } from '../lib/preview.ts'

type ChartDef = { title: string; unit: string; values: number[]; color: string }

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
        height: 160,
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
    const resize = () => el.current && plot.setSize({ width: el.current.clientWidth, height: 160 })
    window.addEventListener('resize', resize)
    return () => {
      window.removeEventListener('resize', resize)
      plot.destroy()
    }
  }, [x, def, xLabel, syncKey])
  return (
    <figure aria-label={`${def.title} along the course`}>
      <div ref={el} />
    </figure>
  )
}

export function PlanCharts({ series, syncKey = 'plan' }: { series: Series; syncKey?: string }) {
  const { system } = useUnits()
  const x = series.distanceM.map((d) => toDisplay('distance', d, system))
  const defs: ChartDef[] = [
    {
      title: 'Elevation',
      unit: unitLabel('elevation', system),
      values: series.altitudeM.map((a) => toDisplay('elevation', a, system)),
      color: '#64748b',
    },
    { title: 'Power', unit: 'W', values: series.powerW, color: '#ea580c' },
    {
      title: 'Speed',
      unit: unitLabel('speed', system),
      values: series.speedMps.map((v) => toDisplay('speed', v, system)),
      color: '#2563eb',
    },
  ]
  if (series.wPrimeJ) {
    defs.push({
      title: 'W′ balance',
      unit: 'kJ',
      values: series.wPrimeJ.map((w) => w / 1000),
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
