import { describe, expect, it } from 'vitest'
import { MARTIN } from '../physics/constants.ts'
import { analyzeAero } from './analyze.ts'
import { directCda } from './direct.ts'
import { prepareVe } from './series.ts'
import { syntheticRide } from './synthetic-ride.ts'

// A synthetic pitot: the sensor reads the true air speed along the bike divided by √cal, so the
// true dynamic pressure is cal·½ρ·airspeed² (Aerosensor cal = 1/(1 − Cp)); the wind blows along
// the out-and-back road (from 45°), so there is no crosswind.
const CAL = 1.3
const ride = syntheticRide({
  cda: 0.28,
  crr: 0.0045,
  massKg: 82,
  rho: 1.2,
  shape: 'out_and_back',
  lengthM: 2000,
  laps: 8,
  hillM: 6,
  lapPowerW: [180, 300],
  windMps: 2.5,
  windFromDeg: 45,
  pitotCalibration: CAL,
  airspeedNoise: 0.1,
  powerNoise: 0.015,
  speedNoise: 0.05,
  gpsNoiseM: 1.5,
  elevationNoiseM: 0.1,
  elevationWhiteM: 0.1,
  seed: 21,
})

describe('direct method', () => {
  it('recovers CdA from the force balance with the sensor’s calibration (Σ numerators / Σ denominators)', () => {
    const s = prepareVe(ride.samples, {
      airDensity: 1.2,
      useAirspeed: true,
      calibrationFactor: CAL,
    })
    const r = directCda(s, [[0, s.n]], {
      massKg: 82,
      drivetrainEfficiency: MARTIN.drivetrainEfficiency,
      crr: 0.0045,
    })
    expect(Math.abs(r.cda - 0.28)).toBeLessThan(0.003)
    expect(r.cdaCi95[0]).toBeLessThan(0.28)
    expect(r.cdaCi95[1]).toBeGreaterThan(0.28)
    // Ratio of sums, not the mean of the windows' ratios.
    const sumN = r.windows.reduce((a, w) => a + w.num, 0)
    const sumD = r.windows.reduce((a, w) => a + w.den, 0)
    expect(r.cda).toBeCloseTo(sumN / sumD - MARTIN.spokeDragAreaM2, 12)
  })

  it('analyzeAero picks the direct method, scales CdA by the calibration factor and fits it back from VE (≈ 1.3)', () => {
    const withCal = analyzeAero(ride.samples, {
      massKg: 82,
      airDensity: 1.2,
      calibrationFactor: CAL,
      crr: 0.0045,
    })
    expect(withCal.runs.length).toBeGreaterThanOrEqual(3)
    for (const run of withCal.runs) {
      expect(run.method).toBe('direct')
      expect(run.calibrationFactor).toBe(CAL)
      expect(Math.abs(run.cda - 0.28)).toBeLessThan(0.006)
    }
    expect(withCal.windows.length).toBeGreaterThan(20)
    const byDefault = analyzeAero(ride.samples, { massKg: 82, airDensity: 1.2, crr: 0.0045 })
    // Default cal 1.400: drag area (CdA + Fw) scales by 1.3/1.4.
    const fw = MARTIN.spokeDragAreaM2
    byDefault.runs.forEach((run, k) => {
      expect(run.cda + fw).toBeCloseTo(((withCal.runs[k]!.cda + fw) * CAL) / 1.4, 10)
    })
    // The calibration that makes the baseline's direct CdA agree with its VE CdA.
    expect(byDefault.fittedCalibrationFactor).not.toBeNull()
    expect(Math.abs(byDefault.fittedCalibrationFactor! / CAL - 1)).toBeLessThan(0.04)
  })

  it('without a given calibration: a column reading the ground speed is taken as calibrated (1.000), a raw one gets 1.400', () => {
    // The same ride with the pitot column already calibrated (true air speed along the bike).
    const s = ride.samples
    const calibrated = { ...s, airspeed: s.airspeed!.map((a) => a * Math.sqrt(CAL)) }
    const raw = analyzeAero(s, { massKg: 82, airDensity: 1.2, crr: 0.0045 })
    expect(raw.runs[0]!.calibrationFactor).toBe(1.4)
    expect(
      raw.warnings.some((w) => /no calibration factor for the sensor: the default 1\.400/.test(w)),
    ).toBe(true)
    const already = analyzeAero(calibrated, { massKg: 82, airDensity: 1.2, crr: 0.0045 })
    expect(
      already.warnings.some((w) => /taken as already calibrated \(factor 1\.000/.test(w)),
    ).toBe(true)
    for (const run of already.runs) {
      expect(run.calibrationFactor).toBe(1)
      expect(Math.abs(run.cda - 0.28)).toBeLessThan(0.006)
    }
    // Given explicitly, the factor is used as it is, whatever the column reads.
    const forced = analyzeAero(calibrated, {
      massKg: 82,
      airDensity: 1.2,
      crr: 0.0045,
      calibrationFactor: 1.4,
    })
    expect(forced.runs[0]!.calibrationFactor).toBe(1.4)
  })
})
