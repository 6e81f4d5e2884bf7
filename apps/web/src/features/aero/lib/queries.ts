// The reads of the aero area: one `queryOptions` per endpoint, for useQuery anywhere. A session's
// reads are keyed by what they hold and the session's id, so that a write refreshes them by key
// (`sessionReadKeys`).
import { queryOptions } from '@tanstack/react-query'
import type { AeroRun, AeroSession, Device, Page } from '@veloptima/contracts'
import { api } from '../../../lib/api-client.ts'
import { apiRead, retryServerErrors } from '../../../lib/query.ts'
import { aeroApi } from '../api.ts'

const session = (id: string) => `/api/aero-sessions/${encodeURIComponent(id)}`

export const sessionListQuery = () =>
  apiRead(['aero-sessions'], () => api<Page<AeroSession>>('/api/aero-sessions?limit=200'))

export const sessionQuery = (id: string) =>
  apiRead(['aero-session', id], () => api<AeroSession>(session(id)))

export const sessionRunsQuery = (id: string) =>
  apiRead(['aero-runs', id], () => api<Page<AeroRun>>(`${session(id)}/runs?limit=200`))

export const sessionFilesQuery = (id: string) =>
  apiRead(['aero-files', id], () => aeroApi.files(id))

/** The session's analysis versions, read every second while one is queued or running. */
export const sessionVersionsQuery = (id: string) =>
  queryOptions({
    queryKey: ['aero-versions', id],
    queryFn: () => aeroApi.versions(id),
    retry: retryServerErrors,
    refetchInterval: (q) =>
      q.state.data?.items.some((v) => v.status === 'queued' || v.status === 'running')
        ? 1000
        : false,
  })

/** The latest succeeded analysis with its run and window blocks. */
export const latestAnalysisQuery = (id: string) =>
  apiRead(['aero-latest', id], () => aeroApi.version(id, 'latest'))

/** What a change to the session's files or runs makes stale. */
export const sessionReadKeys = (id: string) => [
  sessionQuery(id).queryKey,
  sessionVersionsQuery(id).queryKey,
  sessionFilesQuery(id).queryKey,
  sessionRunsQuery(id).queryKey,
]

export const deviceListQuery = () =>
  apiRead(['devices'], () => api<Page<Device>>('/api/devices?limit=200'))

export const deviceQuery = (id: string) =>
  apiRead(['device', id], () => api<Device>(`/api/devices/${encodeURIComponent(id)}`))
