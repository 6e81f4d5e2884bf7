// Points off the route's line and courses written as JSON (docs/limits-input.md): a GPS fix 10°
// off is found and left out of the course (its length stays the route's); a hairpin, a dead end
// and a sparse three-point out-and-back are roads, not spikes; a timestamped distance channel
// may not jump; the stored-course checks name the field, the index and what is expected.
import { describe, expect, it } from 'vitest'
import {
  buildCourse,
  CourseError,
  courseConsistencyIssues,
  positionSpikes,
  segmentsIssues,
  statsIssues,
  trackIssues,
} from '../src/index.ts'

/** 200 points 30 m apart going north from 45° N 6° E, climbing 1 m each. */
function line(n = 200) {
  const lat = Array.from({ length: n }, (_, i) => 45 + (i * 30) / 111_132)
  const lon = Array.from({ length: n }, () => 6)
  const ele = Array.from({ length: n }, (_, i) => 100 + i)
  return { lat, lon, ele }
}

describe('position spikes', () => {
  it('a point moved 10° is a spike, left out: the course keeps its 5.97 km (not 1,500 km)', () => {
    for (const at of [0, 1, 100, 198, 199]) {
      const p = line()
      p.lon[at] = p.lon[at]! + 10
      expect(positionSpikes(p.lat, p.lon).spikes.map((s) => s.index)).toEqual([at])
      const built = buildCourse(p)
      expect(built.stats.distanceM).toBeGreaterThan(5900)
      expect(built.stats.distanceM).toBeLessThan(5980)
      expect(built.cleaning.positionSpikes).toHaveLength(1)
      expect(built.cleaning.positionSpikes[0]!.detourM).toBeGreaterThan(700_000)
    }
  })

  it('runs of two and three points, in the middle and at either end', () => {
    for (const [from, run] of [
      [50, 2],
      [120, 3],
      [0, 2],
      [197, 3],
    ] as const) {
      const p = line()
      for (let i = from; i < from + run; i++) p.lat[i] = p.lat[i]! + 1
      const found = positionSpikes(p.lat, p.lon).spikes.map((s) => s.index)
      expect(found).toEqual(Array.from({ length: run }, (_, j) => from + j))
    }
  })

  it('roads are not spikes: a hairpin, a 300 m dead end, a sparse 3-point out-and-back, real spacing', () => {
    const hairpin = line()
    for (let i = 100; i < 200; i++) {
      hairpin.lat[i] = hairpin.lat[199 - i]!
      hairpin.lon[i] = 6.0003
    }
    expect(positionSpikes(hairpin.lat, hairpin.lon).spikes).toEqual([])
    const dead = line()
    dead.lon[100] = 6 + 300 / 78_850 // 300 m east and back
    expect(positionSpikes(dead.lat, dead.lon).spikes).toEqual([])
    // Three points: out 20 km and back; the file's own spacing is 20 km.
    expect(positionSpikes([45, 45.18, 45.0001], [6, 6, 6]).spikes).toEqual([])
  })

  it('more than 5 % of the points off the line is refused, naming the first', () => {
    const p = line()
    for (let i = 10; i < 190; i += 10) p.lon[i] = p.lon[i]! + 5
    expect(() => buildCourse(p)).toThrow(CourseError)
    expect(() => buildCourse(p)).toThrow(/^point 10: 18 of 200 points lie off the route's line/)
  })

  it('a timestamped distance channel that jumps 25 km in 2 s is impossible_speed', () => {
    const p = line()
    const time = p.lat.map((_, i) => 1_700_000_000 + 4 * i)
    const distance = p.lat.map((_, i) => 30 * i)
    distance[120] = 25_000
    try {
      buildCourse({ ...p, time, distance })
      throw new Error('expected a CourseError')
    } catch (e) {
      expect((e as CourseError).code).toBe('impossible_speed')
      expect((e as Error).message).toMatch(/^point 120: 21\d\d\d m from point 119 in 4 s/)
    }
  })
})

describe('stored course checks', () => {
  const built = buildCourse(line())
  const segments = Array.from({ length: built.course.n }, (_, i) => ({
    start: built.course.start[i]!,
    end: built.course.start[i + 1]!,
    grade: built.course.grade[i]!,
    heading: 0,
    radius: null,
    altitude: built.course.altitude[i]!,
  }))
  const track = { ...line(), distance: line().lat.map((_, i) => 30 * i) }

  it('a course built by the engine has no issue', () => {
    expect(trackIssues(track)).toEqual([])
    expect(segmentsIssues(segments)).toEqual([])
    const st = built.stats
    const stats = {
      distance: st.distanceM,
      ascent: st.ascentM,
      descent: st.descentM,
      max_grade: st.maxGrade,
      min_grade: st.minGrade,
    }
    expect(statsIssues(stats)).toEqual([])
    expect(courseConsistencyIssues({ track, segments, stats })).toEqual([])
  })

  it('names the index and what is expected', () => {
    expect(trackIssues({ ...track, lat: track.lat.map((v, i) => (i === 3 ? 1e6 : v)) })).toEqual([
      { path: ['lat', 3], message: 'expected a latitude from −90 to 90°' },
    ])
    const jumped = { ...track, lon: track.lon.map((v, i) => (i === 50 ? v + 10 : v)) }
    expect(trackIssues(jumped)[0]!.path).toEqual(['lat', 50])
    const steep = segments.map((s, i) => (i >= 20 && i < 32 ? { ...s, grade: 0.8 } : s))
    expect(segmentsIssues(steep)[0]!.path).toEqual([expect.any(Number), 'grade'])
    expect(segmentsIssues(steep)[0]!.message).toMatch(
      / steep: grades over 100 m of road stay within ±50 %$/,
    )
    const gap = segments.map((s, i) => (i === 7 ? { ...s, start: s.start + 1 } : s))
    expect(segmentsIssues(gap)[0]!.path).toEqual([7, 'start'])
    expect(
      statsIssues({ distance: 100, ascent: 1e9, descent: 0, max_grade: 0.1, min_grade: 0 }),
    ).toEqual([{ path: ['ascent'], message: "expected 0 m up to the course's distance (100 m)" }])
  })
})
