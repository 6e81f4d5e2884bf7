// One result version: what the server's run computed, the optimized plan of the same snapshot,
// charts along the course, the equipment ranking and the exports.
import { useMemo } from 'react'
import { Link, useParams } from 'react-router'
import { EquipmentRanking, SavingNote, SummaryStats } from '../components/preview-panel.tsx'
import { PlanCharts } from '../components/plan-charts.tsx'
import { PlanTable } from '../components/plan-table.tsx'
import { ExportButtons } from '../components/export-buttons.tsx'
import { Card, ErrorBox, Loading, Page, PageHeader } from '../components/ui.tsx'
import { useApiData, type OptimizationResult } from '../lib/api.ts'
import { formatDate, formatDuration } from '../lib/format.ts'
import { snapshotEngineInputs, type Snapshot } from '../lib/snapshot.ts'
import { usePreview } from '../lib/use-preview.ts'
import { NotYours } from './course-page.tsx'

type ServerResult = {
  type?: string
  time_s?: number
  power_w?: number
  status?: string
  message?: string | null
}

export function ResultPage() {
  const { simId, id } = useParams()
  const result = useApiData<OptimizationResult>(`/api/optimization-results/${id}`)
  const r = result.data
  const wrongParent = r && r.optimization_id !== simId
  const snapshot = r && !wrongParent ? (r.inputs as unknown as Snapshot) : null
  const engineInputs = useMemo(() => {
    try {
      return snapshot?.course?.segments ? snapshotEngineInputs(snapshot) : null
    } catch {
      return null
    }
  }, [snapshot])
  const type = snapshot?.optimization.type ?? 'pacing'
  const plan = usePreview(engineInputs, snapshot?.optimization.inputs ?? {}, type)

  if (result.error || wrongParent) {
    return (
      <Page>
        <NotYours
          what="result"
          message={result.error?.message ?? 'This result belongs to another optimization.'}
        />
      </Page>
    )
  }
  if (!r || !snapshot)
    return (
      <Page>
        <Loading what="the result" />
      </Page>
    )
  const server = (r.result ?? {}) as ServerResult
  const base = `/simulation/optimizations/${type}/${simId}`
  return (
    <Page>
      <PageHeader
        title={`${snapshot.optimization.name} – version ${r.version}`}
        description={`${snapshot.course.name} · ${String(snapshot.rider_setup.name ?? '')} · run ${r.finished_at ? formatDate(r.finished_at) : r.status}`}
      >
        <Link
          className="rounded-md px-3 py-2 text-sm font-semibold text-slate-700 ring-1 ring-slate-300"
          to={`${base}/results/${r.id}/input`}
        >
          Inputs of this result
        </Link>
        <Link
          className="rounded-md px-3 py-2 text-sm font-semibold text-slate-700 ring-1 ring-slate-300"
          to={base}
        >
          Edit optimization
        </Link>
      </PageHeader>
      {r.status === 'failed' ? (
        <ErrorBox className="mt-4">{r.error?.message ?? 'The run failed.'}</ErrorBox>
      ) : null}
      {r.status !== 'succeeded' && r.status !== 'failed' ? (
        <p className="mt-4 text-sm">This run is {r.status}…</p>
      ) : null}
      {server.time_s !== undefined ? (
        <p className="mt-3 text-sm text-slate-600" data-testid="server-run">
          Server run (
          {server.type === 'constant_power'
            ? `constant ${Math.round(server.power_w ?? 0)} W`
            : server.type}
          ): <strong>{formatDuration(server.time_s)}</strong>.
        </p>
      ) : null}
      <div className="mt-4 space-y-4">
        {plan.error ? <ErrorBox>The plan cannot be computed: {plan.error}</ErrorBox> : null}
        {!plan.summary && !plan.error ? <Loading what="the optimized plan" /> : null}
        {plan.summary?.status === 'infeasible' ? (
          <ErrorBox>These inputs cannot be ridden: {plan.summary.reason}</ErrorBox>
        ) : null}
        {plan.summary && plan.summary.status === 'optimal' ? (
          <>
            <SummaryStats summary={plan.summary} />
            <SavingNote summary={plan.summary} />
            <p className="text-xs text-slate-500">
              The optimized plan is computed in your browser from this version’s snapshot of inputs
              (the engine is deterministic: the same snapshot always gives the same plan).
            </p>
            {plan.summary.variants ? (
              <Card>
                <EquipmentRanking summary={plan.summary} />
              </Card>
            ) : null}
            <Card title="Plan">
              <PlanTable rows={plan.summary.sections} />
            </Card>
            {plan.summary.series ? (
              <Card title="Along the course">
                <PlanCharts series={plan.summary.series} syncKey={`result-${r.id}`} />
              </Card>
            ) : null}
            <Card title="Export" className="print:hidden">
              <ExportButtons summary={plan.summary} snapshot={snapshot} result={r} />
            </Card>
          </>
        ) : null}
      </div>
    </Page>
  )
}
