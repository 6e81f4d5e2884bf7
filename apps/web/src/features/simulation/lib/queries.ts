// The reads of the simulation area: one `queryOptions` per endpoint, for useQuery anywhere.
// A query key starts with the path's collection (`/api/courses/…` → ['courses', …]): the live
// stream's team-item event invalidates [collection] (lib/live.tsx), which reaches its lists and
// items, and a write invalidates the keys of what it changed.
import { queryOptions } from '@tanstack/react-query'
import type {
  Course,
  CourseForecast,
  CourseSummary,
  JobState,
  Optimization,
  OptimizationResult,
  Page,
  RiderSetup,
} from '@veloptima/contracts'
import { api } from '../../../lib/api-client.ts'
import { retryServerErrors } from '../../../lib/query.ts'

export type OptimizationType = Optimization['type']
export type ResultSummary = Omit<OptimizationResult, 'inputs' | 'result'>

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

/** The key of one item path: `/api/courses/abc` → ['courses', 'abc']. */
export function itemKey(path: string): string[] {
  return path.replace(/^\/api\//, '').split('/')
}

/** GET of one item path, its key the path's segments (so that a write can set or invalidate it). */
export const itemQuery = <T>(path: string) =>
  queryOptions({
    queryKey: itemKey(path),
    queryFn: () => api<T>(path),
    retry: retryServerErrors,
  })

/** Every page of a list, keyed [collection, 'list', filter]. */
const listQuery = <T>(collection: string, filter: Record<string, string> = {}) => {
  const query = new URLSearchParams(filter).toString()
  return queryOptions({
    queryKey: [collection, 'list', filter],
    queryFn: () => listAll<T>(`/api/${collection}${query ? `?${query}` : ''}`),
    retry: retryServerErrors,
  })
}

export const courseListQuery = () => listQuery<CourseSummary>('courses')
export const courseQuery = (id: string) => itemQuery<Course>(`/api/courses/${id}`)

export const riderSetupListQuery = () => listQuery<RiderSetup>('rider-setups')
export const riderSetupQuery = (id: string) => itemQuery<RiderSetup>(`/api/rider-setups/${id}`)

export const optimizationListQuery = (type: OptimizationType | null) =>
  listQuery<Optimization>('optimizations', type ? { type } : {})
export const optimizationQuery = (id: string) => itemQuery<Optimization>(`/api/optimizations/${id}`)

/** The result versions of one optimization (without their inputs and results). */
export const optimizationResultsQuery = (optimizationId: string) =>
  queryOptions({
    queryKey: ['optimizations', optimizationId, 'results'],
    queryFn: () => listAll<ResultSummary>(`/api/optimizations/${optimizationId}/results`),
    retry: retryServerErrors,
  })
export const optimizationResultQuery = (id: string) =>
  itemQuery<OptimizationResult>(`/api/optimization-results/${id}`)

/** The race-day forecast along a course for an event start (ISO time). */
export const courseForecastQuery = (courseId: string, start: string) =>
  queryOptions({
    queryKey: ['weather', 'course', courseId, { start }],
    queryFn: () =>
      api<CourseForecast>(`/api/weather/course/${courseId}?start=${encodeURIComponent(start)}`),
    retry: retryServerErrors,
  })

/** A background job's state (GET /api/jobs/:id). */
export const jobQuery = (jobId: string) => itemQuery<JobState>(`/api/jobs/${jobId}`)
