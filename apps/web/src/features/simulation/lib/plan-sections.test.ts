import { describe, expect, it } from 'vitest'
import { courseSectionsOf, sectionNamesFor, sectionsOfSettings } from './plan-sections.ts'

const sections = [
  { start_m: 0, end_m: 1000, name: 'Start loop' },
  { start_m: 1000, end_m: 2500 },
  { start_m: 2500, end_m: 4000, name: 'Bridge climb' },
]

describe('section names on the plan', () => {
  it('lists the named sections a row overlaps, not those it only touches', () => {
    expect(sectionNamesFor({ start_m: 0, end_m: 1000 }, sections)).toEqual(['Start loop'])
    expect(sectionNamesFor({ start_m: 1000, end_m: 2500 }, sections)).toEqual([])
    expect(sectionNamesFor({ start_m: 500, end_m: 3000 }, sections)).toEqual([
      'Start loop',
      'Bridge climb',
    ])
    expect(sectionNamesFor({ start_m: 0, end_m: 10 }, null)).toEqual([])
  })

  it('reads the sections of a stored settings object (a result’s snapshot)', () => {
    expect(sectionsOfSettings({ surface: 'normal', sections })).toBe(sections)
    expect(sectionsOfSettings({ surface: 'normal' })).toBeNull()
    expect(sectionsOfSettings(null)).toBeNull()
  })

  it('uses the stored sections while they cover the course', () => {
    const segments = [0, 1000, 2000, 3000].map((start) => ({
      start,
      end: start + 1000,
      grade: 0,
    }))
    expect(courseSectionsOf({ segments, settings: { sections } } as never)).toEqual(sections)
  })
})
