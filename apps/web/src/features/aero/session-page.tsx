// An aero session (v5 or v6): upload the field test, choose the device, set the analysis
// inputs, read the runs' CdA and the comparison to the baseline, move the VE sliders.
import { useEffect, useMemo } from 'react'
import { useMutation, useQuery, useQueryClient, type UseQueryResult } from '@tanstack/react-query'
import { Link, useParams } from 'react-router'
import type { AeroRun, AeroSession, AeroSourceFile, Page } from '@veloptima/contracts'
import type { AeroComparison } from '@veloptima/engine'
import { EmptyState } from '../../components/empty-state.tsx'
import { PageSpinner } from '../../components/spinner.tsx'
import { Card } from './ui.tsx'
import { AddRunDialog } from './add-run-dialog.tsx'
import { aeroApi, errorText, type VersionAnswer } from './api.ts'
import { CdaChart } from './cda-chart.tsx'
import {
  latestAnalysisQuery,
  sessionFilesQuery,
  sessionQuery,
  sessionReadKeys,
  sessionRunsQuery,
  sessionVersionsQuery,
} from './lib/queries.ts'
import { RunCharts, Windows } from './session-charts.tsx'
import { Devices } from './session-devices.tsx'
import { Upload, Files, VersionStatus } from './session-files.tsx'
import { type Anchor, dateOf, Section, Alert } from './session-parts.tsx'
import { RunsTable, ComparisonSummary, SkippedLaps } from './session-runs.tsx'
import { SettingsCard } from './session-settings.tsx'

/**
 * The session's reads, kept fresh: a newer succeeded analysis than the one shown reloads the
 * blocks and the runs; `refresh` after an upload, a new run or a new analysis.
 */
function useSessionReads(id: string) {
  const client = useQueryClient()
  const session = useQuery(sessionQuery(id))
  const runs = useQuery(sessionRunsQuery(id))
  const files = useQuery(sessionFilesQuery(id))
  const versions = useQuery(sessionVersionsQuery(id))
  const latest = useQuery(latestAnalysisQuery(id))
  const newest = versions.data?.items.find((v) => v.status === 'succeeded')?.version
  const shown = latest.data?.analysis?.version
  useEffect(() => {
    if (newest != null && newest !== shown) {
      void client.invalidateQueries({ queryKey: latestAnalysisQuery(id).queryKey })
      void client.invalidateQueries({ queryKey: sessionRunsQuery(id).queryKey })
    }
  }, [newest, shown, client, id])
  // the first file also gives the session its start time
  const refresh = () => {
    for (const queryKey of sessionReadKeys(id)) void client.invalidateQueries({ queryKey })
  }
  const blocks = useMemo(
    () => latest.data ?? { analysis: null, runs: [], windows: [] },
    [latest.data],
  )
  return { session, runs, files: files.data?.items ?? [], versions, blocks, refresh }
}

function SessionHeader({
  s,
  format,
  anchors,
}: {
  s: AeroSession
  format: 'v5' | 'v6'
  anchors: Anchor[]
}) {
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
    </>
  )
}

/** The runs: the analysis settings, the runs' table with the baseline choice, the CdA chart. */
function RunsSection({
  s,
  runs,
  files,
  blocks,
  refresh,
}: {
  s: AeroSession
  runs: UseQueryResult<Page<AeroRun>>
  files: AeroSourceFile[]
  blocks: VersionAnswer
  refresh: () => void
}) {
  const baseline = useMutation({
    mutationFn: (runId: string) => aeroApi.setBaseline(runId),
    onSuccess: refresh,
  })
  const runItems = runs.data?.items ?? []
  const dialog = (
    <AddRunDialog
      sessionId={s.id}
      nextPosition={runItems.reduce((m, r) => Math.max(m, r.position + 1), 0)}
      files={files}
      onCreated={refresh}
    />
  )
  const comparison = (blocks.analysis?.summary?.comparison ?? null) as AeroComparison | null
  return (
    <Section id="runs" title="Runs" action={dialog}>
      <div className="space-y-4">
        <SettingsCard session={s} onQueued={refresh} hasData={files.length > 0} />
        {runs.isPending ? (
          <PageSpinner />
        ) : runs.isError ? (
          <Alert>{runs.error.message}</Alert>
        ) : runItems.length === 0 ? (
          <EmptyState title="No runs yet">
            Upload the test: runs are found from laps, repeated loops and out-and-back legs, or add
            one from a time range or a lap. Each gets its CdA and Crr with a 95 % interval.
          </EmptyState>
        ) : (
          <RunsTable
            runs={runItems}
            onBaseline={(r) => baseline.mutate(r)}
            pending={baseline.isPending}
          />
        )}
        {baseline.isError ? <Alert>{errorText(baseline.error)}</Alert> : null}
        {blocks.analysis ? <SkippedLaps analysis={blocks.analysis} /> : null}
        {blocks.analysis ? <ComparisonSummary analysis={blocks.analysis} /> : null}
        {blocks.runs.length > 0 ? (
          <Card title="CdA per run, in time order">
            <CdaChart runs={blocks.runs} comparison={comparison} />
          </Card>
        ) : null}
      </div>
    </Section>
  )
}

/** The data sections: v6 has its windows and its run blocks apart, v5 one section for both. */
function DataSections({
  format,
  anchors,
  blocks,
}: {
  format: 'v5' | 'v6'
  anchors: Anchor[]
  blocks: VersionAnswer
}) {
  const [, , third, fourth] = anchors
  if (format === 'v6') {
    return (
      <>
        <Section id={third!.id} title={third!.label}>
          <Windows latest={blocks} />
        </Section>
        <Section id={fourth!.id} title={fourth!.label}>
          <RunCharts latest={blocks} />
        </Section>
      </>
    )
  }
  return (
    <Section id={third!.id} title={third!.label}>
      <div className="space-y-6">
        <RunCharts latest={blocks} />
        <Windows latest={blocks} />
      </div>
    </Section>
  )
}

export function SessionPage({ format, anchors }: { format: 'v5' | 'v6'; anchors: Anchor[] }) {
  const { id = '' } = useParams()
  const { session, runs, files, versions, blocks, refresh } = useSessionReads(id)
  if (session.isPending) return <PageSpinner />
  if (session.isError) return <Alert>{session.error.message}</Alert>
  const s = session.data
  return (
    <>
      <SessionHeader s={s} format={format} anchors={anchors} />
      <div className="mb-10">
        <Upload session={s} onQueued={refresh} />
        <Files files={files} />
        <VersionStatus versions={versions.data?.items ?? []} />
      </div>
      <div className="space-y-12">
        <Section id="devices" title="Devices">
          <Devices session={s} />
        </Section>
        <RunsSection s={s} runs={runs} files={files} blocks={blocks} refresh={refresh} />
        <DataSections format={format} anchors={anchors} blocks={blocks} />
      </div>
    </>
  )
}
