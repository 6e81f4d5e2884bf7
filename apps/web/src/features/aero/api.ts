// The aero session's API calls: uploads with progress, analysis versions, runs.
import type {
  AeroAnalysisSettings,
  AeroAnalysisVersion,
  AeroRunResults,
  AeroSourceFile,
} from '@veloptima/contracts'
import { api } from '../../lib/api-client.ts'
import { uploadWithProgress } from '../../lib/upload.ts'
import type { RunParamsJson, RunSeriesJson } from './ve.ts'

export type UploadAnswer = {
  file: { id: string; name: string }
  source: AeroSourceFile
  analysis: { version: number; job_id: string }
}

/** POST a file to the session with upload progress (0–1); the API's error names file and field. */
export async function uploadSessionFile(
  sessionId: string,
  file: File,
  labels: { configuration: string; tyre: string },
  onProgress: (fraction: number) => void,
): Promise<UploadAnswer> {
  const form = new FormData()
  form.append('file', file, file.name)
  if (labels.configuration.trim()) form.append('configuration', labels.configuration.trim())
  if (labels.tyre.trim()) form.append('tyre', labels.tyre.trim())
  return uploadWithProgress<UploadAnswer>(
    `/api/aero-sessions/${encodeURIComponent(sessionId)}/files`,
    form,
    onProgress,
  )
}

export type RunBlock = {
  id: string
  kind: string
  run_id: string | null
  start_time: number | null
  end_time: number | null
  data: {
    name: string
    results: AeroRunResults
    params: RunParamsJson
    series: RunSeriesJson
    track: [number, number][] | null
  }
}

export type WindowBlock = {
  id: string
  run_id: string | null
  data: {
    start_t: number[]
    end_t: number[]
    cda: number[]
    speed_mps: number[]
    power_w: number[]
  }
}

export type VersionAnswer = {
  analysis: AeroAnalysisVersion | null
  runs: RunBlock[]
  windows: WindowBlock[]
}

const base = (id: string) => `/api/aero-sessions/${encodeURIComponent(id)}`

export const aeroApi = {
  files: (id: string) => api<{ items: AeroSourceFile[] }>(`${base(id)}/files`),
  versions: (id: string) => api<{ items: AeroAnalysisVersion[] }>(`${base(id)}/analyses`),
  version: (id: string, v: number | 'latest') => api<VersionAnswer>(`${base(id)}/analyses/${v}`),
  analyse: (id: string, body: AeroAnalysisSettings & { label?: string }) =>
    api<{ version: number; job_id: string }>(`${base(id)}/analyses`, { method: 'POST', body }),
  setBaseline: (runId: string) =>
    api<{ version: number | null }>(`/api/aero-runs/${encodeURIComponent(runId)}/baseline`, {
      method: 'POST',
    }),
}

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}
