import { formatQuantity, useUnits } from '../../../lib/units.ts'
import { formatDuration, formatSaving } from '../lib/format.ts'
import type { PreviewState } from '../lib/use-preview.ts'
import { PlanCharts } from './plan-charts.tsx'
import { PlanTable } from './plan-table.tsx'
import { ErrorBox, Stat } from './ui.tsx'
import type { PreviewSummary } from '../lib/preview.ts'

export function SummaryStats({ summary }: { summary: PreviewSummary }) {
  const { system } = useUnits()
  const distance = summary.series?.distanceM.at(-1)
  return (
    <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
      <Stat
        label="Predicted time"
        value={<span data-testid="predicted-time">{formatDuration(summary.timeS)}</span>}
      />
      <Stat
        label="Time saved vs constant power"
        value={
          <span data-testid="time-saved">
            {summary.timeSavedS !== null ? formatSaving(summary.timeSavedS) : '—'}
          </span>
        }
      />
      <Stat
        label="Constant power baseline"
        value={
          summary.baseline
            ? `${Math.round(summary.baseline.powerW)} W · ${formatDuration(summary.baseline.timeS)}`
            : '—'
        }
      />
      <Stat
        label="Average speed"
        value={
          distance && summary.timeS > 0
            ? formatQuantity('speed', distance / summary.timeS, system)
            : '—'
        }
      />
    </dl>
  )
}

/** Says so when the rideable plan is no faster than riding the constant baseline. */
export function SavingNote({ summary }: { summary: PreviewSummary }) {
  if (summary.timeSavedS === null || summary.timeSavedS > 0.5 || !summary.baseline) return null
  return (
    <p className="rounded-md bg-amber-50 p-2 text-sm text-amber-900 ring-1 ring-amber-200">
      On this course the plan with this number of targets is no faster than riding a steady{' '}
      {Math.round(summary.baseline.powerW)} W
      {summary.optimumTimeSavedS !== null && summary.optimumTimeSavedS > 0.5
        ? ` (pacing segment by segment would save ${formatSaving(summary.optimumTimeSavedS)}, more targets than a rider can follow)`
        : ''}
      . Ride the steady power, or allow more targets.
    </p>
  )
}

export function EquipmentRanking({ summary }: { summary: PreviewSummary }) {
  if (!summary.variants) return null
  return (
    <table className="min-w-full divide-y divide-slate-200 text-sm" data-testid="equipment-ranking">
      <caption className="mb-1 text-left text-sm font-semibold text-slate-900">
        Equipment ranking
      </caption>
      <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-600">
        <tr>
          <th className="px-2 py-2">Rank</th>
          <th className="px-2 py-2">Setup</th>
          <th className="px-2 py-2">Time</th>
          <th className="px-2 py-2">Δ time vs baseline</th>
        </tr>
      </thead>
      <tbody className="divide-y divide-slate-100">
        {summary.variants.map((v, i) => (
          <tr key={v.name}>
            <td className="px-2 py-1.5">{i + 1}</td>
            <td className="px-2 py-1.5">{v.name}</td>
            <td className="px-2 py-1.5 tabular-nums">
              {v.status === 'optimal' ? formatDuration(v.timeS) : 'infeasible'}
            </td>
            <td className="px-2 py-1.5 tabular-nums">
              {v.deltaS === 0 ? '—' : formatSaving(v.deltaS)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  )
}

export function PreviewPanel({ state, missing }: { state: PreviewState; missing: string | null }) {
  if (missing) return <p className="text-sm text-slate-500">{missing}</p>
  if (state.error) return <ErrorBox>The preview cannot be computed: {state.error}</ErrorBox>
  if (!state.summary)
    return (
      <p role="status" className="text-sm text-slate-500">
        Computing the preview…
      </p>
    )
  const s = state.summary
  return (
    <div className="space-y-4" data-testid="preview">
      <p className="text-xs text-slate-500" role="status">
        {state.computing
          ? 'Updating…'
          : `Computed in your browser in ${Math.round(state.ms ?? 0)} ms.`}
      </p>
      {s.status === 'infeasible' ? (
        <ErrorBox>These inputs cannot be ridden: {s.reason}</ErrorBox>
      ) : (
        <>
          <SummaryStats summary={s} />
          <SavingNote summary={s} />
          <EquipmentRanking summary={s} />
          <PlanTable rows={s.sections} />
          {s.series ? <PlanCharts series={s.series} syncKey="preview" /> : null}
        </>
      )}
    </div>
  )
}
