// Elevation of recorded rides and honest grades, on the real-world files (scripts/test-data.ts;
// skipped with the reason when absent): hysteresis ascent, loops closed, altitudes inside the file's own range, planned
// routes unchanged. Independent truth: the files' own altitudes and totals, searched plainly here.
import { groundDistance } from '@veloptima/engine'
import { describe, expect } from 'vitest'
import { importCourse } from '../src/index.ts'
import type { RawTrack } from '../src/index.ts'
import { needs } from '../../../scripts/test-data.ts'
import { itWith } from '../../../scripts/test-data-vitest.ts'

const load = (p: string) => importCourse(needs(p).read(p), p)

/** Plain hysteresis over the file's own altitudes (the reference moves once a change ≥ th). */
function rawAscent(track: RawTrack, th: number): number {
  let up = 0
  let ref = NaN
  for (const e of track.ele) {
    if (!Number.isFinite(e)) continue
    if (Number.isNaN(ref)) {
      ref = e
    } else if (e - ref >= th) {
      up += e - ref
      ref = e
    } else if (ref - e >= th) {
      ref = e
    }
  }
  return up
}

function range(a: ArrayLike<number>): [number, number] {
  let lo = Infinity
  let hi = -Infinity
  for (let i = 0; i < a.length; i++) {
    if (!Number.isFinite(a[i]!)) continue
    lo = Math.min(lo, a[i]!)
    hi = Math.max(hi, a[i]!)
  }
  return [lo, hi]
}

function plainAscent(a: ArrayLike<number>): number {
  let up = 0
  for (let i = 1; i < a.length; i++) up += Math.max(0, a[i]! - a[i - 1]!)
  return up
}

describe('recorded rides: hysteresis ascent, drift, range', () => {
  itWith(
    ['rides/ironman-multisport-2019.fit'],
    'Ironman bike leg (flat Cozumel): ascent between a 5 m and a 3 m hysteresis on its raw altitudes, not 512 m',
    () => {
      const { stats, track, course } = load('rides/ironman-multisport-2019.fit')
      const hi = rawAscent(track, 3) // 255 m
      const lo = rawAscent(track, 5) // 101 m
      expect(stats.ascentThresholdM).toBe(3)
      expect(stats.ascentM).toBeGreaterThanOrEqual(lo)
      expect(stats.ascentM).toBeLessThanOrEqual(hi)
      // The profile the engine rides is flat too: no stretch of 100 m steeper than 4 %.
      expect(stats.maxGrade).toBeLessThan(0.04)
      expect(stats.minGrade).toBeGreaterThan(-0.04)
      const [fileLo, fileHi] = range(track.ele)
      const [lo2, hi2] = range(course.altitude)
      expect(lo2).toBeGreaterThanOrEqual(fileLo)
      expect(hi2).toBeLessThanOrEqual(fileHi)
    },
  )

  itWith(
    ['rides/elemnt-devfields.fit'],
    'ELEMNT ride (a loop, ends 16 m apart): closes in altitude, stays inside the file’s 7.6–103 m',
    () => {
      const { course, track, stats, cleaning } = load('rides/elemnt-devfields.fit')
      let first = -1
      let last = -1
      for (let i = 0; i < track.lat.length; i++) {
        if (!Number.isFinite(track.lat[i]!)) continue
        if (first < 0) first = i
        last = i
      }
      const gap = groundDistance(
        track.lat[first]!,
        track.lon[first]!,
        track.lat[last]!,
        track.lon[last]!,
      )
      expect(gap).toBeLessThan(20)
      const a = course.altitude
      expect(Math.abs(a[course.n]! - a[0]!)).toBeLessThan(1) // today +100.8 m
      expect(cleaning.loopClosureM).not.toBeNull()
      const [fileLo, fileHi] = range(track.ele)
      const [lo, hi] = range(a)
      expect(lo).toBeGreaterThanOrEqual(fileLo)
      expect(hi).toBeLessThanOrEqual(fileHi)
      expect(cleaning.clampedToFileRangeM).toBeLessThan(2)
      // A loop climbs what it descends; and less than the device's own drift-inflated 185 m.
      expect(Math.abs(stats.ascentM - stats.descentM)).toBeLessThan(1)
      expect(stats.ascentM).toBeLessThan(185)
    },
  )

  itWith(
    ['rides/edge810-vector-power.fit'],
    'Edge 810 ride (a loop, ends 63 m apart, hilly): closes, ascent within 25 % of the device’s 514 m',
    () => {
      const { course, stats } = load('rides/edge810-vector-power.fit')
      expect(Math.abs(course.altitude[course.n]! - course.altitude[0]!)).toBeLessThan(1)
      expect(Math.abs(stats.ascentM / 514 - 1)).toBeLessThan(0.25)
    },
  )
})

describe('planned routes: ascent as the plain sum of rises, grades over 100 m', () => {
  for (const f of [
    'alpe-dhuez.gpx',
    'mont-ventoux-bedoin.gpx',
    'galibier-briancon.gpx',
    'crank-the-kanc.gpx',
    'tt-beton-classic.gpx',
  ]) {
    itWith(
      [`courses/${f}`],
      `${f}: no hysteresis: the plain sum of the profile's rises, within 3 % of the file's raw gain`,
      () => {
        const { stats, track, cleaning, course } = load(`courses/${f}`)
        expect(stats.ascentThresholdM).toBe(0)
        expect(cleaning.loopClosureM).toBeNull()
        expect(stats.ascentM).toBeCloseTo(plainAscent(course.altitude), 6)
        const raw = plainAscent(track.ele)
        expect(Math.abs(stats.ascentM / raw - 1)).toBeLessThan(0.03)
      },
    )
  }

  itWith(
    ['courses/alpe-dhuez.gpx'],
    "l'Alpe d'Huez: steepest 100 m near the file's own steepest 100 m (a plain search), not 19 %",
    () => {
      const { stats, track } = load('courses/alpe-dhuez.gpx')
      // Plain search over the file's points: the steepest pair at least 100 m apart along the road.
      const d = [0]
      for (let i = 1; i < track.lat.length; i++)
        d.push(
          d[i - 1]! +
            groundDistance(track.lat[i - 1]!, track.lon[i - 1]!, track.lat[i]!, track.lon[i]!),
        )
      let steepest = -Infinity
      for (let i = 0; i < d.length; i++) {
        let j = i + 1
        while (j < d.length && d[j]! - d[i]! < 100) j++
        if (j === d.length) break
        steepest = Math.max(steepest, (track.ele[j]! - track.ele[i]!) / (d[j]! - d[i]!))
      }
      expect(stats.gradeWindowM).toBe(100)
      expect(stats.maxGrade).toBeLessThanOrEqual(steepest + 0.005)
      expect(stats.maxGrade).toBeGreaterThan(0.12) // the road's steepest ramps: 13–14 %
      expect(stats.maxGrade).toBeLessThan(0.155)
    },
  )
})
