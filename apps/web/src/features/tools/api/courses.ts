import type { CourseSegmentInput } from '@veloptima/engine'
import { api } from '../../../lib/api-client.ts'

/** A course of the user's collection as the list shows it (GET /api/courses). */
export type CourseSummary = { id: string; name: string; distance_m?: number }

export async function listCourses(signal?: AbortSignal): Promise<CourseSummary[]> {
  const page = await api<{ items?: CourseSummary[] }>('/api/courses', signal ? { signal } : {})
  return Array.isArray(page.items) ? page.items.filter((c) => c && typeof c.id === 'string') : []
}

type RawSegment = { length_m?: unknown; grade?: unknown; heading_deg?: unknown }

/**
 * The course's segments for the wheel calculator (GET /api/courses/:id). Returns null when the
 * course has no segment profile the engine can use (the calculator then falls back to terrain).
 */
export async function courseSegments(
  id: string,
  signal?: AbortSignal,
): Promise<{ name: string; segments: CourseSegmentInput[] } | null> {
  const course = await api<{ name?: string; segments?: RawSegment[] }>(
    `/api/courses/${encodeURIComponent(id)}`,
    signal ? { signal } : {},
  )
  const raw = Array.isArray(course.segments) ? course.segments : []
  const segments: CourseSegmentInput[] = []
  for (const s of raw) {
    if (typeof s.length_m !== 'number' || typeof s.grade !== 'number') return null
    const seg: CourseSegmentInput = { lengthM: s.length_m, grade: s.grade }
    if (typeof s.heading_deg === 'number') seg.headingDeg = s.heading_deg
    segments.push(seg)
  }
  return segments.length > 0 ? { name: course.name ?? 'Course', segments } : null
}
