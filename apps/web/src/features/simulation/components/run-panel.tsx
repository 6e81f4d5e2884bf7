// Run: the saved optimization becomes a background job; its progress is polled from
// GET /api/jobs/:id until it finishes, then the new result version opens.
import { useEffect, useRef, useState } from 'react'
import { Link, useNavigate } from 'react-router'
import { api } from '../../../lib/api-client.ts'
import {
  errorMessage,
  useList,
  type JobState,
  type OptimizationResult,
  type RunStarted,
} from '../lib/api.ts'
import { formatDate } from '../lib/format.ts'
import { Field } from '../../../components/form.tsx'
import { Button, ErrorBox } from './ui.tsx'

type ResultSummary = Omit<OptimizationResult, 'inputs' | 'result'>

/** What the run is doing: the stage the job records, or where it is before its first one. */
const stageOf = (job: JobState) =>
  job.message ?? (job.state === 'queued' ? 'Waiting for a free job thread' : 'Starting')

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
  const results = useList<ResultSummary>(`/api/optimizations/${optimizationId}/results`)
  const [job, setJob] = useState<JobState | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [label, setLabel] = useState('')
  const timer = useRef<number | undefined>(undefined)
  useEffect(() => () => window.clearTimeout(timer.current), [])

  const latest = results.data
    ?.filter((r) => r.status === 'succeeded')
    .reduce<ResultSummary | undefined>((a, r) => (!a || r.version > a.version ? r : a), undefined)
  useEffect(() => {
    if (showResults && latest) {
      navigate(`/simulation/optimizations/${type}/${optimizationId}/results/${latest.id}`, {
        replace: true,
      })
    }
  }, [showResults, latest, navigate, type, optimizationId])

  async function poll(jobId: string, resultId: string) {
    try {
      const state = await api<JobState>(`/api/jobs/${jobId}`)
      setJob(state)
      if (state.state === 'succeeded') {
        navigate(
          `/simulation/optimizations/${type}/${optimizationId}/results/${state.result_id ?? resultId}`,
        )
        return
      }
      if (state.state === 'failed' || state.state === 'cancelled') {
        setError(state.error?.message ?? `The run ${state.state}.`)
        results.reload()
        return
      }
      timer.current = window.setTimeout(() => void poll(jobId, resultId), 500)
    } catch (e) {
      setError(errorMessage(e))
    }
  }

  async function run() {
    setError(null)
    setJob(null)
    if (!(await beforeRun())) return
    try {
      const started = await api<RunStarted>(`/api/optimizations/${optimizationId}/run`, {
        method: 'POST',
        body: label.trim() ? { label: label.trim() } : {},
      })
      setLabel('')
      setJob({ id: started.job_id, state: 'queued', progress: 0, message: 'Queued' })
      void poll(started.job_id, started.result_id)
    } catch (e) {
      setError(errorMessage(e))
    }
  }

  async function cancel() {
    if (!job) return
    try {
      await api(`/api/jobs/${job.id}/cancel`, { method: 'POST', body: {} })
    } catch (e) {
      setError(errorMessage(e))
    }
  }

  const running = job !== null && (job.state === 'queued' || job.state === 'running')
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
                    to={`/simulation/optimizations/${type}/${optimizationId}/results/${r.id}`}
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
