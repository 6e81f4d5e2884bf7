import { formatQuantity, toDisplay, unitLabel, useUnits } from '../../../lib/units.ts'
import { formatDuration, percent } from '../lib/format.ts'
import type { PlanSection } from '../lib/run-output.ts'

/** The plan as the rider takes it to the race: one row per target. */
export function PlanTable({ rows }: { rows: PlanSection[] }) {
  const { system } = useUnits()
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full divide-y divide-slate-200 text-sm">
        <caption className="sr-only">Pacing plan by section</caption>
        <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-600">
          <tr>
            <th className="px-2 py-2">#</th>
            <th className="px-2 py-2">From – to ({unitLabel('distance', system)})</th>
            <th className="px-2 py-2">Terrain</th>
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
              <td className="px-2 py-1.5 tabular-nums">
                {toDisplay('distance', r.start_m, system).toFixed(2)} –{' '}
                {toDisplay('distance', r.end_m, system).toFixed(2)}
              </td>
              <td className="px-2 py-1.5">{r.label}</td>
              <td className="px-2 py-1.5 tabular-nums">{percent(r.grade)}</td>
              <td className="px-2 py-1.5 font-semibold tabular-nums">{Math.round(r.power_w)} W</td>
              <td className="px-2 py-1.5 tabular-nums">
                {formatQuantity('speed', r.speed_mps, system)}
              </td>
              <td className="px-2 py-1.5 tabular-nums">{formatDuration(r.duration_s)}</td>
              <td className="px-2 py-1.5 tabular-nums">{formatDuration(r.elapsed_s)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
