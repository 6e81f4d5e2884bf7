// Sections and levels of the rideable plan: the DP over section ends shared by
// `segmentLevels` and `freeSections`, checked against exhaustive enumeration of every split on
// small profiles (independent: all 2^(K−1) ways to cut K controls, filtered by the minimum length).
import { describe, expect, it } from 'vitest'
import {
  compactTargets,
  freeSections,
  levelSections,
  segmentLevels,
} from '../../src/optimize/sections.ts'
import { rng } from '../random.ts'

/** Every split of K controls into runs ≥ minLength (the whole course if shorter): run ends. */
function splits(length: number[], minLength: number): number[][] {
  const K = length.length
  const out: number[][] = []
  const total = length.reduce((a, b) => a + b, 0)
  for (let mask = 0; mask < 1 << (K - 1); mask++) {
    const ends: number[] = []
    for (let k = 0; k < K - 1; k++) if (mask & (1 << k)) ends.push(k + 1)
    ends.push(K)
    let a = 0
    let ok = true
    for (const e of ends) {
      let len = 0
      for (let k = a; k < e; k++) len += length[k]!
      if (len < minLength - 1e-9 && !(ends.length === 1 && total < minLength)) ok = false
      a = e
    }
    if (ok) out.push(ends)
  }
  return out
}

/** Σ time·(power − level)² of a section [a, e) at a level. */
function dev(power: number[], time: number[], a: number, e: number, level: number): number {
  let c = 0
  for (let k = a; k < e; k++) c += time[k]! * (power[k]! - level) ** 2
  return c
}

function mean(power: number[], time: number[], a: number, e: number): number {
  let s = 0
  let t = 0
  for (let k = a; k < e; k++) {
    s += power[k]! * time[k]!
    t += time[k]!
  }
  return s / t
}

/** The least total cost of a section, `cost(start, end)`, over every legal split into ≥ 200 m. */
function bestSplit(length: number[], cost: (q: number, e: number) => number): number {
  let best = Infinity
  for (const s of splits(length, 200)) {
    let c = 0
    let q = 0
    for (const e of s) {
      c += cost(q, e)
      q = e
    }
    best = Math.min(best, c)
  }
  return best
}

/** Cost of an assignment of controls to powers (each run of equal level one section). */
function runsOf(out: Int32Array): number[] {
  const ends: number[] = []
  for (let k = 1; k <= out.length; k++) if (k === out.length || out[k] !== out[k - 1]) ends.push(k)
  return ends
}

describe('sections of the rideable plan (DP over section ends)', () => {
  const random = rng(15)
  const cases = Array.from({ length: 12 }, () => {
    const K = 6 + Math.floor(random() * 6)
    const power = Array.from({ length: K }, () => 200 + Math.round(random() * 200))
    const time = Array.from({ length: K }, () => 5 + random() * 40)
    const length = Array.from({ length: K }, () => 50 + Math.round(random() * 150))
    return { power, time, length }
  })

  it('segmentLevels: least deviation from the profile over every legal split and level', () => {
    for (const { power, time, length } of cases) {
      const levels = [220, 280, 330, 390]
      const out = segmentLevels(
        Float64Array.from(power),
        Float64Array.from(time),
        Float64Array.from(length),
        Float64Array.from(levels),
        200,
      )
      let got = 0
      let a = 0
      const ends = runsOf(out)
      for (const e of ends) {
        got += dev(power, time, a, e, levels[out[a]!]!)
        a = e
      }
      const best = bestSplit(length, (q, e) =>
        Math.min(...levels.map((l) => dev(power, time, q, e, l))),
      )
      expect(got).toBeCloseTo(best, 6)
      // every run (adjacent sections at one level merge) is at least 200 m
      a = 0
      for (const e of ends) {
        expect(length.slice(a, e).reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(200)
        a = e
      }
    }
  })

  it('freeSections: sections ≥ minimum that follow the profile as closely as any legal split', () => {
    for (const { power, time, length } of cases) {
      const out = freeSections(
        Float64Array.from(power),
        Float64Array.from(time),
        Float64Array.from(length),
        200,
      )
      const ends = runsOf(out)
      let got = 0
      let a = 0
      for (const e of ends) {
        expect(length.slice(a, e).reduce((x, y) => x + y, 0)).toBeGreaterThanOrEqual(200)
        got += dev(power, time, a, e, mean(power, time, a, e))
        a = e
      }
      const best = bestSplit(length, (q, e) => dev(power, time, q, e, mean(power, time, q, e)))
      // the long stretches are cut again at about 2 × 200 m, which can only lower the cost
      expect(got).toBeLessThanOrEqual(best + 1e-6)
    }
  })

  it('a course shorter than one section is one section', () => {
    const out = freeSections(
      Float64Array.from([300, 400]),
      Float64Array.from([10, 10]),
      Float64Array.from([50, 60]),
      200,
    )
    expect([...out]).toEqual([0, 0])
  })

  it('levelSections: a two-level profile in runs ≥ minimum is read back exactly', () => {
    const power = Float64Array.from([250, 250, 250, 380, 380, 380, 250, 250, 250])
    const time = new Float64Array(9).fill(20)
    const length = new Float64Array(9).fill(100)
    const out = levelSections(power, time, length, 12, 200)
    expect(compactTargets(out)).toBe(2)
    expect([...out]).toEqual([0, 0, 0, 1, 1, 1, 0, 0, 0])
  })
})
