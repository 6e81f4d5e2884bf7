// Data access of the simulation area: typed calls on the platform API; the reads are the
// `queryOptions` of queries.ts.
import { useQuery, useQueryClient } from '@tanstack/react-query'
import type { DownloadUrl, ImportedCourse, RiderSetup } from '@veloptima/contracts'
import { api, ApiError } from '../../../lib/api-client.ts'
import { uploadWithProgress } from '../../../lib/upload.ts'
import { itemQuery } from './queries.ts'

export type {
  Course,
  CourseSummary,
  ImportedCourse,
  JobState,
  Optimization,
  OptimizationResult,
  RiderSetup,
  RunStarted,
} from '@veloptima/contracts'

export type Loaded<T> = {
  data: T | undefined
  error: ApiError | undefined
  loading: boolean
  reload(): void
  set(data: T): void
}

const asApiError = (error: unknown) =>
  error instanceof ApiError ? error : new ApiError('network', String(error), 0, undefined)

/**
 * GETs the item at `path` (skipped while null) through `itemQuery`, shaped for the pages that
 * read one item: `set` puts a saved item into the cache, `reload` refetches it.
 */
export function useApiData<T>(path: string | null): Loaded<T> {
  const client = useQueryClient()
  const options = itemQuery<T>(path ?? '')
  const query = useQuery({ ...options, enabled: path !== null })
  return {
    data: path === null ? undefined : query.data,
    error: path === null || !query.error ? undefined : asApiError(query.error),
    loading: path !== null && query.isFetching && query.data === undefined,
    reload: () => void query.refetch(),
    set: (data: T) => client.setQueryData(options.queryKey, data),
  }
}

/**
 * POST /api/courses/import as multipart, with upload progress (lib/upload.ts). Rejects with the
 * API's ApiError (e.g. `invalid-course-file` naming the problem).
 */
export async function uploadCourse(
  file: File,
  onProgress: (fraction: number) => void,
  /** A team the caller belongs to; absent or '': the caller. */
  owner?: string,
): Promise<ImportedCourse> {
  const form = new FormData()
  if (owner) form.append('owner', owner)
  form.append('file', file, file.name)
  return uploadWithProgress<ImportedCourse>('/api/courses/import', form, onProgress)
}

/** Opens a stored file (export) through a short-lived signed URL. */
export async function downloadFile(fileId: string) {
  const { url } = await api<DownloadUrl>(`/api/files/${fileId}/download-url`)
  window.location.assign(url)
}

export function errorMessage(error: unknown): string {
  if (error instanceof ApiError) return error.message
  if (error instanceof Error) return error.message
  return String(error)
}

/** PATCH a rider setup with some of its values (the API checks that the caller may change it). */
export function patchRiderSetup(id: string, body: Partial<RiderSetup>): Promise<RiderSetup> {
  return api<RiderSetup>(`/api/rider-setups/${id}`, { method: 'PATCH', body })
}

/**
 * POST a copy of `setup` under a new name with `changes` applied; a team's setup is copied to
 * the same team, a personal one to the caller.
 */
export function copyRiderSetup(
  setup: RiderSetup,
  name: string,
  changes: Partial<RiderSetup>,
): Promise<RiderSetup> {
  const s = { ...setup, ...changes }
  const body = {
    ...(setup.owner_type === 'team' ? { owner: setup.owner } : {}),
    name,
    bike_type: s.bike_type,
    rider_mass: s.rider_mass,
    bike_mass: s.bike_mass,
    extra_mass: s.extra_mass,
    positions: s.positions,
    crr: s.crr,
    drivetrain_efficiency: s.drivetrain_efficiency,
    wheel_inertia: s.wheel_inertia,
    cp: s.cp,
    w_prime: s.w_prime,
    max_power: s.max_power,
    max_lateral_acceleration: s.max_lateral_acceleration,
    durability: s.durability,
    heat_acclimatised: s.heat_acclimatised,
    extras: s.extras,
  }
  return api<RiderSetup>('/api/rider-setups', { method: 'POST', body })
}
