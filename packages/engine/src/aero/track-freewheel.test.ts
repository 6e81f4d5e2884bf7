// A velodrome test in the shape of a real one (velodrome-2015-a.tcx): steady efforts at several
// speeds on the line, and between them the rider freewheels, sits up and swings up the banking,
// then drops back down while starting to pedal again. The file has no altitude, so the height on
// the banking is invisible; the analysis leaves the freewheeling stretches (and the seconds after)
// out of the fit on a track. The ride is made by an independent forward simulation (its own lean
// geometry and energy bookkeeping, integrated at 100 Hz, recorded at 1 Hz like a head unit:
// mean power over the second, the wheel speed at the tick), not by the engine's track series.
import { describe, expect, it } from 'vitest'
import { analyzeAero } from './analyze.ts'
import { createRandom } from './random.ts'
import { activitySamples } from './samples.ts'
import { prepareVe } from './series.ts'
import type { ActivitySamples } from './types.ts'
import { fitVirtualElevation } from './ve.ts'

const G = 9.80665
const MASS = 80
const ETA = 0.976
const RHO = 1.2
const CDA = 0.25
/** Sitting up while freewheeling. */
const CDA_UP = 0.34
const CRR = 0.003
/** Martin et al. 1998: spoke drag area, bearing friction, wheel inertia and radius. */
const FW = 0.0044
const BEARING = [0.091, 0.0087] as const
const WHEELS = 0.14 / 0.311 ** 2
/** A 250 m track: bends of radius 22 m, centre of mass 0.95 m above the tyres. */
const LAP = 250
const R = 22
const H = 0.95
/** Height gained on the banking during each recovery, m. */
const BANKING_M = 1.5

interface Phase {
  /** Target wheel speed of a steady effort (m/s), or null: freewheeling recovery. */
  target: number | null
  seconds: number
  /** Lap index recorded (the rider's lap presses). */
  lap: number
}

/** The lean at wheel speed v and wheel position x: centre-of-mass speed factor, height, tyre load. */
function lean(v: number, x: number): { k: number; y: number; load: number } {
  const straight = LAP / 2 - Math.PI * R
  if (x % (LAP / 2) < straight) return { k: 1, y: H, load: 1 }
  const phi = Math.atan((v * v) / (G * R))
  return { k: (R - H * Math.sin(phi)) / R, y: H * Math.cos(phi), load: 1 / Math.cos(phi) }
}

/** Mechanical energy of the rider and bike at wheel speed v, position x, banking height z (J). */
function energy(v: number, x: number, z: number): number {
  const l = lean(v, x)
  return 0.5 * MASS * (l.k * v) ** 2 + 0.5 * WHEELS * v * v + MASS * G * (l.y + z)
}

/** The wheel speed whose energy at (x, z) is e (bisection: energy grows with v here). */
function speedOf(e: number, x: number, z: number): number {
  let lo = 0
  let hi = 40
  for (let k = 0; k < 60; k++) {
    const mid = 0.5 * (lo + hi)
    if (energy(mid, x, z) < e) lo = mid
    else hi = mid
  }
  return 0.5 * (lo + hi)
}

/** Steady power on the line at wheel speed v (straight and bend averaged over the lap), W. */
function steadyPower(v: number): number {
  const bendShare = (2 * Math.PI * R) / LAP
  const b = lean(v, LAP / 2 - 1)
  const roll = CRR * MASS * G * v * (1 - bendShare + bendShare * b.load)
  const air = 0.5 * RHO * (CDA + FW) * v ** 3 * (1 - bendShare + bendShare * b.k ** 3)
  return (roll + air + v * (BEARING[0] + BEARING[1] * v)) / ETA
}

function velodromeTest(seed: number): ActivitySamples {
  const rand = createRandom(seed)
  // Steady efforts (a lap each) and between them a transition lap: 24 s freewheeling, then 30 s
  // of pedalling up to the next effort's speed.
  const targets = [9, 12.5, 8, 14, 10.5, 13, 8.5, 11.5]
  const phases: Phase[] = []
  targets.forEach((target, k) => {
    if (k > 0)
      phases.push(
        { target: null, seconds: 24, lap: 2 * k - 1 },
        { target, seconds: 30, lap: 2 * k - 1 },
      )
    phases.push({ target, seconds: 100, lap: 2 * k })
  })
  const sub = 100
  const h = 1 / sub
  let v = 8
  let x = 0
  let z = 0
  const t: number[] = []
  const speed: number[] = []
  const power: number[] = []
  const lap: number[] = []
  let second = 0
  for (const phase of phases) {
    for (let s = 0; s < phase.seconds; s++, second++) {
      let work = 0
      for (let k = 0; k < sub; k++) {
        const tau = s + k * h
        let p = 0
        let cda = CDA
        let zNext = z
        if (phase.target === null) {
          // Freewheel: sit up, climb the banking over 8 s, hold, then start the descent 4 s
          // before the end; the last 2 s of the descent fall in the next effort.
          cda = CDA_UP
          if (tau < 8) zNext = (BANKING_M * (tau + h)) / 8
          else if (tau >= phase.seconds - 4) zNext = Math.max(0, z - (BANKING_M / 6) * h)
        } else {
          if (z > 0) zNext = Math.max(0, z - (BANKING_M / 6) * h)
          const target = phase.target
          const ramp = s < 12 && phase.seconds < 100 ? 1.5 : 0.35
          p = Math.max(0, steadyPower(target) + ramp * MASS * (target - v) * target)
          p = Math.min(p, 900)
        }
        const l = lean(v, x)
        const loss =
          CRR * MASS * G * v * l.load +
          v * (BEARING[0] + BEARING[1] * v) +
          0.5 * RHO * (cda + FW) * (l.k * v) ** 3
        const e = energy(v, x, z) + (ETA * p - loss) * h
        x += v * h
        z = zNext
        v = speedOf(e, x, z)
        work += p * h
      }
      t.push(second)
      speed.push(v)
      const wave = 1 + 0.06 * Math.sin((2 * Math.PI * second) / 1.3)
      power.push(work > 0 ? Math.round(work * wave * (1 + 0.01 * (2 * rand() - 1))) : 0)
      lap.push(phase.lap)
    }
  }
  return activitySamples({
    t: Float64Array.from(t),
    speed: Float64Array.from(speed),
    power: Float64Array.from(power),
    lap: Int32Array.from(lap),
  })
}

describe('velodrome: freewheeling stretches (height on the banking unknown)', () => {
  it('are left out on a track: Crr within ±0.0005 and every run’s CdA within ±0.005 of the truth', () => {
    for (const seed of [1, 2, 3]) {
      const ride = velodromeTest(seed)
      const a = analyzeAero(ride, { massKg: MASS, airDensity: RHO, drivetrainEfficiency: ETA })
      expect(a.veModel).toBe('track')
      expect(a.warnings.some((w) => /samples freewheeling .* left out of the fit/.test(w))).toBe(
        true,
      )
      expect(Math.abs(a.crr - CRR)).toBeLessThanOrEqual(0.0005)
      // Every run: the steady efforts and the transition laps, whose pedalled part is ridden
      // in the test position (with the freewheeling kept in, their CdA came out ≈ 0.21).
      expect(a.runs.length).toBeGreaterThanOrEqual(12)
      for (const r of a.runs) expect(Math.abs(r.cda - CDA)).toBeLessThanOrEqual(0.005)
    }
  })

  it('kept in (the same ride fitted whole, one CdA), the unseen climbs and the upright position bias Crr', () => {
    const ride = velodromeTest(1)
    const s = prepareVe(ride, { airDensity: RHO, track: true })
    const fit = fitVirtualElevation(s, [{ start: 0, end: s.n, group: 0 }], {
      massKg: MASS,
      drivetrainEfficiency: ETA,
      resamples: 0,
    })
    expect(Math.abs(fit.crr - CRR)).toBeGreaterThan(0.0005)
  })
})
