// The course's sections next to a pacing plan: which named sections a plan row covers, and the
// sections the wind stretches can be filled from; the plan's targets as the race sheet lists them.
import { createContext } from 'react'
import type { Course } from './api.ts'
import type { PlanSection } from './run-output.ts'
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

/** One row of the race sheet: a target power and where it applies. */
export type PlanTargetRow = {
  /** "A", "B", … in the order the targets first come along the course */
  key: string
  power_w: number
  /** the terrain label covering most of the target's length */
  label: string
  /** where it applies, in course order, adjacent sections merged (m) */
  ranges: { start_m: number; end_m: number }[]
  /** the sum of its sections' times in the plan's simulation (s) */
  duration_s: number
}

/**
 * The plan's targets, one row each, as the exports write them (packages/formats/src/export/
 * targets.ts; a test holds the two to each other): sections grouped by their target (by rounded
 * power for older results whose sections carry none).
 */
export function planTargets(rows: readonly PlanSection[]): PlanTargetRow[] {
  const byTarget = rows.every((r) => r.target !== undefined)
  const groups = new Map<number, PlanSection[]>()
  for (const r of rows) {
    const g = byTarget ? r.target! : Math.round(r.power_w)
    groups.set(g, [...(groups.get(g) ?? []), r])
  }
  return [...groups.values()].map((mine, k) => {
    const ranges: PlanTargetRow['ranges'] = []
    const byLabel = new Map<string, number>()
    for (const r of mine) {
      const last = ranges.at(-1)
      if (last && Math.abs(last.end_m - r.start_m) < 1e-6) last.end_m = r.end_m
      else ranges.push({ start_m: r.start_m, end_m: r.end_m })
      byLabel.set(r.label, (byLabel.get(r.label) ?? 0) + r.end_m - r.start_m)
    }
    return {
      key: k < 26 ? String.fromCharCode(65 + k) : String(k + 1),
      power_w: mine[0]!.power_w,
      label: [...byLabel].reduce((a, b) => (b[1] > a[1] ? b : a))[0],
      ranges,
      duration_s: mine.reduce((sum, r) => sum + r.duration_s, 0),
    }
  })
}

/** "0.0–2.4, 5.1–6.0" (one decimal, in the display unit `toUnit` converts metres to). */
export const formatRanges = (
  ranges: readonly { start_m: number; end_m: number }[],
  toUnit: (m: number) => number,
) => ranges.map((r) => `${toUnit(r.start_m).toFixed(1)}–${toUnit(r.end_m).toFixed(1)}`).join(', ')

/** The rider's CP for the plan shown (W), when known: targets read as a share of it. */
export const PlanCpContext = createContext<number | null>(null)
