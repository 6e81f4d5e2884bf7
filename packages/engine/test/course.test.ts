// Course building from raw points: geodesy, elevation cleaning, resampling, curvature.
import { describe, expect, it } from 'vitest'
import type { CourseError } from '../src/index.ts'
import { buildCourse, groundDistance, metresPerRadian } from '../src/index.ts'

/** Points every `step` metres along a circle of radius R around (45° N, 6° E). */
function circle(R: number, n: number, ele: (i: number) => number = () => 500) {
  const r = metresPerRadian(45)
  const lat: number[] = []
  const lon: number[] = []
  const e: number[] = []
  for (let i = 0; i < n; i++) {
    const a = (i / n) * Math.PI // half a circle
    lat.push(45 + (((R * Math.sin(a)) / r.north) * 180) / Math.PI)
    lon.push(6 + (((R * (1 - Math.cos(a))) / r.east) * 180) / Math.PI)
    e.push(ele(i))
  }
  return { lat, lon, ele: e }
}

describe('course building', () => {
  it('WGS84 distances: 1° of latitude at 45° N is 111,132 m; 1° of longitude there 78,847 m', () => {
    expect(groundDistance(44.5, 6, 45.5, 6)).toBeCloseTo(111132, -1)
    expect(groundDistance(45, 5.5, 45, 6.5)).toBeCloseTo(78847, -1)
  })

  it('a circular bend of radius 40 m is found as 40 m (±10 %) and a straight line as straight', () => {
    const c = buildCourse(circle(40, 60), { smoothingM: 0 })
    const mid = Math.floor(c.course.n / 2)
    expect(Math.abs(c.course.radius[mid]! / 40 - 1)).toBeLessThan(0.1)
    expect(c.stats.distanceM).toBeCloseTo(Math.PI * 40, -1)
  })

  it('fills missing elevation by interpolation and removes an isolated spike', () => {
    const lat = Array.from({ length: 40 }, (_, i) => 45 + i * 0.0002)
    const lon = lat.map(() => 6)
    const ele = lat.map((_, i) => 100 + i)
    ele[10] = NaN
    ele[11] = NaN
    ele[25] = 400 // a spike 275 m above its neighbours
    const c = buildCourse({ lat, lon, ele }, { smoothingM: 0 })
    expect(c.cleaning.elevationFilled).toBe(2)
    expect(c.cleaning.spikesRemoved).toBe(1)
    expect(c.stats.ascentM).toBeCloseTo(39, 6)
    expect(c.stats.descentM).toBeCloseTo(0, 6)
  })

  it('elevation change while standing still is drift, not climbing', () => {
    // Ride 50 points north, stop (same position, barometer drifts +30 m), ride on level.
    const lat: number[] = []
    const ele: number[] = []
    for (let i = 0; i < 50; i++) {
      lat.push(45 + i * 0.0001)
      ele.push(200)
    }
    for (let k = 1; k <= 30; k++) {
      lat.push(45 + 49 * 0.0001)
      ele.push(200 + k)
    }
    for (let i = 50; i < 100; i++) {
      lat.push(45 + i * 0.0001)
      ele.push(230)
    }
    const c = buildCourse({ lat, lon: lat.map(() => 6), ele })
    expect(c.stats.ascentM).toBeLessThan(0.5)
  })

  it('rejects points that are not a course with a code', () => {
    const codeOf = (f: () => unknown): string => {
      try {
        f()
      } catch (e) {
        return (e as CourseError).code
      }
      return 'none'
    }
    expect(codeOf(() => buildCourse({ lat: [45], lon: [6], ele: [1] }))).toBe('too_few_points')
    expect(codeOf(() => buildCourse({ lat: [NaN, NaN], lon: [NaN, NaN], ele: [1, 2] }))).toBe(
      'no_distance',
    )
    expect(codeOf(() => buildCourse({ lat: [45, 45.01], lon: [6, 6], ele: [NaN, NaN] }))).toBe(
      'no_elevation',
    )
    expect(codeOf(() => buildCourse({ lat: [45, 45], lon: [6, 6], ele: [1, 1] }))).toBe('too_short')
  })
})
