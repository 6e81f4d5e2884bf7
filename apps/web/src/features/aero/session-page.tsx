// An aero session (v5 or v6): upload the field test, choose the device, set the analysis
// inputs, read the runs' CdA and the comparison to the baseline, move the VE sliders.
import { useEffect, useMemo } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useParams } from 'react-router'
import type { AeroRun, AeroSession, Page } from '@veloptima/contracts'
import type { AeroComparison } from '@veloptima/engine'
import { EmptyState } from '../../components/empty-state.tsx'
import { PageSpinner } from '../../components/spinner.tsx'
import { api } from '../../lib/api-client.ts'
import { Card } from './ui.tsx'
import { AddRunDialog } from './add-run-dialog.tsx'
import { aeroApi, errorText } from './api.ts'
import { CdaChart } from './cda-chart.tsx'
import { RunCharts, Windows } from './session-charts.tsx'
import { Devices } from './session-devices.tsx'
import { Upload, Files, VersionStatus } from './session-files.tsx'
import { type Anchor, sessionKey, dateOf, Section, Alert } from './session-parts.tsx'
import { RunsTable, ComparisonSummary } from './session-runs.tsx'
import { SettingsCard } from './session-settings.tsx'

export function SessionPage({ format, anchors }: { format: 'v5' | 'v6'; anchors: Anchor[] }) {
  const { id = '' } = useParams()
  const client = useQueryClient()
  const session = useQuery({
    queryKey: sessionKey(id),
    queryFn: () => api<AeroSession>(`/api/aero-sessions/${encodeURIComponent(id)}`),
  })
  const runs = useQuery({
    queryKey: ['aero-runs', id],
    queryFn: () =>
      api<Page<AeroRun>>(`/api/aero-sessions/${encodeURIComponent(id)}/runs?limit=200`),
  })
  const files = useQuery({ queryKey: ['aero-files', id], queryFn: () => aeroApi.files(id) })
  const versions = useQuery({
    queryKey: ['aero-versions', id],
    queryFn: () => aeroApi.versions(id),
    refetchInterval: (q) =>
      q.state.data?.items.some((v) => v.status === 'queued' || v.status === 'running')
        ? 1000
        : false,
  })
  const latest = useQuery({
    queryKey: ['aero-latest', id],
    queryFn: () => aeroApi.version(id, 'latest'),
  })
  const newest = versions.data?.items.find((v) => v.status === 'succeeded')?.version
  const shown = latest.data?.analysis?.version
  useEffect(() => {
    if (newest != null && newest !== shown) {
      void client.invalidateQueries({ queryKey: ['aero-latest', id] })
      void client.invalidateQueries({ queryKey: ['aero-runs', id] })
    }
  }, [newest, shown, client, id])
  const refresh = () => {
    // the first file also gives the session its start time
    void client.invalidateQueries({ queryKey: sessionKey(id) })
    void client.invalidateQueries({ queryKey: ['aero-versions', id] })
    void client.invalidateQueries({ queryKey: ['aero-files', id] })
    void client.invalidateQueries({ queryKey: ['aero-runs', id] })
  }
  const baseline = useMutation({
    mutationFn: (runId: string) => aeroApi.setBaseline(runId),
    onSuccess: refresh,
  })
  const blocks = useMemo(
    () => latest.data ?? { analysis: null, runs: [], windows: [] },
    [latest.data],
  )

  if (session.isPending) return <PageSpinner />
  if (session.isError) return <Alert>{session.error.message}</Alert>
  const s = session.data
  const hasData = (files.data?.items.length ?? 0) > 0
  const runItems = runs.data?.items ?? []
  const [, , third, fourth] = anchors
  return (
    <>
      <header className="mb-6">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{s.name}</h1>
        <p className="mt-2 text-sm text-slate-600">
          {format === 'v6' ? 'Version 6' : 'Version 5'} session · {dateOf(s.started_at)}
          {s.location ? ` · ${s.location}` : ''}
        </p>
      </header>
      {s.format !== format && (
        <p role="alert" className="mb-6 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900">
          This session is stored as {s.format}.{' '}
          <Link className="font-semibold underline" to={`/aero/sessions/${s.format}/${s.id}`}>
            Open the {s.format} view
          </Link>
          .
        </p>
      )}
      <nav aria-label="Session sections" className="mb-8 flex flex-wrap gap-2">
        {anchors.map((a) => (
          <a
            key={a.id}
            href={`#${a.id}`}
            className="rounded-full bg-white px-3 py-1 text-sm font-medium text-slate-700 ring-1 ring-slate-200 hover:text-brand-700"
          >
            {a.label}
          </a>
        ))}
      </nav>
      <div className="mb-10">
        <Upload session={s} onQueued={refresh} />
        <Files files={files.data?.items ?? []} />
        <VersionStatus versions={versions.data?.items ?? []} />
      </div>
      <div className="space-y-12">
        <Section id="devices" title="Devices">
          <Devices session={s} />
        </Section>
        <Section
          id="runs"
          title="Runs"
          action={
            <AddRunDialog
              sessionId={s.id}
              nextPosition={runItems.reduce((m, r) => Math.max(m, r.position + 1), 0)}
              files={files.data?.items ?? []}
              onCreated={refresh}
            />
          }
        >
          <div className="space-y-4">
            <SettingsCard session={s} onQueued={refresh} hasData={hasData} />
            {runs.isPending ? (
              <PageSpinner />
            ) : runs.isError ? (
              <Alert>{runs.error.message}</Alert>
            ) : runItems.length === 0 ? (
              <EmptyState title="No runs yet">
                Upload the test: runs are found from laps, repeated loops and out-and-back legs, or
                add one from a time range or a lap. Each gets its CdA and Crr with a 95 % interval.
              </EmptyState>
            ) : (
              <RunsTable
                runs={runItems}
                onBaseline={(r) => baseline.mutate(r)}
                pending={baseline.isPending}
              />
            )}
            {baseline.isError ? <Alert>{errorText(baseline.error)}</Alert> : null}
            {blocks.analysis ? <ComparisonSummary analysis={blocks.analysis} /> : null}
            {blocks.runs.length > 0 ? (
              <Card title="CdA per run, in time order">
                <CdaChart
                  runs={blocks.runs}
                  comparison={
                    (blocks.analysis?.summary?.comparison ?? null) as AeroComparison | null
                  }
                />
              </Card>
            ) : null}
          </div>
        </Section>
        {format === 'v6' ? (
          <>
            <Section id={third!.id} title={third!.label}>
              <Windows latest={blocks} />
            </Section>
            <Section id={fourth!.id} title={fourth!.label}>
              <RunCharts latest={blocks} />
            </Section>
          </>
        ) : (
          <Section id={third!.id} title={third!.label}>
            <div className="space-y-6">
              <RunCharts latest={blocks} />
              <Windows latest={blocks} />
            </div>
          </Section>
        )}
      </div>
    </>
  )
}
