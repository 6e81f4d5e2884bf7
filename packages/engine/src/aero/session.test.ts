import { describe, expect, it } from 'vitest'
import { analyzeAero } from './analyze.ts'
import { createRandom } from './random.ts'
import { syntheticSession } from './synthetic-ride.ts'

// The issue a tester brings: is X 0.005 m² faster than B? Sessions of 6–10 bracketed out-and-back
// runs ridden through the Martin model (synthetic-ride.ts) with wind, braking at the turns and
// 0.5 m of elevation noise; the truth is known, so the analysis is checked against it.
const DELTA = -0.005
const SEEDS = 200
const TRUE_CRR = 0.004

interface Tally {
  cover: number
  narrow: number
  crrClose: number
  crrCovered: number
  worst: number
}

/**
 * Every seeded session analysed; `stated`: the wind as a forecast would state it (speed within
 * ±20 %, direction within ±20° of the truth), else none.
 */
function tally(stated: boolean): Tally {
  const t: Tally = { cover: 0, narrow: 0, crrClose: 0, crrCovered: 0, worst: 0 }
  for (let seed = 1; seed <= SEEDS; seed++) {
    const { ride, runs, wind } = syntheticSession(seed, DELTA)
    const r = createRandom(77 + seed)
    const statedWind = stated
      ? { speedMps: wind.speedMps * (0.8 + 0.4 * r()), fromDeg: wind.fromDeg + 40 * (r() - 0.5) }
      : undefined
    const a = analyzeAero(ride.samples, {
      massKg: 80,
      airDensity: 1.2,
      runs,
      baseline: 'B',
      ...(statedWind ? { statedWind } : {}),
    })
    const x = a.comparison!.configurations.find((c) => c.configuration === 'X')!
    expect(x.basis).toBe('session_fit')
    expect(x.interval).toBe('repeats')
    const [lo, hi] = x.deltaCdaCi95
    t.worst = Math.max(t.worst, Math.abs(x.deltaCda - DELTA))
    if (lo <= DELTA && DELTA <= hi) t.cover++
    if (hi - lo <= 0.005) t.narrow++
    if (Math.abs(a.crr - TRUE_CRR) <= 0.0005) t.crrClose++
    const [cLo, cHi] = a.runs[0]!.crrCi95
    if (cLo <= TRUE_CRR && TRUE_CRR <= cHi) t.crrCovered++
  }
  return t
}

describe('a bracketed A/B session analysed as a whole', () => {
  it('ΔCdA within ±0.002 m² of the truth in every session, its 95 % interval ≤ 0.005 m² wide in every session and covering the truth in ≥ 90 %; without a stated wind Crr reads the crosswind, and its interval allows for it', () => {
    const t = tally(false)
    expect(t.worst).toBeLessThanOrEqual(0.002)
    expect(t.narrow).toBe(SEEDS)
    expect(t.cover / SEEDS).toBeGreaterThanOrEqual(0.9)
    expect(t.crrClose / SEEDS).toBeGreaterThanOrEqual(0.9)
    expect(t.crrCovered / SEEDS).toBeGreaterThanOrEqual(0.9)
  }, 120_000)

  it('with the wind stated as a forecast would (±20 %, ±20°), Crr within ±0.0005 of the truth in every session and its interval covering it in ≥ 90 %', () => {
    const t = tally(true)
    expect(t.crrClose).toBe(SEEDS)
    expect(t.crrCovered / SEEDS).toBeGreaterThanOrEqual(0.9)
    expect(t.narrow).toBe(SEEDS)
    expect(t.cover / SEEDS).toBeGreaterThanOrEqual(0.9)
  }, 120_000)
})

describe('a tyre test: the configurations on other tyres, analysed as a whole', () => {
  it('each tyre its own Crr: the difference within ±0.0005 of the truth in every session and its interval covering it in ≥ 90 %; the ΔCdA interval still covers the truth (no CdA difference) in ≥ 90 %', () => {
    const seeds = 40
    const deltaCrr = 0.001
    let covered = 0
    let cdaCovered = 0
    let worst = 0
    for (let seed = 1; seed <= seeds; seed++) {
      const { ride, runs } = syntheticSession(seed, 0, deltaCrr)
      const onTyres = runs.map((r) => ({
        ...r,
        tyre: r.configuration === 'B' ? 'supple' : 'puncture-proof',
      }))
      const a = analyzeAero(ride.samples, {
        massKg: 80,
        airDensity: 1.2,
        runs: onTyres,
        baseline: 'B',
      })
      expect(a.crrByTyre.map((t) => t.tyre)).toEqual(['supple', 'puncture-proof'])
      const t = a.crrByTyre[1]!
      worst = Math.max(worst, Math.abs(t.deltaCrr - deltaCrr))
      if (t.deltaCrrCi95[0] <= deltaCrr && deltaCrr <= t.deltaCrrCi95[1]) covered++
      // Each run reports its own tyres' Crr.
      const x = a.runs.find((r) => r.configuration === 'X')!
      expect(x.crr).toBeCloseTo(t.crr, 12)
      // Other tyres share no Crr: the interval is the session jackknife's.
      expect(a.comparison!.configurations[0]!.interval).toBe('session_jackknife')
      const [lo, hi] = a.comparison!.configurations[0]!.deltaCdaCi95
      if (lo <= 0 && 0 <= hi) cdaCovered++
    }
    expect(worst).toBeLessThanOrEqual(0.0005)
    expect(covered / seeds).toBeGreaterThanOrEqual(0.9)
    expect(cdaCovered / seeds).toBeGreaterThanOrEqual(0.9)
  }, 120_000)
})
