// CP and W′ from maximal efforts: Monod & Scherrer (1965, Ergonomics 8:329), W_lim = W′ + CP·t_lim
// (docs/engine/science.md §3.1), checked against the model's own exhaustion times and against the
// docs/engine/science.md §10 row 18 figure (CP 300 W, W′ 20 kJ: 400 W is held for exactly 200 s).
import { describe, expect, it } from 'vitest'
import {
  criticalPowerFromEfforts,
  EngineInputError,
  simulate,
  courseFromSegments,
} from '../src/index.ts'

// Efforts a rider with CP 300 W and W′ 20 kJ can just hold: P = CP + W′/t.
const effort = (durationS: number) => ({ powerW: 300 + 20000 / durationS, durationS })

describe('criticalPowerFromEfforts (Monod & Scherrer 1965)', () => {
  it('recovers CP 300 W and W′ 20 kJ from a 3-minute and a 12-minute effort', () => {
    const fit = criticalPowerFromEfforts([effort(180), effort(720)])
    expect(fit.cpW).toBeCloseTo(300, 9)
    expect(fit.wPrimeJ).toBeCloseTo(20000, 6)
    expect(fit.maxResidualJ).toBeLessThan(1e-6)
  })

  it('docs/engine/science.md §10 row 18: 400 W with the fitted CP and W′ is held 200 s (TTE = W′/(P − CP))', () => {
    // The 200-second effort the fit predicts is exactly the one that empties W′ in the simulation.
    const fit = criticalPowerFromEfforts([effort(150), effort(600), effort(1200)])
    expect(fit.wPrimeJ / (400 - fit.cpW)).toBeCloseTo(200, 6)
    const course = courseFromSegments(
      Array.from({ length: 400 }, () => ({ lengthM: 25, grade: 0, headingDeg: 0 })),
      0,
    )
    const ride = simulate({
      course,
      rider: {
        massKg: 70,
        bikeMassKg: 8,
        cdaM2: 0.3,
        crr: 0.004,
        drivetrainEfficiency: 0.976,
        cpW: fit.cpW,
        wPrimeJ: fit.wPrimeJ,
      },
      environment: { airDensityKgM3: 1.2 },
      pacing: { type: 'constant', powerW: 400 },
    })
    // 10 km at 400 W takes longer than 200 s: W′ (100 J/s spent) runs out at 200 s.
    expect(ride.timeS).toBeGreaterThan(200)
    expect(ride.wPrimeExhaustedAtS!).toBeCloseTo(200, 0)
  })

  it('fits noisy efforts by least squares and reports the scatter', () => {
    const fit = criticalPowerFromEfforts([
      { powerW: effort(180).powerW + 5, durationS: 180 },
      effort(420),
      { powerW: effort(900).powerW - 3, durationS: 900 },
    ])
    expect(fit.cpW).toBeGreaterThan(294)
    expect(fit.cpW).toBeLessThan(300)
    expect(fit.maxResidualJ).toBeGreaterThan(100)
  })

  it('refuses what the model cannot describe, naming the problem', () => {
    expect(() => criticalPowerFromEfforts([effort(180)])).toThrow(/at least 2/)
    expect(() => criticalPowerFromEfforts([effort(300), effort(300)])).toThrow(
      /different durations/,
    )
    expect(() => criticalPowerFromEfforts([effort(20), effort(600)])).toThrow(
      /efforts\[0\]\.duration_s.*got 20/,
    )
    expect(() =>
      criticalPowerFromEfforts([
        { powerW: 300, durationS: 180 },
        { powerW: 350, durationS: 720 },
      ]),
    ).toThrow(EngineInputError)
    expect(() =>
      criticalPowerFromEfforts([
        { powerW: -1, durationS: 180 },
        { powerW: 350, durationS: 720 },
      ]),
    ).toThrow(/efforts\[0\]\.power_w/)
  })
})
