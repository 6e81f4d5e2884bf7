// Course sections: contiguous stretches of the course (groups of its fine segments) that a pacing
// plan targets. Automatic sectioning cuts where the terrain class changes, then absorbs stretches
// shorter than the level's minimum length into the neighbour of closest grade; the manual edits
// (split, merge with next, move an end) keep the sections contiguous and covering the course.
import type { Course } from './types.ts'

export interface CourseSection {
  startM: number
  endM: number
  /** optional name given by the user */
  name?: string
}

export type SectionLevel = 'coarse' | 'medium' | 'fine'

/**
 * Minimum section length per level (m). Coarse ≈ the climbs and valleys of a stage, medium ≈ the
 * ramps and false flats a rider paces separately, fine ≈ every noticeable change of grade
 * (shorter than 250 m a power change costs more in accelerations than it gains).
 */
export const SECTION_MIN_LENGTH_M: Readonly<Record<SectionLevel, number>> = {
  coarse: 2000,
  medium: 800,
  fine: 250,
}

export type SectionTerrain =
  | 'steep climb'
  | 'climb'
  | 'false flat up'
  | 'flat'
  | 'false flat down'
  | 'descent'
  | 'steep descent'

/** SectionTerrain class of a mean grade (rise/run): ±1 % false flat, ±3 % climb/descent, ±6 % steep. */
export function terrainOf(grade: number): SectionTerrain {
  if (grade >= 0.06) return 'steep climb'
  if (grade >= 0.03) return 'climb'
  if (grade >= 0.01) return 'false flat up'
  if (grade > -0.01) return 'flat'
  if (grade > -0.03) return 'false flat down'
  if (grade > -0.06) return 'descent'
  return 'steep descent'
}

type CourseLike = Pick<Course, 'n' | 'grade' | 'start'>

interface Run {
  first: number // first fine segment
  last: number // last fine segment (inclusive)
  run: number // horizontal length (m)
  rise: number // m
}

const runGrade = (r: Run) => (r.run > 0 ? r.rise / r.run : 0)

function joinRuns(a: Run, b: Run): Run {
  return { first: a.first, last: b.last, run: a.run + b.run, rise: a.rise + b.rise }
}

/** Merges neighbours of the same terrain class. */
function coalesce(runs: Run[]): Run[] {
  const out: Run[] = []
  for (const r of runs) {
    const prev = out[out.length - 1]
    if (prev && terrainOf(runGrade(prev)) === terrainOf(runGrade(r)))
      out[out.length - 1] = joinRuns(prev, r)
    else out.push(r)
  }
  return out
}

/** Automatic sections of a course at a level of detail (see SECTION_MIN_LENGTH_M). */
export function autoSections(course: CourseLike, level: SectionLevel): CourseSection[] {
  const minLength = SECTION_MIN_LENGTH_M[level]
  if (course.n === 0) return []
  let runs: Run[] = []
  for (let i = 0; i < course.n; i++) {
    const len = course.start[i + 1]! - course.start[i]!
    runs.push({ first: i, last: i, run: len, rise: len * course.grade[i]! })
  }
  runs = coalesce(runs)
  // absorb the shortest too-short run into the neighbour of closest grade, until none is left
  for (;;) {
    if (runs.length <= 1) break
    let k = -1
    for (let j = 0; j < runs.length; j++) {
      if (runs[j]!.run < minLength && (k < 0 || runs[j]!.run < runs[k]!.run)) k = j
    }
    if (k < 0) break
    const g = runGrade(runs[k]!)
    const left = k > 0 ? Math.abs(runGrade(runs[k - 1]!) - g) : Infinity
    const right = k < runs.length - 1 ? Math.abs(runGrade(runs[k + 1]!) - g) : Infinity
    const j = left <= right ? k - 1 : k
    runs.splice(j, 2, joinRuns(runs[j]!, runs[j + 1]!))
    runs = coalesce(runs)
  }
  return runs.map((r) => ({ startM: course.start[r.first]!, endM: course.start[r.last + 1]! }))
}

/** Throws unless the sections are contiguous, non-empty and cover [fromM, toM]. */
export function checkSections(sections: readonly CourseSection[], fromM: number, toM: number) {
  const eps = 1e-6
  if (sections.length === 0) throw new Error('Sections: there must be at least one section.')
  if (Math.abs(sections[0]!.startM - fromM) > eps)
    throw new Error(
      `Sections: the first section starts at ${sections[0]!.startM} m, not ${fromM} m.`,
    )
  if (Math.abs(sections[sections.length - 1]!.endM - toM) > eps)
    throw new Error(
      `Sections: the last section ends at ${sections[sections.length - 1]!.endM} m, not ${toM} m.`,
    )
  sections.forEach((s, i) => {
    if (!(s.endM > s.startM))
      throw new Error(`Sections: section ${i + 1} (${s.startM}–${s.endM} m) is empty.`)
    const next = sections[i + 1]
    if (next && Math.abs(next.startM - s.endM) > eps)
      throw new Error(
        `Sections: section ${i + 1} ends at ${s.endM} m but section ${i + 2} starts at ${next.startM} m.`,
      )
  })
}

/** Splits the section containing atM into two (atM strictly inside a section). */
export function splitSection(sections: readonly CourseSection[], atM: number): CourseSection[] {
  const i = sections.findIndex((s) => atM > s.startM && atM < s.endM)
  if (!Number.isFinite(atM) || i < 0)
    throw new Error(`Split: ${atM} m is not strictly inside a section.`)
  const s = sections[i]!
  const first: CourseSection = { ...s, endM: atM }
  const second: CourseSection = { startM: atM, endM: s.endM }
  return [...sections.slice(0, i), first, second, ...sections.slice(i + 1)]
}

/** Merges section `index` with the next one (keeping the first one's name). */
export function mergeSections(sections: readonly CourseSection[], index: number): CourseSection[] {
  if (!Number.isInteger(index) || index < 0 || index >= sections.length - 1)
    throw new Error(`Merge: section ${index + 1} has no next section to merge with.`)
  const merged: CourseSection = { ...sections[index]!, endM: sections[index + 1]!.endM }
  return [...sections.slice(0, index), merged, ...sections.slice(index + 2)]
}

/** Moves the end of section `index` (and the start of the next) to toM. */
export function moveSectionEnd(
  sections: readonly CourseSection[],
  index: number,
  toM: number,
): CourseSection[] {
  if (!Number.isInteger(index) || index < 0 || index >= sections.length - 1)
    throw new Error(`Move: section ${index + 1} is the last one; its end is the end of the course.`)
  const s = sections[index]!
  const next = sections[index + 1]!
  if (!Number.isFinite(toM) || toM <= s.startM || toM >= next.endM)
    throw new Error(
      `Move: the end of section ${index + 1} must lie between ${s.startM} m and ${next.endM} m, not ${toM} m.`,
    )
  const out = sections.slice()
  out[index] = { ...s, endM: toM }
  out[index + 1] = { ...next, startM: toM }
  return out
}

export interface SectionSummary extends CourseSection {
  lengthM: number
  /** mean grade (rise/run) over the section, or over the 100 m around it when it is shorter
   * (SECTION_GRADE_MIN_M: a grade shown to a rider is never one noisy 10 m stretch) */
  grade: number
  terrain: SectionTerrain
}

/** Shortest stretch a section's grade is measured over (m). */
export const SECTION_GRADE_MIN_M = 100

/** Length, mean grade and terrain class of each section on the course. */
export function summarizeSections(
  course: CourseLike,
  sections: readonly CourseSection[],
): SectionSummary[] {
  const total = course.start[course.n]!
  return sections.map((s) => {
    const lengthM = s.endM - s.startM
    // A section shorter than the minimum is measured over the stretch of that length centred on
    // it, moved inside the course.
    let from = s.startM
    let to = s.endM
    if (lengthM < SECTION_GRADE_MIN_M && total > SECTION_GRADE_MIN_M) {
      const mid = 0.5 * (s.startM + s.endM)
      from = Math.min(Math.max(0, mid - SECTION_GRADE_MIN_M / 2), total - SECTION_GRADE_MIN_M)
      to = from + SECTION_GRADE_MIN_M
    }
    let rise = 0
    for (let i = 0; i < course.n; i++) {
      const a = Math.max(course.start[i]!, from)
      const b = Math.min(course.start[i + 1]!, to)
      if (b > a) rise += (b - a) * course.grade[i]!
    }
    const grade = to > from ? rise / (to - from) : 0
    return { ...s, lengthM, grade, terrain: terrainOf(grade) }
  })
}
