// Run: the saved optimization becomes a background job; its state is polled from
// GET /api/jobs/:id (jobQuery) until it finishes, then the new result version opens.
import { useEffect, useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link, useNavigate } from 'react-router'
import { api } from '../../../lib/api-client.ts'
import { errorMessage, type JobState, type RunStarted } from '../lib/api.ts'
import { jobQuery, optimizationResultsQuery, type ResultSummary } from '../lib/queries.ts'
import { formatDate } from '../lib/format.ts'
import { Field } from '../../../components/form.tsx'
import { Button, ErrorBox } from './ui.tsx'

/** What the run is doing: the stage the job records, or where it is before its first one. */
const stageOf = (job: JobState) =>
  job.message ?? (job.state === 'queued' ? 'Waiting for a free job thread' : 'Starting')

const POLL_MS = 500
const resultPath = (type: string, optimizationId: string, id: string) =>
  `/simulation/optimizations/${type}/${optimizationId}/results/${id}`
const isActive = (job: JobState | undefined) =>
  job !== undefined && (job.state === 'queued' || job.state === 'running')

/** What the run shows from its start until the job's first answer. */
const queuedJob = (started: RunStarted): JobState => ({
  id: started.job_id,
  kind: 'optimization',
  state: 'queued',
  progress: 0,
  message: 'Queued',
  attempts: 0,
  created_at: new Date().toISOString(),
  started_at: null,
  finished_at: null,
})

/** The state of the started run's job, polled while it is queued or running. */
function useRunJob(started: RunStarted | null) {
  const query = useQuery({
    ...jobQuery(started?.job_id ?? ''),
    enabled: started !== null,
    placeholderData: started ? queuedJob(started) : undefined,
    refetchInterval: (q) => (!q.state.error && isActive(q.state.data) ? POLL_MS : false),
  })
  return { job: started ? query.data : undefined, error: started ? query.error : null }
}

export function RunPanel({
  optimizationId,
  type,
  beforeRun,
  showResults = false,
}: {
  optimizationId: string
  type: 'pacing' | 'equipment'
  /** Saves the form; false when it is invalid (the run is not started). */
  beforeRun(): Promise<boolean>
  /** `?showResults=1`: open the latest result once the versions are known. */
  showResults?: boolean
}) {
  const navigate = useNavigate()
  const client = useQueryClient()
  const results = useQuery(optimizationResultsQuery(optimizationId))
  const [started, setStarted] = useState<RunStarted | null>(null)
  const { job, error: pollError } = useRunJob(started)
  const [failure, setFailure] = useState<string | null>(null)
  const [label, setLabel] = useState('')
  const start = useMutation({
    mutationFn: (body: { label?: string }) =>
      api<RunStarted>(`/api/optimizations/${optimizationId}/run`, { method: 'POST', body }),
  })
  const cancelJob = useMutation({
    mutationFn: (jobId: string) => api(`/api/jobs/${jobId}/cancel`, { method: 'POST', body: {} }),
  })
  const latest = results.data
    ?.filter((r) => r.status === 'succeeded')
    .reduce<ResultSummary | undefined>((a, r) => (!a || r.version > a.version ? r : a), undefined)
  useEffect(() => {
    if (showResults && latest) {
      navigate(resultPath(type, optimizationId, latest.id), { replace: true })
    }
  }, [showResults, latest, navigate, type, optimizationId])

  // The run ended: its version is in the list; a succeeded run opens its result.
  const ended = started && job && !isActive(job) ? job : null
  const endedState = ended?.state
  const openedResult = ended?.result_id ?? started?.result_id
  useEffect(() => {
    if (!endedState) return
    void client.invalidateQueries({ queryKey: optimizationResultsQuery(optimizationId).queryKey })
    if (endedState === 'succeeded' && openedResult) {
      navigate(resultPath(type, optimizationId, openedResult))
    }
  }, [endedState, openedResult, client, navigate, optimizationId, type])
  const error =
    failure ??
    (pollError ? errorMessage(pollError) : null) ??
    (ended && ended.state !== 'succeeded'
      ? (ended.error?.message ?? `The run ${ended.state}.`)
      : null)

  async function run() {
    setFailure(null)
    setStarted(null)
    if (!(await beforeRun())) return
    try {
      setStarted(await start.mutateAsync(label.trim() ? { label: label.trim() } : {}))
      setLabel('')
    } catch (e) {
      setFailure(errorMessage(e))
    }
  }

  async function cancel() {
    if (!job) return
    try {
      await cancelJob.mutateAsync(job.id)
    } catch (e) {
      setFailure(errorMessage(e))
    }
  }

  const running = isActive(job)
  return (
    <div className="space-y-3">
      <Field
        label="Version label"
        inputMode="text"
        value={label}
        onChange={setLabel}
        hint="Optional, e.g. “calm” or “windy”: each run is kept as a version."
      />
      <div className="flex gap-2">
        <Button onClick={() => void run()} disabled={running}>
          {running ? 'Running…' : 'Run'}
        </Button>
        {running ? (
          <Button variant="secondary" onClick={() => void cancel()}>
            Cancel run
          </Button>
        ) : null}
      </div>
      {job && running ? (
        <div>
          <progress
            className="w-full"
            max={100}
            value={job.progress}
            aria-label="Run progress"
            aria-valuetext={`${stageOf(job)}, ${Math.round(job.progress)} %`}
          />
          <p className="flex justify-between gap-2 text-xs text-slate-600" role="status">
            <span className="min-w-0 truncate" title={stageOf(job)}>
              {stageOf(job)}
            </span>
            <span className="shrink-0 tabular-nums">{Math.round(job.progress)} %</span>
          </p>
        </div>
      ) : null}
      {error ? <ErrorBox>{error}</ErrorBox> : null}
      {results.data && results.data.length > 0 ? (
        <div>
          <h3 className="text-sm font-semibold text-slate-900">Results</h3>
          <ul className="mt-1 space-y-1 text-sm">
            {results.data.map((r) => (
              <li key={r.id}>
                {r.status === 'succeeded' ? (
                  <Link
                    className="text-brand-700 underline"
                    to={resultPath(type, optimizationId, r.id)}
                  >
                    Version {r.version}
                    {r.label ? ` – ${r.label}` : ''}
                  </Link>
                ) : (
                  <span>
                    Version {r.version}: {r.status}
                    {r.error ? ` – ${r.error.message}` : ''}
                  </span>
                )}{' '}
                <span className="text-xs text-slate-500">{formatDate(r.created_at)}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </div>
  )
}
