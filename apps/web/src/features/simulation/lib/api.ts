// Data access of the simulation area: typed calls on the platform API and a small loading hook.
import { useCallback, useEffect, useState } from 'react'
import type {
  Course,
  CourseSummary,
  Optimization,
  OptimizationResult,
  Page,
  RiderSetup,
} from '@veloptima/contracts'
import { api, ApiError } from '../../../lib/api-client.ts'
import { uploadWithProgress } from '../../../lib/upload.ts'
import { useTeamItemsReload } from '../../../lib/live.tsx'

export type { Course, CourseSummary, Optimization, OptimizationResult, RiderSetup }

export type Loaded<T> = {
  data: T | undefined
  error: ApiError | undefined
  loading: boolean
  reload(): void
  set(data: T): void
}

type Fetched<T> = { key: string; path: string; data?: T; error?: ApiError }

const asApiError = (error: unknown) =>
  error instanceof ApiError ? error : new ApiError('network', String(error), 0, undefined)

/** Loads `load()` for `key` (skipped while null); `loading` until the answer for this key. */
function useLoaded<T>(key: string | null, load: () => Promise<T>): Loaded<T> {
  const [tick, setTick] = useState(0)
  const [state, setState] = useState<Fetched<T> | null>(null)
  const full = key === null ? null : `${key}#${tick}`
  useEffect(() => {
    if (full === null) return
    let live = true
    load()
      .then((data) => live && setState({ key: full, path: key!, data }))
      .catch(
        (error: unknown) => live && setState({ key: full, path: key!, error: asApiError(error) }),
      )
    return () => {
      live = false
    }
    // `full` identifies what `load` fetches
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [full])
  const reload = useCallback(() => setTick((t) => t + 1), [])
  const set = useCallback(
    (data: T) => setState((s) => (s ? { ...s, error: undefined, data } : s)),
    [],
  )
  // The data of this path stays shown while it reloads (no flicker); another path's never does.
  const current = state && state.key === full ? state : null
  return {
    data: state && state.path === key ? state.data : undefined,
    error: current?.error,
    loading: full !== null && !current,
    reload,
    set,
  }
}

/** GETs `path` (skipped while null) and keeps the answer; errors keep the API's message. */
export function useApiData<T>(path: string | null): Loaded<T> {
  return useLoaded<T>(path, () => api<T>(path!))
}

/** Every page of a cursor-paged list (`{items, next_cursor}`), up to `max` items. */
export async function listAll<T>(path: string, max = 1000): Promise<T[]> {
  const items: T[] = []
  let cursor: string | null = null
  do {
    const sep: string = path.includes('?') ? '&' : '?'
    const url: string = `${path}${sep}limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`
    const page: Page<T> = await api<Page<T>>(url)
    items.push(...page.items)
    cursor = page.next_cursor
  } while (cursor && items.length < max)
  return items
}

export function useList<T>(path: string): Loaded<T[]> {
  const loaded = useLoaded<T[]>(path, () => listAll<T>(path))
  useTeamItemsReload(path, loaded.reload)
  return loaded
}

export type ImportedCourse = CourseSummary & {
  segment_count: number
  cleaning: { points_read: number; points_used: number; spikes_removed: number }
  /** What the import repaired, for the user (docs/limits-input.md). */
  warnings?: string[]
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

export type JobState = {
  id: string
  state: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled'
  progress: number
  message: string | null
  result_id?: string
  export_file_id?: string
  error?: { code: string; message: string }
}

export type RunStarted = { job_id: string; result_id: string; version: number; state: string }

/** Opens a stored file (export) through a short-lived signed URL. */
export async function downloadFile(fileId: string) {
  const { url } = await api<{ url: string }>(`/api/files/${fileId}/download-url`)
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
    extras: s.extras,
  }
  return api<RiderSetup>('/api/rider-setups', { method: 'POST', body })
}
