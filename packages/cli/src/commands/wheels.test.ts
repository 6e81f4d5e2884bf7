import { describe, expect, it } from 'vitest'
import { needs } from '../../../../scripts/test-data.ts'
import { itWith } from '../../../../scripts/test-data-vitest.ts'
import { jsonOf, veloptimaWithInput as veloptima } from '../../test/run-cli.ts'

describe('veloptima wheels', () => {
  it('recommends front and rear wheels with the time gained, as snake_case JSON', () => {
    const r = veloptima(['wheels', 'FILE'], {
      rider_mass_kg: 72,
      wind_speed_mps: 4,
      handling: 'medium',
      terrain: 'flat',
    })
    const out = jsonOf(r)
    expect(['30', '45', '60', '80']).toContain(out.front.wheel)
    expect(out.rear.wheel).toBe('disc')
    expect(out.time_gained_s).toBeGreaterThan(0)
    expect(out.baseline_time_s - out.time_s).toBeCloseTo(out.time_gained_s, 0)
    expect(out.front.stability.rating).not.toBe('unstable')
    expect(out.candidates.front).toHaveLength(4)
    expect(out.distance_m).toBe(40000)
  })
  it('takes an actual course as segments (length_m, grade, heading_deg)', () => {
    const segments = Array.from({ length: 10 }, (_, i) => ({
      length_m: 1000,
      grade: i < 5 ? 0.05 : -0.05,
      heading_deg: i < 5 ? 90 : 270,
    }))
    const r = veloptima(['wheels', 'FILE'], {
      rider_mass_kg: 60,
      wind_speed_mps: 2,
      handling: 'high',
      course: { name: 'Hill repeat', segments },
    })
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out.distance_m).toBe(10000)
    expect(out.ascent_m).toBe(250)
    expect(out.course_name).toBe('Hill repeat')
  })
  itWith(
    ['courses/tt-beton-classic.gpx'],
    'reads a real course file (tt-beton-classic.gpx, ≈16 km) named in the input',
    () => {
      const r = veloptima(['wheels', 'FILE'], {
        rider_mass_kg: 75,
        wind_speed_mps: 3,
        handling: 'medium',
        course_file: needs('courses/tt-beton-classic.gpx').path('courses/tt-beton-classic.gpx'),
      })
      const out = jsonOf(r)
      expect(out.course_name).toBe('tt-beton-classic.gpx')
      expect(Math.abs(out.distance_m - 16_000)).toBeLessThan(500)
      expect(out.time_gained_s).toBeGreaterThan(0)
      const missing = veloptima(['wheels', 'FILE'], {
        rider_mass_kg: 75,
        wind_speed_mps: 3,
        handling: 'medium',
        course_file: 'no-such-course.gpx',
      })
      expect(missing.code).toBe(2)
      expect(missing.stderr).toMatch(/course_file: cannot read .*no-such-course\.gpx/)
    },
  )
  it('names a bad segment field in snake_case', () => {
    const r = veloptima(['wheels', 'FILE'], {
      rider_mass_kg: 60,
      wind_speed_mps: 2,
      handling: 'high',
      course: { segments: [{ length_m: 1000, grade: 2 }] },
    })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      /course\.segments\[0\]\.grade: expected a number from -0\.4 to 0\.4, got 2/,
    )
  })
})
