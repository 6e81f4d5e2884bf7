import { describe, expect, it } from 'vitest'
import {
  bertoPsi,
  HOOKLESS_MAX_PA,
  PA_PER_PSI,
  recommendTyrePressure,
  type TyrePressureInput,
} from './tyre-pressure.ts'
import { ToolInputError } from './validate.ts'

const base: TyrePressureInput = {
  riderMassKg: 75,
  bikeMassKg: 9,
  tyreWidthMm: 28,
  widthKind: 'measured',
  tyreType: 'tube',
  surface: 'smooth',
}

describe('Berto 15 % drop fit (science.md §10 row 23, BikeTinker fit via dgabbe/btpress)', () => {
  it('40 kg on 25 mm → 77.0 psi; 45 kg on 28 mm → 72.0 psi (±0.5 psi)', () => {
    expect(Math.abs(bertoPsi(40, 25) - 77.0)).toBeLessThanOrEqual(0.5)
    expect(Math.abs(bertoPsi(45, 28) - 72.0)).toBeLessThanOrEqual(0.5)
  })
  it('§7.1 table: 40 kg on 23 mm 88.8 psi, 50 kg on 32 mm 64.1 psi, 45 kg on 40 mm 37.9 psi', () => {
    expect(bertoPsi(40, 23)).toBeCloseTo(88.8, 0)
    expect(bertoPsi(50, 32)).toBeCloseTo(64.1, 0)
    expect(bertoPsi(45, 40)).toBeCloseTo(37.9, 0)
  })
  it('the recommendation on a smooth dry road with a tube and measured width is the plain fit', () => {
    // §7.1 system example, 40/60 split: 85 kg on 28 mm → F 52.7 / R 82.6 psi.
    const r = recommendTyrePressure({ ...base, riderMassKg: 76, bikeMassKg: 9, frontShare: 0.4 })
    expect(Math.abs(r.front.psi - 52.7)).toBeLessThanOrEqual(0.5)
    expect(Math.abs(r.rear.psi - 82.6)).toBeLessThanOrEqual(0.5)
    expect(r.front.bar).toBeCloseTo((r.front.psi * PA_PER_PSI) / 1e5, 1)
    expect(r.warnings).toEqual([])
  })
})

describe('hookless cap (science.md §10 row 24, Zipp AXS behaviour reported by dropba.rs)', () => {
  const zipp: TyrePressureInput = {
    riderMassKg: 70,
    bikeMassKg: 12,
    tyreWidthMm: 28,
    widthKind: 'labelled',
    rimInternalWidthMm: 23,
    tyreType: 'tube',
    surface: 'normal',
  }
  it('the hooked recommendation reaches 72.5 psi at a rider mass of ≈73 kg (±10 %)', () => {
    let lo = 40
    let hi = 140
    for (let i = 0; i < 40; i++) {
      const mid = (lo + hi) / 2
      const rear = recommendTyrePressure({ ...zipp, riderMassKg: mid }).rear
      if (rear.uncappedPsi < 72.5) lo = mid
      else hi = mid
    }
    expect(lo).toBeGreaterThan(73 * 0.9)
    expect(lo).toBeLessThan(73 * 1.1)
  })
  it('hookless: never above 5 bar; the cap bites exactly from the reported rider mass', () => {
    const hookless = { ...zipp, tyreType: 'hookless' as const }
    const at = recommendTyrePressure(hookless).capReachedAtRiderMassKg
    expect(at).not.toBeNull()
    const below = recommendTyrePressure({ ...hookless, riderMassKg: at!.rear - 1 })
    const above = recommendTyrePressure({ ...hookless, riderMassKg: at!.rear + 1 })
    expect(below.rear.limitedBy).toBeNull()
    expect(below.rear.pressurePa).toBeLessThan(HOOKLESS_MAX_PA)
    expect(above.rear.limitedBy).toBe('hookless-cap')
    expect(above.rear.psi).toBe(72.5)
    expect(above.warnings.map((w) => w.code)).toContain('hookless-cap')
    const heavy = recommendTyrePressure({ ...hookless, riderMassKg: 130, surface: 'smooth' })
    expect(heavy.rear.pressurePa).toBe(HOOKLESS_MAX_PA)
    expect(heavy.series.rearPa.every((p) => p <= HOOKLESS_MAX_PA)).toBe(true)
  })
  it('the tyre printed range clamps and warns', () => {
    const r = recommendTyrePressure({ ...base, riderMassKg: 110, tyreMaxPressurePa: 6e5 })
    expect(r.rear.limitedBy).toBe('tyre-max')
    expect(r.rear.pressurePa).toBe(6e5)
    expect(r.warnings.map((w) => w.code)).toContain('above-tyre-max')
    const low = recommendTyrePressure({ ...base, riderMassKg: 50, tyreMinPressurePa: 4.5e5 })
    expect(low.front.limitedBy).toBe('tyre-min')
    expect(low.warnings.map((w) => w.code)).toContain('below-tyre-min')
  })
})

describe('monotonic properties', () => {
  const rear = (over: Partial<TyrePressureInput>) =>
    recommendTyrePressure({ ...base, ...over }).rear.pressurePa
  it('heavier → higher', () => {
    expect(rear({ riderMassKg: 90 })).toBeGreaterThan(rear({ riderMassKg: 70 }))
    const s = recommendTyrePressure(base).series
    for (let i = 1; i < s.rearPa.length; i++) {
      expect(s.rearPa[i]!).toBeGreaterThan(s.rearPa[i - 1]!)
      expect(s.frontPa[i]!).toBeGreaterThanOrEqual(s.frontPa[i - 1]!)
    }
  })
  it('wider → lower, and a wider rim makes a labelled tyre wider → lower', () => {
    expect(rear({ tyreWidthMm: 32 })).toBeLessThan(rear({ tyreWidthMm: 28 }))
    const labelled = { widthKind: 'labelled' as const }
    expect(rear({ ...labelled, rimInternalWidthMm: 25 })).toBeLessThan(
      rear({ ...labelled, rimInternalWidthMm: 19 }),
    )
  })
  it('rougher → lower: smooth > normal > rough > gravel', () => {
    const p = (['smooth', 'normal', 'rough', 'gravel'] as const).map((surface) => rear({ surface }))
    for (let i = 1; i < p.length; i++) expect(p[i]!).toBeLessThan(p[i - 1]!)
  })
  it('wet → lower; tubeless and hookless lower than a tube', () => {
    expect(rear({ wet: true })).toBeLessThan(rear({ wet: false }))
    expect(rear({ tyreType: 'tubeless' })).toBeLessThan(rear({ tyreType: 'tube' }))
    expect(rear({ tyreType: 'hookless', riderMassKg: 55 })).toBeLessThan(
      rear({ tyreType: 'tubeless', riderMassKg: 55 }),
    )
  })
  it('faster → slightly higher on paved roads (our ±0.25 %/km/h), no effect on gravel', () => {
    expect(rear({ speedMps: 12.5 })).toBeGreaterThan(rear({}))
    expect(rear({ speedMps: 6 })).toBeLessThan(rear({}))
    expect(rear({ surface: 'gravel', speedMps: 12.5 })).toBe(rear({ surface: 'gravel' }))
  })
  it('the rear carries more than the front with the default split', () => {
    const r = recommendTyrePressure(base)
    expect(r.rear.pressurePa).toBeGreaterThan(r.front.pressurePa)
    expect(r.frontShare).toBe(0.4)
  })
})

describe('range of the fit', () => {
  it('warns above 40 mm (the widest tyre of the §7.1 table), not at 40 mm', () => {
    const at40 = recommendTyrePressure({ ...base, tyreWidthMm: 40, surface: 'gravel' })
    const at45 = recommendTyrePressure({ ...base, tyreWidthMm: 45, surface: 'gravel' })
    expect(at40.warnings.map((w) => w.code)).not.toContain('wide-tyre-extrapolated')
    expect(at45.warnings.map((w) => w.code)).toContain('wide-tyre-extrapolated')
  })
})

describe('validation', () => {
  it('names the field, the expectation and the value', () => {
    expect(() => recommendTyrePressure({ ...base, riderMassKg: -3 })).toThrow(
      'riderMassKg: expected a number from 20 to 250, got -3',
    )
    expect(() => recommendTyrePressure({ ...base, surface: 'ice' })).toThrow(
      'surface: expected one of "smooth", "normal", "rough", "gravel", got "ice"',
    )
    expect(() => recommendTyrePressure({ ...base, tyreWidthMm: '28' })).toThrow(ToolInputError)
    expect(() => recommendTyrePressure(null)).toThrow('input: expected an object, got null')
  })
})
