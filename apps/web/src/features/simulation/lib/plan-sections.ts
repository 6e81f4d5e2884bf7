// The course's sections next to a pacing plan: which named sections a plan row covers, and the
// sections the wind stretches can be filled from.
import type { Course } from './api.ts'
import { initialSections, sectionsToJson, type SectionsJson } from './sections.ts'

export type NamedSection = { start_m: number; end_m: number; name?: string | undefined }

/** The course's stored sections, or the automatic ones the course page would show. */
export function courseSectionsOf(course: Pick<Course, 'segments' | 'settings'>): SectionsJson {
  return sectionsToJson(initialSections(course).sections)
}

/**
 * The names of the named sections a plan row overlaps (by more than 1 m, so that a row starting
 * exactly where a section ends does not list it), in course order.
 */
export function sectionNamesFor(
  row: { start_m: number; end_m: number },
  sections: readonly NamedSection[] | null | undefined,
): string[] {
  if (!sections) return []
  return sections
    .filter((s) => s.name && Math.min(s.end_m, row.end_m) - Math.max(s.start_m, row.start_m) > 1)
    .map((s) => s.name!)
}

/** The sections of a stored course settings object, when they are a list of sections. */
export function sectionsOfSettings(settings: unknown): NamedSection[] | null {
  const s = (settings as { sections?: unknown } | null | undefined)?.sections
  return Array.isArray(s) ? (s as NamedSection[]) : null
}
