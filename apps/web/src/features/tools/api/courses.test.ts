import { describe, expect, it } from 'vitest'
import { toEngineSegments } from './courses.ts'

const seg = (start: number, end: number, heading: number) => ({
  start,
  end,
  grade: 0.02,
  heading,
  radius: null,
  altitude: 0,
})

describe('course segments for the wheel calculator', () => {
  it('lengths from start/end, headings in degrees (as the API writes them)', () => {
    expect(toEngineSegments([seg(0, 100, 90), seg(100, 250, 270)])).toEqual([
      { lengthM: 100, grade: 0.02, headingDeg: 90 },
      { lengthM: 150, grade: 0.02, headingDeg: 270 },
    ])
  })
  it('empty segments are dropped', () => {
    const out = toEngineSegments([seg(0, 100, 0), seg(100, 100, 1), seg(100, 200, 180)])
    expect(out.map((s) => s.headingDeg)).toEqual([0, 180])
  })
})
