import { describe, expect, it } from 'vitest'
import { G0, MARTIN } from '../physics/constants.ts'
import { prepareVe } from './series.ts'
import { NOISY_FIELD_TEST, syntheticRide } from './synthetic-ride.ts'
import { activitySamples } from './samples.ts'
import type { ActivitySamples } from './types.ts'
import { fitVirtualElevation, virtualElevation } from './ve.ts'

const whole = (n: number) => [{ start: 0, end: n, group: 0 }]

/**
 * GoldenCheetah Aerolab's virtual elevation (docs/engine/science.md §6.1, Chung 2012), written
 * out here independently: per sample f = η·P/v, a = (v² − v_prev²)/(2·Δt·v),
 * s = f/(m·g) − Crr − CdA·ρ·v²/(2·m·g) − a/g, VE += s·v·Δt.
 */
function aerolabVe(
  samples: Pick<ActivitySamples, 't' | 'speed' | 'power'>,
  rho: number,
  params: { cda: number; crr: number; massKg: number; drivetrainEfficiency: number },
): Float64Array {
  const { t, speed: v, power: p } = samples
  const { cda, crr, massKg: m, drivetrainEfficiency: eta } = params
  const out = new Float64Array(t.length)
  let ve = 0
  for (let i = 1; i < t.length; i++) {
    const dt = t[i]! - t[i - 1]!
    const f = (eta * p[i]!) / v[i]!
    const a = (v[i]! * v[i]! - v[i - 1]! * v[i - 1]!) / (2 * dt * v[i]!)
    const s = f / (m * G0) - crr - (cda * rho * v[i]! * v[i]!) / (2 * m * G0) - a / G0
    ve += s * v[i]! * dt
    out[i] = ve
  }
  return out
}

describe('virtualElevation', () => {
  const ride = syntheticRide({ ...NOISY_FIELD_TEST, laps: 4, seed: 3 })
  const s = prepareVe(ride.samples, { airDensity: 1.2 })

  it('equals GoldenCheetah Aerolab’s formula on the same arrays (< 1e-9 m) with the Martin extras off', () => {
    const params = { cda: 0.27, crr: 0.005, massKg: 80, drivetrainEfficiency: 0.976 }
    const ours = virtualElevation(s, 0, s.n, {
      ...params,
      spokeDragAreaM2: 0,
      bearings: false,
      wheelInertiaKgM2: 0,
    })
    const gc = aerolabVe(ride.samples, 1.2, params)
    let worst = 0
    for (let i = 0; i < s.n; i++) worst = Math.max(worst, Math.abs(ours[i]! - gc[i]!))
    expect(worst).toBeLessThan(1e-9)
  })

  it('with the Martin terms on, sits below Aerolab by the spoke-drag and bearing work (stated: ≈ 7.5 m after 4 laps, 12 km, 35 min)', () => {
    const params = { cda: 0.25, crr: 0.004, massKg: 80, drivetrainEfficiency: 0.976 }
    const ours = virtualElevation(s, 0, s.n, params)
    const gc = aerolabVe(ride.samples, 1.2, params)
    // Independent expectation: Σ (½ρ·Fw·v³ + P_WB)·Δt/(m·g) plus the wheels' kinetic energy
    // (I/r²)/m·(v_end² − v_0²)/(2g).
    const t = ride.samples.t
    const v = ride.samples.speed
    let extra = 0
    for (let i = 1; i < s.n; i++) {
      const dt = t[i]! - t[i - 1]!
      extra +=
        ((0.5 * 1.2 * MARTIN.spokeDragAreaM2 * v[i]! ** 3 + v[i]! * (0.091 + 0.0087 * v[i]!)) *
          dt) /
        (80 * G0)
    }
    const mRot = MARTIN.wheelInertiaKgM2 / MARTIN.wheelRadiusM ** 2
    extra += ((mRot / 80) * (v[s.n - 1]! ** 2 - v[0]! ** 2)) / (2 * G0)
    const diff = gc[s.n - 1]! - ours[s.n - 1]!
    expect(diff).toBeGreaterThan(6.5)
    expect(diff).toBeLessThan(8.5)
    expect(diff).toBeCloseTo(extra, 6)
  })

  it('closes a flat loop with the true parameters, and CdA +0.01 m² drifts −0.78 m/km at 10 m/s (docs/engine/science.md §10 #30)', () => {
    const flat = syntheticRide({
      cda: 0.25,
      crr: 0.004,
      massKg: 80,
      rho: 1.225,
      hillM: 0,
      laps: 3,
      lengthM: 2000,
      lapPowerW: [194],
      seed: 1,
    })
    const f = prepareVe(flat.samples, { airDensity: 1.225 })
    const p = {
      cda: 0.25,
      crr: 0.004,
      massKg: 80,
      drivetrainEfficiency: MARTIN.drivetrainEfficiency,
    }
    const ve = virtualElevation(f, 0, f.n, p)
    for (const k of flat.lapStarts.slice(1))
      expect(Math.abs(ve[k]! - ve[flat.lapStarts[1]! - 1]!)).toBeLessThan(0.15)
    const lap = flat.lapStarts
    const a = lap[1]!
    const b = lap[3]!
    expect(Math.abs(ve[b]! - ve[a]!)).toBeLessThan(0.05 * 2)
    const mis = virtualElevation(f, 0, f.n, { ...p, cda: 0.26 })
    const km = (flat.samples.distance![b]! - flat.samples.distance![a]!) / 1000
    let v2 = 0
    for (let i = a + 1; i <= b; i++) v2 += flat.samples.speed[i]! ** 2
    v2 /= b - a
    const drift = (mis[b]! - mis[a]! - (ve[b]! - ve[a]!)) / km
    // Published rule (docs/engine/science.md §6.1): 0.78 m per km at 10 m/s; scaled to the
    // ride's mean v².
    expect(drift).toBeCloseTo((-0.78 * v2) / 100, 2)
    expect(Math.sqrt(v2)).toBeGreaterThan(9.7)
    expect(Math.sqrt(v2)).toBeLessThan(10.3)
  })

  it('holds the trace flat across stopped samples and NaN gaps', () => {
    const r = syntheticRide({ ...NOISY_FIELD_TEST, laps: 1, seed: 2 })
    r.samples.speed[100] = 0
    r.samples.power[200] = NaN
    const g = prepareVe(r.samples, { airDensity: 1.2 })
    const ve = virtualElevation(g, 0, g.n, {
      cda: 0.25,
      crr: 0.004,
      massKg: 80,
      drivetrainEfficiency: 0.976,
    })
    expect(ve[100]).toBe(ve[99])
    expect(ve[101]).toBe(ve[100])
    expect(ve[200]).toBe(ve[199])
    expect(ve.every(Number.isFinite)).toBe(true)
  })

  it('writes into a given buffer without allocating', () => {
    const buf = new Float64Array(s.n)
    const out = virtualElevation(
      s,
      0,
      s.n,
      { cda: 0.25, crr: 0.004, massKg: 80, drivetrainEfficiency: 0.976 },
      buf,
    )
    expect(out).toBe(buf)
  })
})

describe('fitVirtualElevation', () => {
  it('recovers CdA ±0.002 m², Crr ±0.0005 and the wind from 1 h Martin-model rides with noise and a 3 m/s wind (8 seeds)', () => {
    // Noise: power 1.5 %, speed 0.05 m/s, GPS position 1.5 m, barometric-grade elevation
    // (AR(1) 0.1 m with 30 s correlation + 0.1 m white); laps alternate 150 and 330 W.
    for (let seed = 13; seed <= 20; seed++) {
      const ride = syntheticRide({ ...NOISY_FIELD_TEST, elevationNoiseM: 0.1, laps: 12, seed })
      const s = prepareVe(ride.samples, { airDensity: 1.2 })
      const fit = fitVirtualElevation(s, whole(s.n), { massKg: 80, drivetrainEfficiency: 0.976 })
      expect(Math.abs(fit.cda[0]! - 0.25)).toBeLessThan(0.002)
      expect(Math.abs(fit.crr - 0.004)).toBeLessThan(0.0005)
      expect(fit.windFitted).toBe(true)
      // Wind from 240° at 3 m/s blows towards 60°: east 2.60, north 1.50.
      expect(fit.windE).toBeCloseTo(2.6, 0)
      expect(fit.windN).toBeCloseTo(1.5, 0)
      expect(fit.cdaCi95[0]![0]).toBeLessThan(0.25)
      expect(fit.cdaCi95[0]![1]).toBeGreaterThan(0.25)
    }
  })

  it('95 % intervals cover the true CdA and Crr in ≥ 90 % of 200 seeded trials (elevation wander 0.4 m over 60 s)', () => {
    let coverCda = 0
    let coverCrr = 0
    const trials = 200
    for (let seed = 1; seed <= trials; seed++) {
      const ride = syntheticRide({
        ...NOISY_FIELD_TEST,
        laps: 3,
        lengthM: 1500,
        elevationNoiseM: 0.4,
        elevationNoiseTauS: 60,
        seed: 1000 + seed,
      })
      const s = prepareVe(ride.samples, { airDensity: 1.2 })
      const fit = fitVirtualElevation(s, whole(s.n), { massKg: 80, drivetrainEfficiency: 0.976 })
      const [lo, hi] = fit.cdaCi95[0]!
      if (lo <= 0.25 && 0.25 <= hi) coverCda++
      if (fit.crrCi95[0] <= 0.004 && 0.004 <= fit.crrCi95[1]) coverCrr++
    }
    expect(coverCda / trials).toBeGreaterThanOrEqual(0.9)
    expect(coverCrr / trials).toBeGreaterThanOrEqual(0.9)
  })

  it('is robust to GPS elevation spikes (Huber): 30 s at +25 m moves CdA < 0.0015 m², least squares moves it more', () => {
    const ride = syntheticRide({ ...NOISY_FIELD_TEST, laps: 6, seed: 5 })
    const opts = { massKg: 80, drivetrainEfficiency: 0.976, resamples: 0 }
    const clean = fitVirtualElevation(
      prepareVe(ride.samples, { airDensity: 1.2 }),
      whole(ride.samples.t.length),
      opts,
    )
    for (let i = 900; i < 930; i++) ride.samples.altitude![i]! += 25
    const s = prepareVe(ride.samples, { airDensity: 1.2 })
    const robust = fitVirtualElevation(s, whole(s.n), opts)
    const plain = fitVirtualElevation(s, whole(s.n), { ...opts, huberK: Infinity })
    expect(Math.abs(robust.cda[0]! - clean.cda[0]!)).toBeLessThan(0.0015)
    expect(Math.abs(plain.cda[0]! - clean.cda[0]!)).toBeGreaterThan(
      Math.abs(robust.cda[0]! - clean.cda[0]!),
    )
  })

  it('fits Crr from loop closure on a flat track without elevation or GPS (velodrome)', () => {
    const ride = syntheticRide({
      cda: 0.24,
      crr: 0.003,
      massKg: 78,
      rho: 1.18,
      hillM: 0,
      laps: 10,
      lengthM: 1000,
      lapPowerW: [140, 260, 200, 320],
      powerNoise: 0.015,
      speedNoise: 0.05,
      noGps: true,
      noAltitude: true,
      recordLaps: true,
      seed: 7,
    })
    const s = prepareVe(ride.samples, { airDensity: 1.18 })
    expect(s.elevation).toBeNull()
    const fit = fitVirtualElevation(s, whole(s.n), { massKg: 78, drivetrainEfficiency: 0.976 })
    expect(fit.windFitted).toBe(false)
    expect(Math.abs(fit.crr - 0.003)).toBeLessThan(0.0005)
    expect(Math.abs(fit.cda[0]! - 0.24)).toBeLessThan(0.004)
  })

  it('fits one CdA per group with a shared Crr, breaks the trace at masked samples, and reports NaN for an empty group', () => {
    const ride = syntheticRide({
      ...NOISY_FIELD_TEST,
      laps: 6,
      lapCda: [0.25, 0.23],
      recordLaps: true,
      seed: 9,
    })
    const s = prepareVe(ride.samples, { airDensity: 1.2 })
    const starts = [...ride.lapStarts, s.n]
    const pieces = ride.lapStarts.map((a, k) => ({ start: a, end: starts[k + 1]!, group: k % 2 }))
    const mask = new Uint8Array(s.n).fill(1)
    for (let i = 500; i < 520; i++) mask[i] = 0
    const fit = fitVirtualElevation(s, pieces, {
      massKg: 80,
      drivetrainEfficiency: 0.976,
      groups: 3,
      mask,
    })
    expect(Math.abs(fit.cda[0]! - 0.25)).toBeLessThan(0.004)
    expect(Math.abs(fit.cda[1]! - 0.23)).toBeLessThan(0.004)
    expect(fit.cda[2]).toBeNaN()
    expect(fit.residuals[510]).toBeNaN()
  })

  it('holds Crr at 0.004 with a warning when a steady ride cannot separate it from CdA', () => {
    // Constant speed and power on a flat road: rolling and aero work are proportional.
    const n = 600
    const t = Float64Array.from({ length: n }, (_, i) => i)
    const samples = activitySamples({
      t,
      speed: new Float64Array(n).fill(10),
      power: new Float64Array(n).fill(200),
      altitude: new Float64Array(n).fill(100),
    })
    const s = prepareVe(samples, { airDensity: 1.2 })
    const fit = fitVirtualElevation(s, whole(n), {
      massKg: 80,
      drivetrainEfficiency: 0.976,
      resamples: 0,
    })
    expect(fit.crrFixed).toBe(true)
    expect(fit.crr).toBe(0.004)
    expect(fit.warnings.join(' ')).toMatch(/Crr/)
    // Then CdA is what closes the balance: η·P = (Crr·m·g + P_WB/v + ½ρ(CdA + Fw)v²)·v.
    const expected =
      (0.976 * 200 - 0.004 * 80 * G0 * 10 - 10 * (0.091 + 0.087)) / (0.5 * 1.2 * 1000) - 0.0044
    expect(fit.cda[0]).toBeCloseTo(expected, 5)
  })
})
