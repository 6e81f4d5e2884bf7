import { describe, expect, it } from 'vitest'
import { anthropometricCda, estimatePositions } from './cda.ts'

// docs/engine/science.md §10 row 15, scheibo/calc calc_test.go: h 1.75 m, m 69 kg → drops 0.3653,
// aero 0.2284; h 1.60 m, m 53 kg → drops 0.3295, aero 0.1982 (tolerance 0.2 %).
describe('anthropometric CdA (scheibo/calc DropsA / AeroA)', () => {
  it.each([
    [1.75, 69, 'drops', 0.3653],
    [1.75, 69, 'aero', 0.2284],
    [1.6, 53, 'drops', 0.3295],
    [1.6, 53, 'aero', 0.1982],
  ] as const)('%s m, %s kg, %s → %s m²', (h, m, position, expected) => {
    expect(Math.abs(anthropometricCda(h, m, position) / expected - 1)).toBeLessThan(0.002)
  })

  it('refuses out-of-range inputs instead of extrapolating', () => {
    expect(anthropometricCda(17.5, 69, 'drops')).toBeNaN()
    expect(anthropometricCda(1.75, -69, 'aero')).toBeNaN()
  })

  it('gives a TT bike its aero position first and a road bike a lower drops than hoods', () => {
    const tt = estimatePositions('time_trial', 1.75, 69)
    expect(tt[0]!.cda).toBeLessThan(tt[1]!.cda)
    const road = estimatePositions('road_race', 1.75, 69)
    expect(road[0]!.cda).toBeLessThan(road[1]!.cda)
  })
})
