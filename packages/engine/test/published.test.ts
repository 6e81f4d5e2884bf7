// docs/engine/science.md §10: published figures for the Martin terms, air density, wind/yaw,
// W′ balance, Normalized Power, cornering and braking. Each test names its source.
import { describe, expect, it } from 'vitest'
import {
  aeroPower,
  airDensity,
  airSpeed,
  bartramTau,
  bearingPower,
  brakingDeceleration,
  brakingDistance,
  corneringSpeedLimit,
  courseFromSegments,
  G0,
  gravityPower,
  isaDensity,
  isothermalPressurePa,
  kineticPower,
  leanAngle,
  normalizedPower,
  rollingPower,
  saturationVapourPressurePa,
  simulate,
  skiba2012Tau,
  steadySpeed,
  tangentialAirSpeed,
  wPrimeBalance,
  windComponents,
  yawAngle,
} from '../src/index.ts'

const rel = (actual: number, expected: number): number => Math.abs(actual / expected - 1)
const rad = (d: number): number => (d * Math.PI) / 180

describe('Martin et al. 1998 power terms (scheibo/calc calc_test.go)', () => {
  it('#1 P_AT = 158.8 W for ρ 1.225, CdA 0.2565, Fw 0.0044, Va 10.91, Vg 8.36 (TestPowerAT)', () => {
    expect(rel(aeroPower(1.225, 0.2565, 0.0044, 10.91, 8.36), 158.8)).toBeLessThan(0.002)
  })
  it('#2 P_RR 23.6 W, P_PE 22.1 W, P_WB 1.37 W at Vg 8.36, G 0.003, Crr 0.0032, m 90 (TestPowerRR/PE/WB)', () => {
    expect(rel(rollingPower(8.36, 0.003, 0.0032, 90), 23.6)).toBeLessThan(0.002)
    expect(rel(gravityPower(8.36, 0.003, 90), 22.1)).toBeLessThan(0.002)
    expect(rel(bearingPower(8.36), 1.37)).toBeLessThan(0.002)
  })
  it('#3 P_KE 2.305 W for m 90, I 0.14, r 0.311, 8.28 → 8.45 m/s in 56.42 s (TestPowerKE)', () => {
    expect(rel(kineticPower(90, 0.14, 0.311, 8.28, 8.45, 56.42), 2.305)).toBeLessThan(0.002)
  })
  it('#4 Vw 2.94 m/s from 310°, travel 340°, Vg 8.36: Va 10.91 m/s, yaw −7.67° (TestAirVelocity/TestYaw)', () => {
    const w = windComponents(2.94, rad(310), rad(340))
    expect(rel(tangentialAirSpeed(8.36, w.headwind), 10.91)).toBeLessThan(0.001)
    expect(rel((yawAngle(8.36, w.headwind, w.cross) * 180) / Math.PI, -7.67)).toBeLessThan(0.001)
    // The full vector adds the crosswind: √(10.906² + 1.47²) = 11.005 m/s [computed].
    expect(airSpeed(8.36, w.headwind, w.cross)).toBeCloseTo(11.005, 2)
  })
  it('#5 sum of the terms of #1–#4 over Ec 0.976 is 213.6 W (208.4 W at the wheel) [computed]', () => {
    const wheel =
      aeroPower(1.225, 0.2565, 0.0044, 10.91, 8.36) +
      rollingPower(8.36, 0.003, 0.0032, 90) +
      gravityPower(8.36, 0.003, 90) +
      bearingPower(8.36) +
      kineticPower(90, 0.14, 0.311, 8.28, 8.45, 56.42)
    expect(rel(wheel / 0.976, 213.6)).toBeLessThan(0.003)
  })
  it('#7 climb 4.8 km at 8.125 % in 16:05, 70 + 8 kg: 357.37 W = AT 25.44 + RR 15.54 + WB 0.68 + PE 315.70 (scheibo/calc README)', () => {
    const vg = 4800 / (16 * 60 + 5)
    const at = aeroPower(1.225, 0.325, 0.0044, vg, vg) / 0.976
    const rr = rollingPower(vg, 0.08125, 0.004, 78) / 0.976
    const wb = bearingPower(vg) / 0.976
    const pe = gravityPower(vg, 0.08125, 78) / 0.976
    expect(rel(at, 25.44)).toBeLessThan(0.001)
    expect(rel(rr, 15.54)).toBeLessThan(0.001)
    expect(rel(wb, 0.68)).toBeLessThan(0.01) // 0.68 is printed with two decimals
    expect(rel(pe, 315.7)).toBeLessThan(0.001)
    expect(rel(at + rr + wb + pe, 357.37)).toBeLessThan(0.001)
    expect((at + rr + wb + pe) / 70).toBeCloseTo(5.11, 2)
  })
  it('§1.1 illustrative breakdown: 257 / 300 / 343 W hold 40 km/h for CdA 0.25 / 0.30 / 0.35 (simulated steady state) [computed]', () => {
    const course = courseFromSegments(
      Array.from({ length: 300 }, () => ({ lengthM: 20, grade: 0 })),
    )
    for (const [cda, p] of [
      [0.25, 257],
      [0.3, 300],
      [0.35, 343],
    ] as const) {
      const r = simulate({
        course,
        rider: { massKg: 72, bikeMassKg: 8, cdaM2: cda, crr: 0.004, drivetrainEfficiency: 0.976 },
        environment: { airDensityKgM3: 1.225 },
        options: { startSpeedMps: 40 / 3.6 },
        pacing: { type: 'constant', powerW: p },
      })
      expect(rel(r.segments.speed[299]! * 3.6, 40)).toBeLessThan(0.003)
    }
  })
  it('#17 Kreuzotter calculator defaults (CdA 0.302, ρ 1.153, 80.8 kg, Cr 0.006, ks 1.03): 200 W → 34.2 km/h, 150 W → 30.4 km/h [computed from published code]', () => {
    const p = {
      rho: 1.153,
      cdaM2: 0.302,
      spokeDragAreaM2: 0,
      crr: 0.006,
      massKg: 71.3 + 9.5,
      grade: 0,
      drivetrainEfficiency: 1 / 1.03,
      bearings: false,
    }
    expect(rel(steadySpeed(200, p) * 3.6, 34.2)).toBeLessThan(0.003)
    expect(rel(steadySpeed(150, p) * 3.6, 30.4)).toBeLessThan(0.003)
    // Kreuzotter's density: ρ = 353·exp(−H/7981)/(273 + T) at 350 m, 20 °C.
    expect(rel((353 * Math.exp(-350 / 7981)) / 293, 1.153)).toBeLessThan(0.003)
  })

  it('§1.1 terminal coasting speed on a 10 % descent, m 80, CdA 0.30, Crr 0.004, ρ 1.2 is 73 km/h [computed]', () => {
    const course = courseFromSegments(
      Array.from({ length: 400 }, () => ({ lengthM: 10, grade: -0.1 })),
      1000,
    )
    const r = simulate({
      course,
      rider: {
        massKg: 72,
        bikeMassKg: 8,
        cdaM2: 0.3,
        crr: 0.004,
        drivetrainEfficiency: 0.976,
        spokeDragAreaM2: 0,
      },
      environment: { airDensityKgM3: 1.2 },
      options: { bearingLosses: false, startSpeedMps: 15 },
      pacing: { type: 'constant', powerW: 0 },
    })
    expect(rel(r.segments.exitSpeed[399]! * 3.6, 73.45)).toBeLessThan(0.005)
  })
})

describe('air density (docs/engine/science.md §2)', () => {
  it('#9 22 °C, 750 mmHg, RH 50 %: 1.17433 kg/m³ and E_s(22 °C) = 26.437 hPa (rouleur _util.py docstrings)', () => {
    expect(Math.abs(airDensity(22, 750 * 133.322368, 0.5) - 1.17433)).toBeLessThan(1e-4)
    expect(Math.abs(saturationVapourPressurePa(22) / 100 - 26.437)).toBeLessThan(0.01)
  })
  it('#10 ISA sea level, 101325 Pa, 15 °C, dry: 1.2250 kg/m³', () => {
    expect(Math.abs(airDensity(15, 101325, 0) - 1.225)).toBeLessThan(1e-4)
    expect(Math.abs(isaDensity(0) - 1.225)).toBeLessThan(1e-4)
  })
  it('#11 ISA at 1000 m: 1.111 kg/m³ (scheibo/calc TestAirDensity)', () => {
    expect(rel(isaDensity(1000), 1.111)).toBeLessThan(0.001)
  })
  it('#12 isothermal pressure at 4000 m, 30 °C: 64557.76 Pa (scheibo/calc TestAirPressure)', () => {
    expect(rel(isothermalPressurePa(4000, 30), 64557.76)).toBeLessThan(0.001)
  })
  it('#13 saturation vapour pressure 30/20/10/0 °C = 42.430/23.373/12.272/6.1078 hPa within 0.2 % (Smithsonian table)', () => {
    for (const [t, hpa] of [
      [30, 42.43],
      [20, 23.373],
      [10, 12.272],
      [0, 6.1078],
    ] as const) {
      expect(rel(saturationVapourPressurePa(t) / 100, hpa)).toBeLessThan(0.002)
    }
  })
  it('humid air at 30 °C, 1013 hPa, 80 % RH is about 1.3 % less dense than dry air (docs/engine/science.md §2) [computed]', () => {
    const loss = 1 - airDensity(30, 101300, 0.8) / airDensity(30, 101300, 0)
    expect(loss).toBeGreaterThan(0.012)
    expect(loss).toBeLessThan(0.014)
  })
})

describe('W′ balance (docs/engine/science.md §3)', () => {
  it('#18 CP 300 W, W′ 20 kJ, constant 400 W: TTE = 200 s and W′bal(200 s) = 0 (Monod & Scherrer 1965)', () => {
    const power = new Float64Array(200).fill(400)
    const dur = new Float64Array(200).fill(1)
    const out = new Float64Array(200)
    const s = wPrimeBalance(power, dur, 200, 300, 20000, 'skiba2015', out)
    expect(s.finalJ).toBeCloseTo(0, 9)
    expect(s.exhaustedAtS).toBeCloseTo(200, 9)
    expect(out[99]).toBeCloseTo(10000, 9)
  })
  it('#19 Skiba 2012 τ: D_CP 0 → 862 s, 100 W → 516.9 s (Skiba et al. 2012; trackeR R/Wprime.R)', () => {
    expect(rel(skiba2012Tau(0), 862)).toBeLessThan(0.001)
    expect(rel(skiba2012Tau(100), 516.9)).toBeLessThan(0.001)
  })
  it('#21 Bartram τ at D_CP 100 W: 96.2 s (Bartram et al. 2018)', () => {
    expect(rel(bartramTau(100), 96.2)).toBeLessThan(0.001)
  })
  it('Skiba 2015 recovery below CP follows τ = W′0/D_CP; Skiba 2012 recovers with its own τ', () => {
    // 60 s at 400 W (6 kJ spent), then 862 s at CP: 2015 does not recover at P = CP; 2012 decays by e.
    const power = [400, 300]
    const dur = [60, 862]
    const out = new Float64Array(2)
    const a = wPrimeBalance(power, dur, 2, 300, 20000, 'skiba2015', out)
    expect(out[0]).toBeCloseTo(14000, 9)
    expect(a.finalJ).toBeCloseTo(14000, 9)
    // 2012: D_CP = 0 → τ 862 s; S = 100·τ·(1 − e^(−60/τ)) then × e^(−1).
    const b = wPrimeBalance(power, dur, 2, 300, 20000, 'skiba2012', out)
    const tau = skiba2012Tau(0)
    expect(b.finalJ).toBeCloseTo(20000 - 100 * tau * (1 - Math.exp(-60 / tau)) * Math.exp(-1), 6)
    // 2015 below CP: 100 W under CP for τ = W′0/D_CP = 200 s closes 1 − 1/e of the gap.
    const c = wPrimeBalance([400, 200], [60, 200], 2, 300, 20000, 'skiba2015', out)
    expect(c.finalJ).toBeCloseTo(20000 - 6000 * Math.exp(-1), 6)
  })
})

describe('Normalized Power (Coggan; docs/engine/science.md §3.3)', () => {
  it('#22 long alternating blocks of 100 W and 300 W give NP ≈ 253.0 W (avg 200 W) [computed]', () => {
    const p = new Float64Array(20 * 600)
    for (let i = 0; i < p.length; i++) p[i] = Math.floor(i / 600) % 2 === 0 ? 100 : 300
    expect(rel(normalizedPower(p), 253.0)).toBeLessThan(0.005)
  })
  it('constant power has NP equal to it', () => {
    expect(normalizedPower(new Float64Array(3600).fill(250))).toBeCloseTo(250, 9)
  })
})

describe('cornering and braking (docs/engine/science.md §5)', () => {
  it('#26 R 20 m, μ 0.8: v_max 12.53 m/s (45.1 km/h), lean 38.7° [computed, circular motion]', () => {
    const v = corneringSpeedLimit(20, 0.8)
    expect(rel(v, 12.53)).toBeLessThan(0.001)
    expect(rel(v * 3.6, 45.1)).toBeLessThan(0.001)
    expect((leanAngle(v, 20) * 180) / Math.PI).toBeCloseTo(38.7, 1)
  })
  it('#27 60 → 25 km/h at 0.35 g on −5 %: deceleration 0.30 g, distance 39.0 m (AASHTO via Pein)', () => {
    const a = brakingDeceleration(0.35 * G0, -0.05)
    expect(rel(a / G0, 0.3)).toBeLessThan(0.005)
    expect(rel(brakingDistance(60 / 3.6, 25 / 3.6, a), 39.0)).toBeLessThan(0.005)
  })
})
