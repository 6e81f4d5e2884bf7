import { describe, expect, it } from 'vitest'
import { normalQuantile, planAnswer, runScatter, runsNeeded } from './plan.ts'
import { createRandom } from './random.ts'
import type { AeroComparison, AeroConfigurationComparison } from './types.ts'

describe('test planner', () => {
  it('normal quantiles as tabulated (0.8416 at 80 %, 1.9600 at 97.5 %, −2.3263 at 1 %)', () => {
    expect(normalQuantile(0.8)).toBeCloseTo(0.841621, 5)
    expect(normalQuantile(0.975)).toBeCloseTo(1.959964, 5)
    expect(normalQuantile(0.01)).toBeCloseTo(-2.326348, 5)
  })

  it('runs per configuration as the two-sample formula gives (effect size 0.5 → 63, 0.3 → 175)', () => {
    // n = 2·(1.95996 + 0.84162)²/d²: 62.8 → 63 for d = 0.5, 174.4 → 175 for d = 0.3.
    expect(runsNeeded(1, 0.5)).toBe(63)
    expect(runsNeeded(0.01, 0.003)).toBe(175)
    // Halving the scatter quarters the runs.
    expect(runsNeeded(0.005, 0.003)).toBe(44)
  })

  it('with that many runs of each, the 95 % test resolves a true ΔCdA of Δ in ≈ 80 % of seeded sessions', () => {
    const sd = 0.012
    const delta = 0.006
    const n = runsNeeded(sd, delta)
    const rand = createRandom(11)
    const gauss = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand())
    let resolved = 0
    const trials = 2000
    for (let k = 0; k < trials; k++) {
      let a = 0
      let b = 0
      for (let i = 0; i < n; i++) {
        a += 0.25 + sd * gauss()
        b += 0.25 - delta + sd * gauss()
      }
      const d = (a - b) / n
      if (d / (sd * Math.sqrt(2 / n)) > 1.959964) resolved++
    }
    expect(resolved / trials).toBeGreaterThan(0.77)
    expect(resolved / trials).toBeLessThan(0.84)
  })

  it('pools the scatter within configurations; none without repeats', () => {
    const runs = [
      { configuration: 'A', cda: 0.25 },
      { configuration: 'A', cda: 0.27 },
      { configuration: 'B', cda: 0.23 },
      { configuration: 'B', cda: 0.25 },
      { configuration: 'C', cda: 0.3 },
      { configuration: 'A', cda: NaN },
    ]
    // each pair differs by 0.02: within-SS 2·0.0002, 2 degrees of freedom → SD 0.01414
    expect(runScatter(runs)).toBeCloseTo(Math.sqrt(0.0002), 12)
    expect(runScatter([{ configuration: 'A', cda: 0.25 }])).toBeNull()
  })

  it('answers "resolved: B is … faster" or how many more runs of both', () => {
    const cfg = (deltaCda: number, ci: [number, number]): AeroConfigurationComparison => ({
      configuration: 'B',
      runs: [],
      cda: 0.25 + deltaCda,
      deltaCda,
      deltaCdaCi95: ci,
      deltaPercent: 0,
      wattsSaved: 0,
      secondsPer40km: 0,
      verdict: 'no_difference',
      basis: 'runs',
      withheld: [],
      notes: [],
    })
    const comparison = (k: AeroConfigurationComparison) =>
      ({ baseline: 'A', configurations: [k] }) as unknown as AeroComparison
    const runs = [0.25, 0.252, 0.248, 0.244, 0.246, 0.242].map((cda, i) => ({
      configuration: i % 2 ? 'B' : 'A',
      cda,
    }))
    const done = planAnswer(comparison(cfg(-0.006, [-0.008, -0.004])), runs)
    expect(done.answers[0]!.text).toBe('resolved: B is 0.006 ± 0.002 m² faster')
    const open = planAnswer(comparison(cfg(-0.002, [-0.012, 0.008])), runs)
    const a = open.answers[0]!
    expect(a.status).toBe('more_runs')
    expect(open.runSdSource).toBe('session')
    expect(a.moreConfigurationRuns).toBe(open.runsPerConfiguration - 3)
    expect(a.text).toMatch(new RegExp(`^${a.moreConfigurationRuns} more runs of A and of B`))
  })
})
