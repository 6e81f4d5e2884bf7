// Control segments: the optimizer chooses one power per control segment, a run of consecutive
// fine (simulation) segments of similar terrain and wind. A few hundred variables over any course,
// smoother plans, and the same accuracy: power only needs to change where the terrain does.
import type { Course } from '../course/types.ts'
import type { SimModel } from '../sim/model.ts'

export interface ControlOptions {
  /** 'terrain' groups fine segments; 'every' gives each fine segment its own power. */
  grouping: 'terrain' | 'every'
  /** a group ends when its grade departs from the group's first grade by more than this */
  gradeTolerance: number
  /** … or its head-wind component by more than this (m/s) */
  headwindToleranceMps: number
  /** … or it reaches this length (m) */
  maxLengthM: number
  /** a group shorter than this only ends at a grade change larger than 3× the tolerance */
  minLengthM: number
}

export const DEFAULT_CONTROL_OPTIONS: ControlOptions = {
  grouping: 'terrain',
  gradeTolerance: 0.01,
  headwindToleranceMps: 1,
  maxLengthM: 1000,
  minLengthM: 100,
}

export interface Controls {
  count: number
  /** control index of each fine segment */
  of: Int32Array
  /** first fine segment of each control, plus n at the end (count + 1 entries) */
  first: Int32Array
}

export function buildControls(course: Course, model: SimModel, o: ControlOptions): Controls {
  const n = course.n
  const of = new Int32Array(n)
  const firsts: number[] = []
  let k = -1
  let anchorGrade = 0
  let anchorWind = 0
  let anchorStart = 0
  for (let i = 0; i < n; i++) {
    const g = course.grade[i]!
    const w = model.wPar[i]!
    const start = course.start[i]!
    const long = start - anchorStart >= o.minLengthM - 1e-9
    const dg = Math.abs(g - anchorGrade)
    const fresh =
      k < 0 ||
      o.grouping === 'every' ||
      dg > 3 * o.gradeTolerance ||
      (long && (dg > o.gradeTolerance || Math.abs(w - anchorWind) > o.headwindToleranceMps)) ||
      course.start[i + 1]! - anchorStart > o.maxLengthM + 1e-9
    if (fresh) {
      k++
      firsts.push(i)
      anchorGrade = g
      anchorWind = w
      anchorStart = start
    }
    of[i] = k
  }
  const first = new Int32Array(firsts.length + 1)
  first.set(firsts)
  first[firsts.length] = n
  return { count: firsts.length, of, first }
}
