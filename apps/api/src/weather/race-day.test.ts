// Forecast points along a course's track: the start, the finish and evenly between, positions
// interpolated linearly between the track's points (plain arithmetic here).
import { describe, expect, it } from 'vitest'
import { pointsAlong } from './race-day.ts'

describe('pointsAlong', () => {
  it('six points at even distances, positions between the track points', () => {
    const track = { lat: [45, 45.1, 45.1], lon: [6, 6, 6.2], distance: [0, 10_000, 25_000] }
    const p = pointsAlong(track)
    expect(p.map((x) => x.distanceM)).toEqual([0, 5000, 10_000, 15_000, 20_000, 25_000])
    expect(p[1]!.latDeg).toBeCloseTo(45.05, 12)
    expect(p[2]!.latDeg).toBeCloseTo(45.1, 12)
    // 15 km: a third of the way along the second leg (10 → 25 km).
    expect(p[3]!.lonDeg).toBeCloseTo(6 + 0.2 / 3, 12)
    expect(p[5]).toEqual({ latDeg: 45.1, lonDeg: 6.2, distanceM: 25_000 })
  })
})
