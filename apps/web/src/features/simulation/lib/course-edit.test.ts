import { describe, expect, it } from 'vitest'
import {
  gradeRangeOf,
  setSurface,
  statsOfSegments,
  surfaceLengths,
  trimCourse,
  type EditableSegment,
} from './course-edit.ts'

// 10 segments of 100 m: 5 climbing at 5 %, then 5 descending at −2 %.
const segments: EditableSegment[] = Array.from({ length: 10 }, (_, i) => ({
  start: i * 100,
  end: (i + 1) * 100,
  grade: i < 5 ? 0.05 : -0.02,
  heading: 0,
  radius: null,
  altitude: i < 5 ? i * 5 : 25 - (i - 5) * 2,
}))
const track = {
  lat: [0, 0.001, 0.002, 0.003],
  lon: [0, 0, 0, 0],
  ele: [0, 10, 20, 15],
  distance: [0, 300, 600, 1000],
}

describe('course edits', () => {
  it('computes statistics from the segments', () => {
    expect(statsOfSegments(segments)).toEqual({
      distance: 1000,
      ascent: 25,
      descent: 10,
      max_grade: 0.05,
      min_grade: -0.02,
    })
  })

  it('trims to a stretch, restarting distances at zero, with the track points inside', () => {
    const t = trimCourse(segments, track, 200, 700)
    expect(t.segments.length).toBe(5)
    expect(t.segments[0]!.start).toBe(0)
    expect(t.segments.at(-1)!.end).toBe(500)
    expect(t.stats).toMatchObject({ distance: 500, ascent: 15, descent: 4 })
    expect(t.track!.distance).toEqual([100, 400])
  })

  it('refuses a trim outside the course or too short, naming the range', () => {
    expect(() => trimCourse(segments, null, 500, 2000)).toThrow(
      /0 ≤ start < end ≤ 1\.00 km, got 0\.50–2\.00 km/,
    )
    expect(() => trimCourse(segments, null, 100, 120)).toThrow(/fewer than two segments/)
  })

  it('sets the surface of a stretch and measures road per surface', () => {
    const { segments: s, changed } = setSurface(segments, 0, 300, 'rough')
    expect(changed).toBe(3)
    expect(surfaceLengths(s, 'normal')).toEqual({ smooth: 0, normal: 700, rough: 300 })
    expect(() => setSurface(segments, 300, 100, 'smooth')).toThrow(/must end after it starts/)
  })
})

describe('grades shown over at least 100 m (no "Steepest 19.0 %" from one 10 m segment)', () => {
  // 50 segments of 10 m on the flat, one of them at 30 % (GPS noise).
  const noisy: EditableSegment[] = Array.from({ length: 50 }, (_, i) => ({
    start: i * 10,
    end: (i + 1) * 10,
    grade: i === 20 ? 0.3 : 0,
    heading: 0,
    radius: null,
    altitude: i > 20 ? 3 : 0,
  }))

  it('one steep 10 m segment shows as 3 % over 100 m, not 30 %', () => {
    expect(statsOfSegments(noisy).max_grade).toBeCloseTo(0.03, 9)
  })

  it('matches a plain search over every stretch of at least 100 m', () => {
    let seed = 7
    const r = () => (seed = (seed * 16807) % 2147483647) / 2147483647
    const segs: EditableSegment[] = []
    let x = 0
    for (let i = 0; i < 200; i++) {
      const len = 5 + 30 * r()
      segs.push({
        start: x,
        end: x + len,
        grade: 0.2 * (r() - 0.5),
        heading: 0,
        radius: null,
        altitude: 0,
      })
      x += len
    }
    let hi = -Infinity
    let lo = Infinity
    for (let k = 0; k < segs.length; k++) {
      let rise = 0
      for (let j = k; j < segs.length; j++) {
        rise += segs[j]!.grade * (segs[j]!.end - segs[j]!.start)
        const run = segs[j]!.end - segs[k]!.start
        if (run >= 100) {
          hi = Math.max(hi, rise / run)
          lo = Math.min(lo, rise / run)
          break
        }
      }
    }
    const g = gradeRangeOf(segs, 100)
    expect(g.maxGrade).toBeCloseTo(hi, 12)
    expect(g.minGrade).toBeCloseTo(lo, 12)
  })
})
