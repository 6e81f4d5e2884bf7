import { describe, expect, it } from 'vitest'
import { analyzeAero } from './analyze.ts'
import { compareRuns, type CompareRun } from './compare.ts'
import { syntheticRide } from './synthetic-ride.ts'

/** Steady speed on flat ground from the Martin terms, by bisection written out here. */
function speedAt(
  powerW: number,
  cda: number,
  crr: number,
  m: number,
  rho: number,
  eta: number,
): number {
  let lo = 0
  let hi = 40
  for (let k = 0; k < 200; k++) {
    const v = 0.5 * (lo + hi)
    const need =
      (0.5 * rho * (cda + 0.0044) * v ** 3 + crr * m * 9.80665 * v + v * (0.091 + 0.0087 * v)) / eta
    if (need > powerW) hi = v
    else lo = v
  }
  return 0.5 * (lo + hi)
}

const opts = {
  baseline: 'B',
  rho: 1.2,
  massKg: 80,
  crr: 0.004,
  drivetrainEfficiency: 0.976,
  referenceSpeedMps: 40 / 3.6,
  referencePowerW: 300,
}

describe('compareRuns', () => {
  // Protocol B X X B Y Y B, 10 min apart; a planted drift of +0.012 m²/h on every run.
  const plan: Array<[string, number]> = [
    ['B', 0],
    ['X', -0.015],
    ['X', -0.015],
    ['B', 0],
    ['Y', 0.0005],
    ['Y', 0.0005],
    ['B', 0],
  ]
  const runs: CompareRun[] = plan.map(([configuration, offset], k) => ({
    configuration,
    t: 600 * k,
    cda: 0.25 + offset + (0.012 * 600 * k) / 3600,
    se: 0.001,
    dof: 8,
  }))

  it('recovers a planted linear drift exactly and corrects every run by it', () => {
    const c = compareRuns(runs, opts)!
    expect(c.driftPerHour).toBeCloseTo(0.012, 12)
    expect(c.baselineCda).toBeCloseTo(0.25, 12)
    c.correctedCda.forEach((x, k) => expect(x).toBeCloseTo(0.25 + plan[k]![1], 12))
  })

  it('ΔCdA per configuration with its interval, W saved at 40 km/h (½ρΔCdA·v³/η), s per 40 km at 300 W, verdict only when the interval excludes 0', () => {
    const c = compareRuns(runs, opts)!
    const x = c.configurations.find((k) => k.configuration === 'X')!
    const y = c.configurations.find((k) => k.configuration === 'Y')!
    expect(x.deltaCda).toBeCloseTo(-0.015, 12)
    expect(x.deltaCdaCi95[0]).toBeLessThan(-0.015)
    expect(x.deltaCdaCi95[1]).toBeGreaterThan(-0.015)
    expect(x.deltaCdaCi95[1]).toBeLessThan(0)
    expect(x.verdict).toBe('faster')
    expect(y.verdict).toBe('no_difference')
    const v = 40 / 3.6
    expect(x.wattsSaved).toBeCloseTo((0.5 * 1.2 * 0.015 * v ** 3) / 0.976, 9)
    const tBase = 40000 / speedAt(300, 0.25, 0.004, 80, 1.2, 0.976)
    const tX = 40000 / speedAt(300, 0.235, 0.004, 80, 1.2, 0.976)
    expect(x.secondsPer40km).toBeCloseTo(tBase - tX, 3)
    expect(x.secondsPer40km).toBeGreaterThan(30)
    expect(x.deltaPercent).toBeCloseTo(-6, 9)
  })

  it('widens the interval by the scatter between repeats', () => {
    const scattered = runs.map((r, k) =>
      r.configuration === 'X' ? { ...r, cda: r.cda + (k === 1 ? 0.01 : -0.01) } : r,
    )
    const tight = compareRuns(runs, opts)!.configurations[0]!
    const loose = compareRuns(scattered, opts)!.configurations[0]!
    expect(loose.deltaCdaCi95[1] - loose.deltaCdaCi95[0]).toBeGreaterThan(
      3 * (tight.deltaCdaCi95[1] - tight.deltaCdaCi95[0]),
    )
  })

  it('is null without a baseline run', () => {
    expect(compareRuns(runs, { ...opts, baseline: 'Z' })).toBeNull()
  })
})

describe('analyzeAero comparison on a synthetic session', () => {
  it('recovers a drift planted in the rider’s CdA (+0.012 m²/h) and the configurations’ ΔCdA', () => {
    const configs = ['B', 'X', 'B', 'Y', 'B', 'X', 'B', 'Y', 'B']
    const offset: Record<string, number> = { B: 0, X: -0.02, Y: 0 }
    const base = {
      cda: 0.26,
      crr: 0.004,
      massKg: 80,
      rho: 1.2,
      laps: configs.length,
      lengthM: 2000,
      lapPowerW: [160, 320, 240],
      recordLaps: true,
      powerNoise: 0.01,
      speedNoise: 0.03,
      gpsNoiseM: 1,
      elevationNoiseM: 0.05,
      elevationWhiteM: 0.05,
      seed: 31,
    }
    // Lap times of the ride first, then the drift at each lap's mid-time.
    const first = syntheticRide(base)
    const mids = first.lapStarts.map((a, k) => {
      const b = (first.lapStarts[k + 1] ?? first.samples.t.length) - 1
      return 0.5 * (first.samples.t[a]! + first.samples.t[b]!)
    })
    const lapCda = configs.map((c, k) => 0.26 + offset[c]! + (0.012 * mids[k]!) / 3600)
    const ride = syntheticRide({ ...base, lapCda })
    const runs = configs.map((configuration, lap) => ({ lap, configuration }))
    const a = analyzeAero(ride.samples, { massKg: 80, airDensity: 1.2, runs, baseline: 'B' })
    expect(a.runs.every((r) => r.method === 've')).toBe(true)
    const c = a.comparison!
    expect(Math.abs(c.driftPerHour - 0.012)).toBeLessThan(0.004)
    // The absolute level carries Crr's error (∂CdA/∂Crr ≈ −m·g/(½ρv²) ≈ −15 m² at 9 m/s); ΔCdA does not.
    expect(Math.abs(c.baselineCda - (0.26 + (0.012 * mids[0]!) / 3600))).toBeLessThan(0.005)
    const x = c.configurations.find((k) => k.configuration === 'X')!
    const y = c.configurations.find((k) => k.configuration === 'Y')!
    expect(Math.abs(x.deltaCda + 0.02)).toBeLessThan(0.003)
    expect(x.verdict).toBe('faster')
    expect(y.deltaCdaCi95[0]).toBeLessThan(0)
    expect(y.deltaCdaCi95[1]).toBeGreaterThan(0)
    expect(Math.abs(a.crr - 0.004)).toBeLessThan(0.0005)
  })

  it('ΔCdA intervals cover the planted ΔCdA (−0.015 m²) in ≥ 85 % of 30 seeded sessions with wandering elevation errors', () => {
    const lapCda = [0.25, 0.235, 0.25, 0.25, 0.235, 0.25]
    const configs = ['B', 'X', 'B', 'B', 'X', 'B']
    let cover = 0
    const trials = 30
    for (let seed = 1; seed <= trials; seed++) {
      const ride = syntheticRide({
        cda: 0.25,
        lapCda,
        crr: 0.004,
        massKg: 80,
        rho: 1.2,
        windMps: 3,
        windFromDeg: 240,
        laps: 6,
        lengthM: 1500,
        lapPowerW: [150, 330, 240],
        recordLaps: true,
        powerNoise: 0.015,
        speedNoise: 0.05,
        gpsNoiseM: 1.5,
        elevationNoiseM: 0.3,
        elevationNoiseTauS: 45,
        elevationWhiteM: 0.1,
        seed: 500 + seed,
      })
      const runs = configs.map((configuration, lap) => ({ lap, configuration }))
      const a = analyzeAero(ride.samples, { massKg: 80, airDensity: 1.2, runs, baseline: 'B' })
      const [lo, hi] = a.comparison!.configurations[0]!.deltaCdaCi95
      if (lo <= -0.015 && -0.015 <= hi) cover++
    }
    expect(cover / trials).toBeGreaterThanOrEqual(0.85)
  })
})

describe('compareRuns: drift only between baseline runs, figures only in range', () => {
  const run = (configuration: string, t: number, cda: number, clock = 0): CompareRun => ({
    configuration,
    t,
    cda,
    se: 0.002,
    dof: 8,
    clock,
  })

  it('never extrapolates the drift past the last baseline run, and says so', () => {
    // Two baselines 10 min apart drifting +0.03 m² (0.18 m²/h), then X an hour later.
    const runs = [run('B', 0, 0.25), run('B', 600, 0.28), run('X', 4200, 0.26)]
    const c = compareRuns(runs, opts)!
    const x = c.configurations[0]!
    // Extrapolated, the line would stand at 0.46 and X would look 0.2 m² faster.
    expect(x.deltaCda).toBeCloseTo(0.26 - 0.265, 12)
    expect(x.notes.join(' ')).toMatch(/drift not corrected .*never extrapolated/)
    expect(c.correctedCda[2]).toBe(0.26)
  })

  it('corrects runs between baselines of their own clock only; another clock gets the mean', () => {
    const runs = [
      run('B', 0, 0.25),
      run('X', 300, 0.24),
      run('B', 600, 0.26),
      run('X', 100, 0.23, 1),
    ]
    const c = compareRuns(runs, opts)!
    const x = c.configurations[0]!
    // Run 1 at the line (0.255) → −0.015; run 3 against the mean of all baselines (0.255) → −0.025.
    expect(x.deltaCda).toBeCloseTo((-0.015 - 0.025) / 2, 12)
    expect(x.notes.join(' ')).toMatch(/another day or file clock/)
    expect(x.verdict).not.toBe('withheld')
    // Every run of a configuration on another day: ΔCdA with its interval, but no verdict.
    const apart = compareRuns(
      [run('B', 0, 0.25), run('B', 600, 0.26), run('X', 100, 0.4, 1), run('X', 700, 0.41, 1)],
      opts,
    )!.configurations[0]!
    expect(apart.deltaCda).toBeCloseTo(0.4 - 0.255 + 0.005, 12)
    expect(apart.deltaCdaCi95.every(Number.isFinite)).toBe(true)
    expect(apart.verdict).toBe('withheld')
    expect(apart.withheld.find((w) => w.field === 'verdict')!.reason).toMatch(/another day/)
  })

  it('withholds every figure outside its physical range, with the reason, and never a zero-width interval', () => {
    // A "configuration" at 3 m² (a recovery lap that slipped through) is not a change of kit.
    const absurd = compareRuns([run('B', 0, 0.25), run('X', 600, 3), run('B', 1200, 0.25)], opts)!
    const a = absurd.configurations[0]!
    expect(a.verdict).toBe('withheld')
    for (const f of ['deltaCda', 'wattsSaved', 'secondsPer40km', 'cda'] as const)
      expect(a[f]).toBeNaN()
    expect(a.withheld.map((w) => w.field)).toContain('delta_cda')
    // One baseline, one run, no interval from either: no interval and no verdict, said why.
    const bare = compareRuns(
      [
        { ...run('B', 0, 0.25), se: NaN, dof: 0 },
        { ...run('X', 600, 0.24), se: NaN, dof: 0 },
      ],
      opts,
    )!.configurations[0]!
    expect(bare.deltaCda).toBeCloseTo(-0.01, 12)
    expect(bare.deltaCdaCi95.every(Number.isNaN)).toBe(true)
    expect(bare.verdict).toBe('withheld')
    expect(bare.withheld[0]!.reason).toMatch(/no 95 % interval/)
  })
})
