import { describe, expect, it } from 'vitest'
import { initialSections, sectionCourse, sectionsFromJson, sectionsToJson } from './sections.ts'

// 60 segments of 50 m: 1.5 km flat then 1.5 km at 5 %
const segments = Array.from({ length: 60 }, (_, i) => ({
  start: i * 50,
  end: (i + 1) * 50,
  grade: i < 30 ? 0 : 0.05,
}))

describe('course sections on the page', () => {
  it('reads the stored segments as course arrays', () => {
    const c = sectionCourse(segments)
    expect(c.n).toBe(60)
    expect(c.start[0]).toBe(0)
    expect(c.start[60]).toBe(3000)
    expect(c.grade[45]).toBe(0.05)
  })

  it('round-trips sections through the API form', () => {
    const json = [
      { start_m: 0, end_m: 1000, name: 'Start' },
      { start_m: 1000, end_m: 3000 },
    ]
    expect(sectionsFromJson(json)[0]).toEqual({ startM: 0, endM: 1000, name: 'Start' })
    expect(sectionsToJson(sectionsFromJson(json))).toEqual(json)
  })

  it('shows stored sections that cover the course, else automatic ones at the stored level', () => {
    const stored = [
      { start_m: 0, end_m: 700 },
      { start_m: 700, end_m: 3000 },
    ]
    expect(
      initialSections({ segments, settings: { segmentation: 'manual', sections: stored } }),
    ).toEqual({
      sections: [
        { startM: 0, endM: 700 },
        { startM: 700, endM: 3000 },
      ],
      level: 'manual',
      stored: true,
    })
    // sections of a longer (untrimmed) course are not used
    const old = [{ start_m: 0, end_m: 5000 }]
    expect(initialSections({ segments, settings: { sections: old } })).toEqual({
      sections: [
        { startM: 0, endM: 1500 },
        { startM: 1500, endM: 3000 },
      ],
      level: 'medium',
      stored: false,
    })
  })
})
