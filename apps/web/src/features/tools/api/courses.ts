import type { Course, CourseSummary } from '@veloptima/contracts'
import type { CourseSegmentInput } from '@veloptima/engine'
import { api } from '../../../lib/api-client.ts'

export type { CourseSummary }

/** The user's courses (first page of GET /api/courses); [] when there are none. */
export async function listCourses(signal?: AbortSignal): Promise<CourseSummary[]> {
  const page = await api<{ items?: CourseSummary[] }>('/api/courses', signal ? { signal } : {})
  return Array.isArray(page.items) ? page.items.filter((c) => c && typeof c.id === 'string') : []
}

/** A course's segments (start/end along the course, heading in degrees) in the engine's form. */
export function toEngineSegments(segments: Course['segments']): CourseSegmentInput[] {
  return segments
    .filter((s) => s.end > s.start)
    .map((s) => ({ lengthM: s.end - s.start, grade: s.grade, headingDeg: s.heading }))
}

/** GET /api/courses/:id → its name and segments; null when it has none yet. */
export async function courseSegments(
  id: string,
  signal?: AbortSignal,
): Promise<{ name: string; segments: CourseSegmentInput[] } | null> {
  const course = await api<Course>(
    `/api/courses/${encodeURIComponent(id)}`,
    signal ? { signal } : {},
  )
  const segments = Array.isArray(course.segments) ? toEngineSegments(course.segments) : []
  return segments.length > 0 ? { name: course.name, segments } : null
}
