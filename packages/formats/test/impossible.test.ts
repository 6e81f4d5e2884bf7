// Impossible courses are refused: coordinates outside their ranges, elevations
// outside −500…9,000 m, jumps faster than a bicycle between timestamped points, non-finite values
// and stretches steeper than any road, each as an ImportError naming the file, the point and the
// value; and seeded mutated copies of the real files never crash and never become impossible courses.
import { describe, expect, it } from 'vitest'
import { importCourse, ImportError } from '../src/index.ts'
import { FAST_FUZZ_FILES, fuzz, mutant } from './fuzz-mutations.ts'
import { needs } from '../../../scripts/test-data.ts'

const real = needs(...FAST_FUZZ_FILES.map((f) => f.path))

const text = (s: string): Uint8Array => new TextEncoder().encode(s)

interface Pt {
  lat: number | string
  lon: number | string
  ele: number | string
  time?: string
}

/** 60 points 22 m apart going north from 45° N 6° E, climbing 1 m each, 4 s apart. */
function line(edit: (p: Pt, i: number) => void = () => undefined, timed = true): Pt[] {
  return Array.from({ length: 60 }, (_, i) => {
    const p: Pt = { lat: 45 + i * 0.0002, lon: 6, ele: 100 + i }
    if (timed) p.time = new Date(Date.UTC(2024, 4, 1, 10) + i * 4000).toISOString()
    edit(p, i)
    return p
  })
}

function gpx(pts: Pt[]): Uint8Array {
  return text(
    '<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>' +
      pts
        .map(
          (p) =>
            `<trkpt lat="${p.lat}" lon="${p.lon}"><ele>${p.ele}</ele>${p.time ? `<time>${p.time}</time>` : ''}</trkpt>`,
        )
        .join('') +
      '</trkseg></trk></gpx>',
  )
}

function refusal(bytes: Uint8Array, name: string): ImportError {
  try {
    importCourse(bytes, name)
  } catch (e) {
    expect(e).toBeInstanceOf(ImportError)
    return e as ImportError
  }
  throw new Error(`${name}: expected an ImportError, got a course`)
}

describe('impossible values → ImportError naming the file, the point and the value', () => {
  it('elevation of 1,000,000 m (random ±1e6 elevations must not become courses)', () => {
    const e = refusal(gpx(line((p, i) => i === 17 && (p.ele = 1e6))), 'ele.gpx')
    expect(e.code).toBe('invalid_elevation')
    expect(e.message).toBe('ele.gpx: point 17: elevation expected -500…9000 m, got 1000000 m')
    expect(refusal(gpx(line((p, i) => i === 3 && (p.ele = -600))), 'low.gpx').code).toBe(
      'invalid_elevation',
    )
  })

  it('latitude 95° and longitude −181° → invalid_coordinates', () => {
    const a = refusal(gpx(line((p, i) => i === 5 && (p.lat = 95))), 'lat.gpx')
    expect(a.code).toBe('invalid_coordinates')
    expect(a.message).toBe('lat.gpx: point 5: latitude expected −90…90°, got 95')
    const b = refusal(gpx(line((p, i) => i === 9 && (p.lon = -181))), 'lon.gpx')
    expect(b.code).toBe('invalid_coordinates')
    expect(b.message).toContain('point 9: longitude')
  })

  it('NaN, Infinity, 1e999 or text where a number belongs → invalid_value (not a missing value)', () => {
    for (const bad of ['NaN', 'Infinity', '-Infinity', '1e999', '12 m']) {
      const e = refusal(gpx(line((p, i) => i === 7 && (p.ele = bad))), 'nan.gpx')
      expect(e.code).toBe('invalid_value')
      expect(e.message).toBe(`nan.gpx: point 7: <ele> expected a number, got "${bad}"`)
    }
    const t = refusal(gpx(line((p, i) => i === 2 && (p.time = 'yesterday'))), 'time.gpx')
    expect(t.code).toBe('invalid_value')
    expect(t.message).toContain('point 2: <time>')
    // JSON: 1e999 parses to Infinity; a string is not a number.
    const pts = line().map((p) => ({ lat: p.lat, lon: p.lon, ele_m: p.ele }))
    const json = JSON.stringify({ points: pts }).replace('"ele_m":103', '"ele_m":1e999')
    const j = refusal(text(json), 'inf.json')
    expect(j.code).toBe('invalid_value')
    expect(j.message).toBe('inf.json: points[3].ele_m: expected a number, got Infinity')
    // …and an empty <ele> is still just missing (filled by interpolation).
    expect(
      importCourse(gpx(line((p, i) => i === 7 && (p.ele = '')))).cleaning.elevationFilled,
    ).toBe(1)
  })

  it('a point 5 km away 4 s later → impossible_speed', () => {
    const e = refusal(gpx(line((p, i) => i === 30 && (p.lat = 45.05))), 'jump.gpx')
    expect(e.code).toBe('impossible_speed')
    expect(e.message).toMatch(
      /^jump\.gpx: point 30: \d+ m from point 29 in 4 s, expected at most 180 km\/h$/,
    )
    // The same jump without timestamps is a (strange) route, not a physical impossibility.
    expect(() =>
      importCourse(gpx(line((p, i) => i === 30 && (p.lat = 45.05), false))),
    ).not.toThrow()
  })

  it('a 600 m plateau 2,000 m above the road (no spike, inside the elevation range) → impossible_grade', () => {
    const e = refusal(gpx(line((p, i) => i >= 20 && i < 47 && (p.ele = 2100 + i))), 'wall.gpx')
    expect(e.code).toBe('impossible_grade')
    expect(e.message).toMatch(/^wall\.gpx: point \d+: elevation [\d.]+ m makes the 100 m from/)
  })

  it('a course longer than 2,000 km → too_long', () => {
    const pts: Pt[] = [
      { lat: 10, lon: 0, ele: 0 },
      { lat: 40, lon: 0, ele: 0 },
    ]
    expect(refusal(gpx(pts), 'far.gpx').code).toBe('too_long')
  })
})

describe.skipIf(real.skip)(
  real.title(
    'fuzzing with the real files (replayable seeds; 2,000 in `npm run bench -- fuzz-import`)',
  ),
  () => {
    it('300 mutated copies: 0 unexpected exceptions, 0 impossible courses accepted', () => {
      const t = fuzz(1, 301, FAST_FUZZ_FILES)
      expect(t.crashes).toEqual([])
      expect(t.impossible).toEqual([])
      // The mutations bite: some copies are refused for impossible values, some still import.
      expect(t.accepted).toBeGreaterThan(10)
      expect(t.refused.invalid_elevation ?? 0).toBeGreaterThan(0)
      expect(t.refused.invalid_value ?? 0).toBeGreaterThan(0)
      expect(t.refused.invalid_coordinates ?? 0).toBeGreaterThan(0)
    })

    it('a seed replays the same copy', () => {
      expect(mutant(42).bytes).toEqual(mutant(42).bytes)
      expect(mutant(42).label).toBe(mutant(42).label)
    })
  },
)
