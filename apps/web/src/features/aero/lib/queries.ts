// The reads of the aero area: one `queryOptions` per endpoint, for useQuery anywhere. A session's
// reads are keyed by what they hold and the session's id, so that a write refreshes them by key
// (`sessionReadKeys`).
import { queryOptions } from '@tanstack/react-query'
import type { AeroRun, AeroSession, Device, Page } from '@veloptima/contracts'
import { api } from '../../../lib/api-client.ts'
import { mapTileUrl } from '../../../lib/public-config.ts'
import { retryServerErrors } from '../../../lib/query.ts'
import { aeroApi } from '../api.ts'

const session = (id: string) => `/api/aero-sessions/${encodeURIComponent(id)}`

export const sessionListQuery = () =>
  queryOptions({
    queryKey: ['aero-sessions'],
    queryFn: () => api<Page<AeroSession>>('/api/aero-sessions?limit=200'),
    retry: retryServerErrors,
  })

export const sessionQuery = (id: string) =>
  queryOptions({
    queryKey: ['aero-session', id],
    queryFn: () => api<AeroSession>(session(id)),
    retry: retryServerErrors,
  })

export const sessionRunsQuery = (id: string) =>
  queryOptions({
    queryKey: ['aero-runs', id],
    queryFn: () => api<Page<AeroRun>>(`${session(id)}/runs?limit=200`),
    retry: retryServerErrors,
  })

export const sessionFilesQuery = (id: string) =>
  queryOptions({
    queryKey: ['aero-files', id],
    queryFn: () => aeroApi.files(id),
    retry: retryServerErrors,
  })

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
  queryOptions({
    queryKey: ['aero-latest', id],
    queryFn: () => aeroApi.version(id, 'latest'),
    retry: retryServerErrors,
  })

/** What a change to the session's files or runs makes stale. */
export const sessionReadKeys = (id: string) => [
  sessionQuery(id).queryKey,
  sessionVersionsQuery(id).queryKey,
  sessionFilesQuery(id).queryKey,
  sessionRunsQuery(id).queryKey,
]

export const deviceListQuery = () =>
  queryOptions({
    queryKey: ['devices'],
    queryFn: () => api<Page<Device>>('/api/devices?limit=200'),
    retry: retryServerErrors,
  })

export const deviceQuery = (id: string) =>
  queryOptions({
    queryKey: ['device', id],
    queryFn: () => api<Device>(`/api/devices/${encodeURIComponent(id)}`),
    retry: retryServerErrors,
  })

/** The configured map tile URL, null when there is none (read once per page). */
export const mapTilesQuery = () =>
  queryOptions({
    queryKey: ['public-config', 'map-tile-url'],
    queryFn: mapTileUrl,
    staleTime: Infinity,
  })
