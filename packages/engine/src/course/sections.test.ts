import { describe, expect, it } from 'vitest'
import { courseFromSegments } from './types.ts'
import {
  autoSections,
  checkSections,
  mergeSections,
  moveSectionEnd,
  splitSection,
  summarizeSections,
  terrainOf,
} from './sections.ts'

// 3 km flat, 4 km at 7 %, 300 m at 2 %, 2 km at −4 %, in 20 m fine segments with a ±0.5 % wobble
const parts: [number, number][] = [
  [3000, 0],
  [4000, 0.07],
  [300, 0.02],
  [2000, -0.04],
]
const course = courseFromSegments(
  parts.flatMap(([len, grade]) =>
    Array.from({ length: len / 20 }, (_, i) => ({
      lengthM: 20,
      grade: grade + (i % 2 ? 0.005 : -0.005),
    })),
  ),
)
const total = course.start[course.n]!

describe('autoSections', () => {
  it('cuts at the terrain changes at the fine level and labels them', () => {
    const fine = autoSections(course, 'fine')
    checkSections(fine, 0, total)
    expect(fine.map((s) => [s.startM, s.endM])).toEqual([
      [0, 3000],
      [3000, 7000],
      [7000, 7300],
      [7300, 9300],
    ])
    expect(summarizeSections(course, fine).map((s) => s.terrain)).toEqual([
      'flat',
      'steep climb',
      'false flat up',
      'descent',
    ])
    expect(summarizeSections(course, fine)[1]!.grade).toBeCloseTo(0.07, 6)
  })

  it('absorbs stretches shorter than the level minimum into the neighbour of closest grade', () => {
    const medium = autoSections(course, 'medium')
    checkSections(medium, 0, total)
    // the 300 m false flat at 2 % joins the 7 % climb (5 points away) rather than the −4 % descent
    expect(medium.map((s) => s.endM)).toEqual([3000, 7300, 9300])
    const coarse = autoSections(course, 'coarse')
    checkSections(coarse, 0, total)
    expect(coarse.every((s) => s.endM - s.startM >= 2000)).toBe(true)
    expect(coarse.length).toBeLessThanOrEqual(medium.length)
  })

  it('gives one section on a short course', () => {
    const short = courseFromSegments([
      { lengthM: 100, grade: 0.05 },
      { lengthM: 100, grade: -0.05 },
    ])
    expect(autoSections(short, 'coarse')).toEqual([{ startM: 0, endM: 200 }])
  })
})

describe('manual edits', () => {
  const base = autoSections(course, 'fine')

  it('split then merge is the identity', () => {
    const split = splitSection(base, 5000)
    checkSections(split, 0, total)
    expect(split).toHaveLength(base.length + 1)
    expect(split[1]).toEqual({ startM: 3000, endM: 5000 })
    expect(split[2]).toEqual({ startM: 5000, endM: 7000 })
    expect(mergeSections(split, 1)).toEqual(base)
  })

  it('moves an end and keeps the sections contiguous', () => {
    const moved = moveSectionEnd(base, 0, 2500)
    checkSections(moved, 0, total)
    expect(moved[0]!.endM).toBe(2500)
    expect(moved[1]!.startM).toBe(2500)
  })

  it('rejects edits that would break the sections with a message naming the value', () => {
    expect(() => splitSection(base, 3000)).toThrow(/3000 m is not strictly inside/)
    expect(() => splitSection(base, 99999)).toThrow(/99999/)
    expect(() => mergeSections(base, base.length - 1)).toThrow(/no next section/)
    expect(() => moveSectionEnd(base, 0, 7000)).toThrow(/between 0 m and 7000 m/)
    expect(() =>
      checkSections(
        [
          { startM: 0, endM: 10 },
          { startM: 12, endM: 20 },
        ],
        0,
        20,
      ),
    ).toThrow(/ends at 10 m but section 2 starts at 12 m/)
  })
})

describe('terrainOf', () => {
  it('classes grades into the seven terrains', () => {
    expect([0.08, 0.04, 0.015, 0, -0.015, -0.04, -0.08].map(terrainOf)).toEqual([
      'steep climb',
      'climb',
      'false flat up',
      'flat',
      'false flat down',
      'descent',
      'steep descent',
    ])
  })
})

describe('section grades over at least 100 m', () => {
  it('a 20 m section on a 30 % blip reads the grade of the 100 m around it; longer ones their own', () => {
    const c = courseFromSegments(
      Array.from({ length: 100 }, (_, i) => ({
        lengthM: 10,
        grade: i === 50 || i === 51 ? 0.3 : 0,
      })),
    )
    const sections = [
      { startM: 0, endM: 500 },
      { startM: 500, endM: 520 },
      { startM: 520, endM: 1000 },
    ]
    const [a, b, d] = summarizeSections(c, sections)
    expect(b!.lengthM).toBe(20)
    expect(b!.grade).toBeCloseTo(0.06, 9) // 6 m of rise over 460–560 m, not 30 %
    expect(a!.grade).toBeCloseTo(0, 9)
    expect(d!.grade).toBeCloseTo(0, 9)
    // a short section at the very start is measured over the first 100 m
    const [first] = summarizeSections(c, [
      { startM: 0, endM: 10 },
      { startM: 10, endM: 1000 },
    ])
    expect(first!.grade).toBeCloseTo(0, 9)
  })
})
