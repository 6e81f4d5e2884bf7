import { describe, expect, it } from 'vitest'
import { crrBySurface } from './ride-calibration.tsx'

describe('crrBySurface: the fitted Crr is the normal-road value, the others keep their ratio', () => {
  it('race butyl preset 0.0032 / 0.004 / 0.0055 with a fitted 0.005', () => {
    const by = crrBySurface(0.005, { smooth: 0.0032, normal: 0.004, rough: 0.0055 })
    expect(by.normal).toBe(0.005)
    expect(by.smooth).toBeCloseTo(0.004, 12)
    expect(by.rough).toBeCloseTo(0.006875, 12)
  })
  it('empty or invalid current values fall back to the presets’ typical ratios (0.8, 1.375)', () => {
    const by = crrBySurface(0.004, { smooth: NaN, normal: 0, rough: 0.005 })
    expect(by.smooth).toBeCloseTo(0.0032, 12)
    expect(by.rough).toBeCloseTo(0.0055, 12)
  })
})
