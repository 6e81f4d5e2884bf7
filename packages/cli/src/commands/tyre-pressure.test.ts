import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { inputDir as dir, veloptimaWithInput as veloptima } from '../../test/run-cli.ts'

describe('veloptima tyre-pressure', () => {
  it('prints front/rear pressures as snake_case JSON (Berto fit, science.md §10 row 23)', () => {
    // 85 kg system, 40/60 on a measured 28 mm, smooth, tube: F 52.7 / R 82.6 psi (§7.1).
    const r = veloptima(['tyre-pressure', 'FILE'], {
      rider_mass_kg: 76,
      bike_mass_kg: 9,
      front_share: 0.4,
      tyre_width_mm: 28,
      width_kind: 'measured',
      tyre_type: 'tube',
      surface: 'smooth',
    })
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(Math.abs(out.front.psi - 52.7)).toBeLessThanOrEqual(0.5)
    expect(Math.abs(out.rear.psi - 82.6)).toBeLessThanOrEqual(0.5)
    expect(out.rear.bar).toBeCloseTo(out.rear.pressure_pa / 1e5, 2)
    expect(out.series.system_mass_kg.length).toBe(out.series.rear_pa.length)
    expect(out.basis).toMatch(/Our model/)
  })
  it('hookless: capped at 72.5 psi with a warning', () => {
    const r = veloptima(['tyre-pressure', 'FILE'], {
      rider_mass_kg: 95,
      bike_mass_kg: 9,
      tyre_width_mm: 28,
      rim_internal_width_mm: 23,
      tyre_type: 'hookless',
      surface: 'smooth',
    })
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out.rear.psi).toBe(72.5)
    expect(out.rear.limited_by).toBe('hookless-cap')
    expect(out.warnings[0].code).toBe('hookless-cap')
    expect(out.cap_reached_at_rider_mass_kg.rear).toBeLessThan(95)
  })
  it('bad input: names the file, the field, the expectation and the value; exit 2', () => {
    const r = veloptima(['tyre-pressure', 'FILE'], {
      rider_mass_kg: 75,
      bike_mass_kg: 9,
      tyre_width_mm: 28,
      tyre_type: 'tube',
      surface: 'cobbles',
    })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      /\.json: surface: expected one of "smooth", "normal", "rough", "gravel", got "cobbles"/,
    )
    const missing = veloptima(['tyre-pressure', 'FILE'], { bike_mass_kg: 9 })
    expect(missing.stderr).toMatch(/rider_mass_kg: expected a number from 20 to 250, got nothing/)
    const broken = veloptima(['tyre-pressure', 'FILE'], '{"rider_mass_kg": ')
    expect(broken.code).toBe(2)
    expect(broken.stderr).toMatch(/not valid JSON/)
    const absent = veloptima(['tyre-pressure', join(dir, 'nope.json')])
    expect(absent.code).toBe(2)
    expect(absent.stderr).toMatch(/nope\.json: cannot read/)
    expect(veloptima(['tyre-pressure']).code).toBe(2)
  })
})
