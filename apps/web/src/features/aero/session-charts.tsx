// The aero session's data blocks: per run the VE chart with its sliders and the laps map, the
// run blocks' table, and the direct method's windows.
import { useState } from 'react'
import { EmptyState } from '../../components/empty-state.tsx'
import { formatQuantity, useUnits } from '../../lib/units.ts'
import { Select } from '../../components/form.tsx'
import { Card } from './ui.tsx'
import type { RunBlock, VersionAnswer } from './api.ts'
import { LapsMap } from './laps-map.tsx'
import { TableHead } from './session-parts.tsx'
import { VeChart } from './ve-chart.tsx'
import { ScrollRegion } from '../../components/scroll-region.tsx'

export function RunCharts({ latest }: { latest: VersionAnswer }) {
  const [selected, setSelected] = useState(0)
  const block: RunBlock | undefined = latest.runs[selected] ?? latest.runs[0]
  if (!block)
    return (
      <EmptyState title="No run data yet">
        Upload a file: each run&apos;s aggregate and its virtual-elevation trace show here.
      </EmptyState>
    )
  return (
    <div className="space-y-6">
      <Card>
        <div className="mb-3 flex flex-wrap items-end justify-between gap-3">
          <div className="min-w-72">
            <Select
              label="Run to plot"
              value={String(selected)}
              onChange={(v) => setSelected(Number(v))}
              options={latest.runs.map((r, i) => ({
                value: String(i),
                label: `${r.data.name} — ${
                  typeof r.data.results.cda === 'number' && Number.isFinite(r.data.results.cda)
                    ? `CdA ${r.data.results.cda.toFixed(3)} m²`
                    : 'no CdA'
                }`,
              }))}
            />
          </div>
          <span className="text-xs text-slate-500">
            {block.data.results.method === 'direct'
              ? 'Direct method (air speed)'
              : 'Virtual elevation (Chung)'}
            {block.data.results.ve_rmse_m != null
              ? ` · fit RMSE ${block.data.results.ve_rmse_m.toFixed(2)} m`
              : ''}
          </span>
        </div>
        <VeChart key={block.id} block={block} />
      </Card>
      <Card title="Where the runs were ridden">
        <LapsMap runs={latest.runs} />
      </Card>
      <table
        className="w-full overflow-hidden rounded-2xl bg-white text-left text-sm ring-1 ring-slate-200"
        aria-label="Run data blocks"
      >
        <TableHead
          columns={['Block', 'From–to (s)', 'Samples', 'Mean speed', 'Mean power', 'Air density']}
        />
        <tbody className="divide-y divide-slate-100">
          {latest.runs.map((r) => (
            <BlockRow key={r.id} block={r} />
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** A stored number (JSON stores a value the run could not give as null). */
const ok = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v)

function BlockRow({ block }: { block: RunBlock }) {
  const { system } = useUnits()
  const x = block.data.results
  return (
    <tr>
      <td className="px-3 py-2 text-slate-900">{block.data.name}</td>
      <td className="px-3 py-2 tabular-nums text-slate-600">
        {Math.round(block.start_time ?? 0)}–{Math.round(block.end_time ?? 0)}
      </td>
      <td className="px-3 py-2 tabular-nums text-slate-600">{block.data.series.t.length}</td>
      <td className="px-3 py-2 tabular-nums text-slate-600">
        {ok(x.mean_speed_mps) ? formatQuantity('speed', x.mean_speed_mps, system) : '—'}
      </td>
      <td className="px-3 py-2 tabular-nums text-slate-600">
        {ok(x.mean_power_w) ? `${Math.round(x.mean_power_w)} W` : '—'}
      </td>
      <td className="px-3 py-2 tabular-nums text-slate-600">
        {ok(x.air_density) ? `${x.air_density.toFixed(3)} kg/m³` : '—'}
      </td>
    </tr>
  )
}

export function Windows({ latest }: { latest: VersionAnswer }) {
  const { system } = useUnits()
  const names = new Map(latest.runs.map((r) => [r.run_id, r.data.name]))
  if (latest.windows.length === 0) {
    return (
      <EmptyState title="No CdA measurement windows">
        CdA per window comes from the direct method, where the file has air speed from an aero
        sensor.
        {latest.runs.length > 0
          ? ' These runs were fitted by virtual elevation over the whole run.'
          : ''}
      </EmptyState>
    )
  }
  return (
    <ScrollRegion
      className="overflow-x-auto rounded-2xl bg-white ring-1 ring-slate-200"
      label="CdA windows (scrolls sideways)"
    >
      <table className="w-full text-left text-sm" aria-label="CdA measurement windows">
        <TableHead
          columns={['Run', 'Windows', 'CdA median (m²)', 'CdA range (m²)', 'Mean speed']}
        />
        <tbody className="divide-y divide-slate-100">
          {latest.windows.map((w) => {
            const sorted = [...w.data.cda].filter(Number.isFinite).sort((a, b) => a - b)
            const median = sorted[Math.floor(sorted.length / 2)] ?? NaN
            const speed =
              w.data.speed_mps.reduce((a, b) => a + b, 0) / Math.max(1, w.data.speed_mps.length)
            return (
              <tr key={w.id}>
                <td className="px-3 py-2 text-slate-900">{names.get(w.run_id) ?? '—'}</td>
                <td className="px-3 py-2 tabular-nums">{w.data.cda.length}</td>
                <td className="px-3 py-2 tabular-nums">{median.toFixed(3)}</td>
                <td className="px-3 py-2 tabular-nums">
                  {sorted.length
                    ? `${sorted[0]!.toFixed(3)}–${sorted[sorted.length - 1]!.toFixed(3)}`
                    : '—'}
                </td>
                <td className="px-3 py-2 tabular-nums">{formatQuantity('speed', speed, system)}</td>
              </tr>
            )
          })}
        </tbody>
      </table>
    </ScrollRegion>
  )
}
