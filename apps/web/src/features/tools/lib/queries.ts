// The reads of the tools: one `queryOptions` per endpoint. Keys start with the path's collection
// (`/api/courses/…` → ['courses', …]) so that the live stream's invalidation of a collection
// reaches them; the course forecast shares its key with every other reader of it.
import { queryOptions } from '@tanstack/react-query'
import { retryServerErrors } from '../../../lib/query.ts'
import { courseSegments, listCourses } from '../api/courses.ts'
import { courseForecast, forecastWind } from '../api/weather.ts'

/** The first page of the user's courses, for the wheel tool's optional course. */
export const courseChoicesQuery = () =>
  queryOptions({
    queryKey: ['courses', 'list', { page: 'first' }],
    queryFn: ({ signal }) => listCourses(signal),
    retry: retryServerErrors,
  })

/** A course's name and segments in the engine's form; null when it has no profile yet. */
export const courseSegmentsQuery = (id: string) =>
  queryOptions({
    queryKey: ['courses', id, 'segments'],
    queryFn: ({ signal }) => courseSegments(id, signal),
    retry: retryServerErrors,
  })

/** The forecast along a course for a start (local time at the course), read as one wind. */
export const courseWindQuery = (courseId: string, start: string) =>
  queryOptions({
    queryKey: ['weather', 'course', courseId, { start }],
    queryFn: ({ signal }) => courseForecast(courseId, start, signal),
    select: forecastWind,
    retry: retryServerErrors,
  })
