// Course statistics shown to people (issues 15 §5, 18 §5): ascent with hysteresis, grades over
// at least 100 m, and the elevation of recorded loops (drift removed, ends closed, file range kept).
import { describe, expect, it } from 'vitest'
import {
  buildCourse,
  climbing,
  courseFromSegments,
  courseStats,
  gradeRange,
  metresPerRadian,
} from '../src/index.ts'
import { rng } from './random.ts'

describe('climbing (hysteresis)', () => {
  it('threshold 0 is the plain sum of rises and falls', () => {
    const r = rng(7)
    const a = Array.from({ length: 500 }, () => 100 + 20 * r())
    let up = 0
    let down = 0
    for (let i = 1; i < a.length; i++) {
      up += Math.max(0, a[i]! - a[i - 1]!)
      down += Math.max(0, a[i - 1]! - a[i]!)
    }
    const c = climbing(a, a.length, 0)
    expect(c.ascentM).toBeCloseTo(up, 9)
    expect(c.descentM).toBeCloseTo(down, 9)
  })

  it('noise of ±1 m on a flat road counts nothing with 3 m; a real 50 m climb still counts 50 m', () => {
    const r = rng(11)
    const flat = Array.from({ length: 2000 }, () => 10 + 2 * (r() - 0.5))
    expect(climbing(flat, flat.length, 3).ascentM).toBeLessThanOrEqual(2)
    const climb = Array.from({ length: 1000 }, (_, i) => 10 + 0.05 * i + 2 * (r() - 0.5))
    const c = climbing(climb, climb.length, 3)
    // every metre between the noisy start and end counts, the end being a turning point
    expect(Math.abs(c.ascentM - (climb.at(-1)! - climb[0]!))).toBeLessThan(4)
  })

  it('ascent − descent = end − start at any threshold (the end is a turning point)', () => {
    const r = rng(5)
    const a = Array.from({ length: 300 }, () => 100 + 30 * r())
    for (const th of [0, 1, 3, 5, 10]) {
      const c = climbing(a, a.length, th)
      expect(c.ascentM - c.descentM).toBeCloseTo(a.at(-1)! - a[0]!, 9)
    }
  })
})

describe('gradeRange (≥ 100 m windows)', () => {
  it('one 10 m segment at 30 % inside a flat road is 3 % over 100 m; a 500 m ramp at 8 % is 8 %', () => {
    const segs = Array.from({ length: 50 }, (_, i) => ({ lengthM: 10, grade: i === 20 ? 0.3 : 0 }))
    const c = courseFromSegments(segs)
    expect(courseStats(c).maxGrade).toBeCloseTo(0.03, 9)
    const ramp = courseFromSegments([
      { lengthM: 500, grade: 0.08 },
      { lengthM: 300, grade: -0.05 },
    ])
    const g = gradeRange(ramp, 100)
    expect(g.maxGrade).toBeCloseTo(0.08, 9)
    expect(g.minGrade).toBeCloseTo(-0.05, 9)
  })

  it('matches a plain search over every window of at least 100 m', () => {
    const r = rng(3)
    const segs = Array.from({ length: 300 }, () => ({
      lengthM: 5 + 20 * r(),
      grade: 0.2 * (r() - 0.5),
    }))
    const c = courseFromSegments(segs)
    let hi = -Infinity
    let lo = Infinity
    for (let k = 0; k < c.n; k++) {
      let j = k + 1
      while (j <= c.n && c.start[j]! - c.start[k]! < 100) j++
      if (j > c.n) break
      const g = (c.altitude[j]! - c.altitude[k]!) / (c.start[j]! - c.start[k]!)
      hi = Math.max(hi, g)
      lo = Math.min(lo, g)
    }
    const g = gradeRange(c, 100)
    expect(g.maxGrade).toBeCloseTo(hi, 12)
    expect(g.minGrade).toBeCloseTo(lo, 12)
  })
})

describe('recorded loops: barometric drift', () => {
  /** A 1 Hz recording around a 2 km circle at 8 m/s over a 10 m hill, with a barometer
   * drifting `drift` metres per hour and a 10 min stop half-way during which it jumps `jump` m. */
  function loop(drift: number, jump: number) {
    const R = 2000 / (2 * Math.PI)
    const r = metresPerRadian(45)
    const lat: number[] = []
    const lon: number[] = []
    const ele: number[] = []
    const time: number[] = []
    let t = 0
    let offset = 0
    const n = Math.round(2000 / 8)
    for (let i = 0; i <= n; i++) {
      const a = (i / n) * 2 * Math.PI
      const push = () => {
        lat.push(45 + ((R * Math.sin(a)) / r.north) * (180 / Math.PI))
        lon.push(6 + ((R * (1 - Math.cos(a))) / r.east) * (180 / Math.PI))
        ele.push(50 + 5 * (1 - Math.cos(a)) + offset + (drift * t) / 3600)
        time.push(t)
      }
      push()
      if (i === n / 2) {
        for (let k = 0; k < 600; k++) {
          t += 1
          offset = (jump * k) / 599
          push()
        }
      }
      t += 1
    }
    return { lat, lon, ele, time }
  }

  it('a loop drifting +20 m/h with a +8 m jump at a stop ends where it started, climbs its 10 m hill', () => {
    const b = buildCourse(loop(20, 8))
    const a = b.course.altitude
    expect(Math.abs(a[b.course.n]! - a[0]!)).toBeLessThan(0.01)
    expect(b.cleaning.driftAtStopsM).toBeCloseTo(8 + (20 * 600) / 3600, 6) // the jump + 10 min of drift
    expect(b.cleaning.loopClosureM).not.toBeNull()
    expect(b.stats.ascentM).toBeGreaterThan(8)
    expect(b.stats.ascentM).toBeLessThan(12)
    const lo = Math.min(...a)
    const hi = Math.max(...a)
    expect(lo).toBeGreaterThanOrEqual(50 - 1e-9) // inside the recorded range
    expect(hi).toBeLessThanOrEqual(Math.max(...loop(20, 8).ele))
  })

  it('a planned loop (no timestamps) is left as it is', () => {
    const { lat, lon, ele } = loop(20, 0)
    const b = buildCourse({ lat, lon, ele })
    expect(b.cleaning.loopClosureM).toBeNull()
    expect(b.stats.ascentThresholdM).toBe(0)
  })
})
