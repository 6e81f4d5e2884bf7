// Course sections on the course page: the stored segments as the engine's course arrays, and the
// sections between the engine's form (metres, camelCase) and the API's settings.sections.
import {
  autoSections,
  checkSections,
  type CourseSection,
  type SectionLevel,
} from '@veloptima/engine'
import type { Course } from './api.ts'

type StoredSegment = { start: number; end: number; grade: number }

/** The stored segments as the arrays autoSections / summarizeSections read. */
export function sectionCourse(segments: readonly StoredSegment[]) {
  const start = new Float64Array(segments.length + 1)
  segments.forEach((s, i) => (start[i] = s.start))
  start[segments.length] = segments.at(-1)?.end ?? 0
  return {
    n: segments.length,
    start,
    grade: Float64Array.from(segments, (s) => s.grade),
  }
}

export type SectionsJson = NonNullable<Course['settings']['sections']>

export const sectionsFromJson = (json: SectionsJson): CourseSection[] =>
  json.map((s) => ({ startM: s.start_m, endM: s.end_m, ...(s.name ? { name: s.name } : {}) }))

export const sectionsToJson = (sections: readonly CourseSection[]): SectionsJson =>
  sections.map((s) => ({ start_m: s.startM, end_m: s.endM, ...(s.name ? { name: s.name } : {}) }))

/**
 * The sections to show: the stored ones when they still cover the course (a trim changes its
 * length), otherwise the automatic ones at the stored level (medium when none).
 */
export function initialSections(course: {
  segments: readonly StoredSegment[]
  settings: Pick<Course['settings'], 'sections' | 'segmentation'>
}): {
  sections: CourseSection[]
  level: SectionLevel | 'manual'
  stored: boolean
} {
  const c = sectionCourse(course.segments)
  const stored = course.settings.sections
  if (stored && c.n > 0) {
    const sections = sectionsFromJson(stored)
    try {
      checkSections(sections, c.start[0]!, c.start[c.n]!)
      return { sections, level: course.settings.segmentation ?? 'manual', stored: true }
    } catch {
      // stored sections of an earlier version of the course: start again from automatic ones
    }
  }
  const saved = course.settings.segmentation
  const level: SectionLevel = saved && saved !== 'manual' ? saved : 'medium'
  return { sections: c.n > 0 ? autoSections(c, level) : [], level, stored: false }
}
