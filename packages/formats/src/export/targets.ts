// The plan as a rider reads it on a race sheet: one row per target power, where it applies (its
// sections, adjacent ones merged into one range) and the time ridden at it. The web's sheet
// (apps/web/src/features/simulation/lib/plan-sections.ts) shows the same rows; a test holds the two
// to each other.
import type { ExportSection } from './types.ts'

export type ExportTarget = {
  /** "A", "B", … in the order the targets first come along the course */
  key: string
  powerW: number
  /** the section label covering most of the target's length (e.g. "climb") */
  label: string
  /** where it applies, in course order, adjacent sections merged */
  ranges: { startM: number; endM: number }[]
  /** time ridden at it: the sum of its sections' times (0 when the sections carry none) */
  durationS: number
  /** indices of its sections in the plan */
  sections: number[]
}

/** "A" … "Z", then "27", "28" … (a plan has at most 20 targets). */
export const targetKey = (k: number) => (k < 26 ? String.fromCharCode(65 + k) : String(k + 1))

/**
 * The plan's targets. Sections are grouped by their `target`; a plan whose sections carry none
 * (older stored results) is grouped by rounded power, which is what a rider reads on it.
 */
export function planTargets(sections: readonly ExportSection[]): ExportTarget[] {
  const byTarget = sections.every((s) => s.target !== undefined)
  const groups = new Map<number, number[]>()
  sections.forEach((s, i) => {
    const g = byTarget ? s.target! : Math.round(s.powerW)
    groups.set(g, [...(groups.get(g) ?? []), i])
  })
  // Map keeps insertion order: the order of first appearance along the course.
  return [...groups.values()].map((indices, k) => {
    const ranges: ExportTarget['ranges'] = []
    const byLabel = new Map<string, number>()
    let durationS = 0
    for (const i of indices) {
      const s = sections[i]!
      const last = ranges.at(-1)
      if (last && Math.abs(last.endM - s.startM) < 1e-6) last.endM = s.endM
      else ranges.push({ startM: s.startM, endM: s.endM })
      const label = s.label ?? ''
      byLabel.set(label, (byLabel.get(label) ?? 0) + s.endM - s.startM)
      durationS += s.durationS ?? 0
    }
    const label = [...byLabel].reduce((a, b) => (b[1] > a[1] ? b : a))[0]
    return {
      key: targetKey(k),
      powerW: sections[indices[0]!]!.powerW,
      label,
      ranges,
      durationS,
      sections: indices,
    }
  })
}

/** The key of each section's target ("A", "B", …), by section index. */
export function sectionTargetKeys(targets: readonly ExportTarget[], count: number): string[] {
  const keys = new Array<string>(count).fill('')
  for (const t of targets) for (const i of t.sections) keys[i] = t.key
  return keys
}

/** Every place a target starts (each range of each target), in course order. */
export function targetStarts(
  targets: readonly ExportTarget[],
): { target: ExportTarget; range: ExportTarget['ranges'][number] }[] {
  return targets
    .flatMap((target) => target.ranges.map((range) => ({ target, range })))
    .sort((a, b) => a.range.startM - b.range.startM)
}
