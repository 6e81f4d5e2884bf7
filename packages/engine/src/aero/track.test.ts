// The velodrome model (`prepareVe` option `track`): a ride generated with the lean physics
// (centre of mass on radius R − h·sin φ, tan φ = v²/(g·R), tyres loaded m·g/cos φ) is fitted back
// to its known CdA and Crr; the same ride read as a road (rider = wheel) gives a biased Crr.
import { describe, expect, it } from 'vitest'
import { G0, MARTIN } from '../physics/constants.ts'
import { analyzeAero } from './analyze.ts'
import { createRandom } from './random.ts'
import { activitySamples } from './samples.ts'
import { DEFAULT_TRACK, prepareVe, trackSeries } from './series.ts'
import type { ActivitySamples } from './types.ts'
import { fitVirtualElevation, virtualElevation } from './ve.ts'

const MASS = 80
const ETA = 0.976
const RHO = 1.2
const CDA = 0.24
const CRR = 0.003

/**
 * 14 laps of a 250 m track at 1 Hz, lap speeds from 8 to 15 m/s with surges, power from the
 * track model's energy balance (Martin terms: spoke drag, bearings, wheel inertia) plus 1 % noise.
 */
function velodromeRide(seed: number, noise = 0.01): ActivitySamples {
  const rand = createRandom(seed)
  const targets = [9, 12, 15, 10, 13.5, 8, 14, 11, 15, 9.5, 12.5, 8.5, 14.5, 10.5]
  const speed: number[] = []
  let v = 8
  for (const target of targets) {
    const lapS = Math.round(250 / target)
    for (let k = 0; k < lapS; k++) {
      v += 0.25 * (target - v) + 0.15 * Math.sin(k / 3)
      speed.push(v)
    }
  }
  const n = speed.length
  const t = Float64Array.from({ length: n }, (_, i) => i)
  const sp = Float64Array.from(speed)
  const dt = Float64Array.from({ length: n }, (_, i) => (i === 0 ? 0 : 1))
  const track = trackSeries(sp, dt, {})
  const kappa = 1 + MARTIN.wheelInertiaKgM2 / MARTIN.wheelRadiusM ** 2 / MASS
  const mg = MASS * G0
  const power = new Float64Array(n)
  for (let i = 1; i < n; i++) {
    const u = sp[i]!
    const u0 = sp[i - 1]!
    const c = track.comSpeed[i]!
    const c0 = track.comSpeed[i - 1]!
    const kinetic =
      (c * c - c0 * c0 + (kappa - 1) * (u * u - u0 * u0)) / (2 * G0) +
      track.comHeight[i]! -
      track.comHeight[i - 1]!
    const watts =
      u * (MARTIN.bearingA + MARTIN.bearingB * u) +
      mg * kinetic +
      CRR * track.normalFactor[i]! * mg * u +
      0.5 * RHO * (CDA + MARTIN.spokeDragAreaM2) * c ** 3
    power[i] = (watts / ETA) * (1 + noise * (2 * rand() - 1) * Math.sqrt(3))
  }
  power[0] = power[1]!
  const lap = new Int32Array(n)
  let x = 0
  for (let i = 1; i < n; i++) {
    x += sp[i]!
    lap[i] = Math.floor(x / 250)
  }
  return activitySamples({ t, speed: sp, power, lap })
}

describe('velodrome model (track)', () => {
  it('the lean physics: at 15 m/s in a 22 m bend the tyres carry 1.44 m·g and the centre of mass moves 2.9 % slower', () => {
    // tan φ = 225/(9.80665·22) = 1.043, cos φ = 0.692, sin φ = 0.722; (22 − 0.95·0.722)/22 = 0.9688.
    const v = Float64Array.from([15, 15, 15])
    const dt = Float64Array.from([0, 1000, 1])
    const tr = trackSeries(v, dt, {})
    // Sample 0 sits on the first straight; sample 1 (15 km on) lies in a bend: 15000 mod 125 = 0
    // → straight start; sample 2 at 15015 m: 15 m into the half lap, still the straight (55.9 m).
    expect(tr.normalFactor[0]).toBe(1)
    expect(tr.comSpeed[0]).toBe(15)
    const bent = trackSeries(Float64Array.from([15, 15]), Float64Array.from([0, 5]), {})
    // 75 m into the half lap: past the 56 m straight, in the bend.
    expect(bent.normalFactor[1]).toBeCloseTo(1 / 0.692, 2)
    expect(bent.comSpeed[1]! / 15).toBeCloseTo(0.9688, 3)
    expect(bent.comHeight[1]).toBeCloseTo(0.95 * 0.692, 3)
    expect(DEFAULT_TRACK.lapLengthM).toBe(250)
  })

  it('the VE of the model’s own ride (no noise) stays flat to < 1 mm; read as a road it drifts', () => {
    const ride = velodromeRide(1, 0)
    const params = { cda: CDA, crr: CRR, massKg: MASS, drivetrainEfficiency: ETA }
    const worst = (ve: Float64Array) => ve.reduce((a, h) => Math.max(a, Math.abs(h)), 0)
    const s = prepareVe(ride, { airDensity: RHO, track: true })
    expect(worst(virtualElevation(s, 0, s.n, params))).toBeLessThan(0.001)
    const road = prepareVe(ride, { airDensity: RHO })
    expect(worst(virtualElevation(road, 0, road.n, params))).toBeGreaterThan(1)
  })

  it('recovers the known CdA (±0.004 m²) and Crr (±0.0003) on 5 seeded rides; the road model does not', () => {
    for (let seed = 1; seed <= 5; seed++) {
      const ride = velodromeRide(seed)
      const pieces = [{ start: 0, end: ride.t.length, group: 0 }]
      const opts = { massKg: MASS, drivetrainEfficiency: ETA, resamples: 0 }
      const track = fitVirtualElevation(
        prepareVe(ride, { airDensity: RHO, track: true }),
        pieces,
        opts,
      )
      expect(Math.abs(track.cda[0]! - CDA)).toBeLessThan(0.004)
      expect(Math.abs(track.crr - CRR)).toBeLessThan(0.0003)
      const road = fitVirtualElevation(prepareVe(ride, { airDensity: RHO }), pieces, opts)
      // Rider = wheel: the bends' extra tyre load grows like v⁴ (tan²φ/2 ∝ v⁴), so the road
      // model gives it to the drag and its Crr comes out low (measured: ≈ −0.0008 here).
      expect(Math.abs(road.crr - CRR)).toBeGreaterThan(0.0003)
    }
  })

  it('analyzeAero uses it on a file without GPS or elevation and says so; track: false turns it off', () => {
    const ride = velodromeRide(2)
    const on = analyzeAero(ride, { massKg: MASS, airDensity: RHO, drivetrainEfficiency: ETA })
    expect(on.veModel).toBe('track')
    expect(on.warnings.some((w) => w.startsWith('velodrome model: 250 m lap'))).toBe(true)
    expect(Math.abs(on.crr - CRR)).toBeLessThan(0.0003)
    const off = analyzeAero(ride, {
      massKg: MASS,
      airDensity: RHO,
      drivetrainEfficiency: ETA,
      track: false,
    })
    expect(off.veModel).toBe('road')
    const base = { massKg: MASS }
    expect(() => analyzeAero(ride, { ...base, track: { bendRadiusM: 50 } })).toThrow(
      /track\.bendRadiusM: expected two bends that fit in the lap/,
    )
    expect(() => analyzeAero(ride, { ...base, track: { comHeightM: 3 } })).toThrow(
      /track\.comHeightM: expected a number/,
    )
  })
})
