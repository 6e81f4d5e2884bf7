import { describe, expect, it } from 'vitest'
import {
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
