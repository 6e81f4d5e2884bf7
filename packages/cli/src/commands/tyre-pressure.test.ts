import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { inputDir as dir, jsonOf, veloptimaWithInput as veloptima } from '../../test/run-cli.ts'

describe('veloptima tyre-pressure', () => {
  it('prints front/rear pressures as snake_case JSON (within the SILCA/Zipp/ENVE band)', () => {
    // 75 + 9 kg, 28 mm tubeless on a 23 mm rim, normal roads: SILCA, Zipp and ENVE give both
    // tyres in the high 50s to high 60s psi with the rear 5–15 % above the front.
    const r = veloptima(['tyre-pressure', 'FILE'], {
      rider_mass_kg: 75,
      bike_mass_kg: 9,
      tyre_width_mm: 28,
      rim_internal_width_mm: 23,
      tyre_type: 'tubeless',
      surface: 'normal',
    })
    const out = jsonOf(r)
    for (const w of [out.front, out.rear]) {
      expect(w.psi).toBeGreaterThanOrEqual(57)
      expect(w.psi).toBeLessThan(70)
    }
    expect(out.rear.psi / out.front.psi).toBeGreaterThanOrEqual(1.05)
    expect(out.rear.psi / out.front.psi).toBeLessThanOrEqual(1.15)
    expect(out.rear_to_front_ratio).toBeCloseTo(out.rear.psi / out.front.psi, 2)
    expect(out.rear.bar).toBeCloseTo(out.rear.pressure_pa / 1e5, 2)
    expect(out.factors.calibration).toBeGreaterThan(1)
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
