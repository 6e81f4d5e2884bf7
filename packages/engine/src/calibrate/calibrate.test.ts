import { describe, expect, it } from 'vitest'
import { activitySamples } from '../aero/samples.ts'
import { syntheticRide } from '../aero/synthetic-ride.ts'
import type { ActivitySamples } from '../aero/types.ts'
import { recordedSegments } from '../sim/recorded.ts'
import { EngineInputError } from '../sim/validate.ts'
import { calibrateRide, windFromDeg } from './calibrate.ts'
import { calibrateRecordedRide, compareReplay } from './ride.ts'
import {
  alternatingPower,
  recordedStillAirRide,
  rollingCourse,
  stillAirCalibration,
} from '../../test/fixtures.ts'

/** Truth of the synthetic rides: a Martin-model rider integrated at 20 Hz (aero/synthetic-ride.ts). */
const TRUTH = { cda: 0.28, crr: 0.0045, massKg: 80, windMps: 3, windFromDeg: 60 }

function ride(seed = 3): ActivitySamples {
  return syntheticRide({
    cda: TRUTH.cda,
    crr: TRUTH.crr,
    massKg: TRUTH.massKg,
    rho: 1.2,
    windMps: TRUTH.windMps,
    windFromDeg: TRUTH.windFromDeg,
    lengthM: 4000,
    hillM: 10,
    laps: 12,
    lapPowerW: [150, 320, 220],
    powerNoise: 0.02,
    speedNoise: 0.05,
    elevationNoiseM: 0.3,
    gpsNoiseM: 1,
    seed,
  }).samples
}

const input = {
  massKg: TRUTH.massKg - 8,
  bikeMassKg: 8,
  environment: { airDensityKgM3: 1.2 },
  resamples: 40,
}

/** Copies of the channels so a test can disturb one ride without touching another. */
function copy(s: ActivitySamples): ActivitySamples {
  return { ...s, speed: Float64Array.from(s.speed), power: Float64Array.from(s.power) }
}

describe('calibrateRide on a synthetic ride with known CdA, Crr and wind', () => {
  it('recovers CdA 0.28 m², Crr 0.0045 and a 3 m/s wind from 60° (within the intervals)', () => {
    const c = calibrateRide(ride(), input)
    expect(Math.abs(c.cdaM2.value / TRUTH.cda - 1)).toBeLessThan(0.05)
    expect(c.cdaM2.ci95[0]).toBeLessThanOrEqual(TRUTH.cda + 0.005)
    expect(c.cdaM2.ci95[1]).toBeGreaterThanOrEqual(TRUTH.cda - 0.005)
    expect(Math.abs(c.crr.value - TRUTH.crr)).toBeLessThan(0.0008)
    expect(c.crrFixed).toBe(false)
    expect(c.wind).not.toBeNull()
    expect(Math.abs(c.wind!.speedMps.value - TRUTH.windMps)).toBeLessThan(0.7)
    const dir = Math.abs(((c.wind!.fromDeg - TRUTH.windFromDeg + 540) % 360) - 180)
    expect(dir).toBeLessThan(20)
    expect(c.wind!.speedMps.ci95[0]).toBeLessThan(c.wind!.speedMps.value)
    expect(c.wind!.speedMps.ci95[1]).toBeGreaterThan(c.wind!.speedMps.value)
    // Every sample is used or excluded for one reason.
    const excluded = Object.values(c.excluded).reduce((a, b) => a + b, 0)
    expect(c.samplesUsed + excluded).toBe(ride().t.length)
    expect(c.samplesUsed).toBeGreaterThan(0.9 * ride().t.length)
  })

  it('leaves out a stop, GPS spikes and a drafted stretch, by reason, and still recovers the truth', () => {
    const s = copy(ride())
    const n = s.t.length
    // A 60 s stop at a third of the ride: standing, no power.
    const stopAt = Math.floor(n / 3)
    for (let i = stopAt; i < stopAt + 60; i++) {
      s.speed[i] = 0
      s.power[i] = 0
    }
    // Three speed spikes (a GPS jump to +15 m/s for one sample).
    for (const i of [Math.floor(n / 5), Math.floor(n / 2), Math.floor((4 * n) / 5)])
      s.speed[i]! += 15
    // Four minutes in a draft: the same speeds on 45 % less power.
    const draftAt = Math.floor((2 * n) / 3)
    for (let i = draftAt; i < draftAt + 240; i++) s.power[i] = s.power[i]! * 0.55
    const c = calibrateRide(s, input)
    expect(c.excluded.stopped).toBeGreaterThanOrEqual(60)
    expect(c.excluded.gps_spike).toBeGreaterThanOrEqual(3)
    expect(c.excluded.drafting).toBeGreaterThan(120)
    expect(Math.abs(c.cdaM2.value / TRUTH.cda - 1)).toBeLessThan(0.06)
    expect(Math.abs(c.crr.value - TRUTH.crr)).toBeLessThan(0.001)
    // Without the rejection the drafted stretch would have pulled CdA down: check it mattered.
    const clean = calibrateRide(ride(), { ...input, resamples: 0 })
    expect(Math.abs(c.cdaM2.value - clean.cdaM2.value)).toBeLessThan(0.015)
  })

  it('braking (power 0 and slowing at 2 m/s² on the flat) is excluded; coasting slowly is kept', () => {
    // A steady flat ride at 9 m/s with 200 W, then 4 s coasting, 4 s braking hard.
    const n = 600
    const t = Float64Array.from({ length: n }, (_, i) => i)
    const speed = new Float64Array(n).fill(9)
    const power = new Float64Array(n).fill(200)
    for (let i = 300; i < 304; i++) {
      power[i] = 0
      speed[i] = 9 - 0.05 * (i - 299)
    }
    for (let i = 304; i < 308; i++) {
      power[i] = 0
      speed[i] = speed[303]! - 2 * (i - 303)
    }
    for (let i = 308; i < n; i++) speed[i] = speed[307]!
    const flat: ActivitySamples = activitySamples({
      t,
      startEpochS: 0,
      speed,
      power,
      altitude: new Float64Array(n).fill(100),
    })
    const c = calibrateRide(flat, { ...input, crr: 0.004, fitWind: false, resamples: 0 })
    expect(c.excluded.braking).toBeGreaterThanOrEqual(4)
    expect(c.excluded.braking).toBeLessThanOrEqual(4 + 2 * 3) // the braking plus ±2 s margins
  })

  it('is deterministic (seeded bootstrap)', () => {
    const a = calibrateRide(ride(), input)
    const b = calibrateRide(ride(), input)
    expect(a.cdaM2).toEqual(b.cdaM2)
    expect(a.crr).toEqual(b.crr)
  })

  it('names the field, the expectation and the value', () => {
    expect(() => calibrateRide(ride(), { ...input, massKg: -1 })).toThrow(
      'massKg: expected a number ≥ 20 and ≤ 250, got -1',
    )
    expect(() => calibrateRide(ride(), { ...input, crr: 0.2 })).toThrow(EngineInputError)
    const short = { ...ride(), t: new Float64Array(5) }
    expect(() => calibrateRide(short, input)).toThrow(
      'samples: expected at least 30 samples, got 5',
    )
  })

  it('windFromDeg: air moving towards the east comes from the west', () => {
    expect(windFromDeg(1, 0)).toBeCloseTo(270, 9)
    expect(windFromDeg(0, -1)).toBeCloseTo(0, 9)
  })
})

describe('calibrateRecordedRide on a ride simulated by the engine (same model, known truth)', () => {
  // A 12 km rolling course ridden by the simulator with power alternating by kilometre; the
  // "recording" is the simulation's own times, so the fit must find its rider and k ≈ 1.
  const course = rollingCourse(1200, 200, 0.04, 0.01)
  const powerW = alternatingPower(course.n, 170, 320)
  const {
    sim,
    points: { timeS, distanceM, powerW: points },
  } = recordedStillAirRide(course, powerW)
  const recorded = recordedSegments(course, { distanceM, timeS, powerW: points })
  const recordedRide = { course, recorded, points: { timeS, distanceM, powerW: points } }

  it('finds CdA 0.30 within 2 % and Crr 0.005 within 5 %, the closure within 1 % of 1, the replay exact', () => {
    const c = calibrateRecordedRide(recordedRide, stillAirCalibration)
    expect(sim.status).toBe('ok')
    expect(Math.abs(c.energyFit.cdaM2 / 0.3 - 1)).toBeLessThan(0.02)
    expect(Math.abs(c.energyFit.crr / 0.005 - 1)).toBeLessThan(0.05)
    expect(Math.abs(c.closureFactor - 1)).toBeLessThan(0.01)
    expect(Math.abs(c.replay.errorPct)).toBeLessThan(0.05)
    // The held-out half of the same ride: the truth's own parameters predict it, so must ours.
    const half = calibrateRecordedRide(recordedRide, { ...stillAirCalibration, toM: 6000 })
    const second = compareReplay(recordedRide, half.rider, half.environment, 6000)
    expect(Math.abs(second.errorPct)).toBeLessThan(1)
  })
})
