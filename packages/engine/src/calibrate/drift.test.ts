// The replay's elevation drift correction (drift.ts) on a ride simulated by the engine whose
// recorded elevation has a known barometric drift added: a fake 30 m climb over the first 24 km
// of a 36 km rolling course, given back over the last 12 km (as on the ELEMNT ride in Shanghai).
// Truth: the injected drift, and the simulated rider (CdA 0.30, Crr 0.005).
import { describe, expect, it } from 'vitest'
import type { Course } from '../course/types.ts'
import { recordedSegments } from '../sim/recorded.ts'
import { calibrateRecordedRide } from './ride.ts'
import { driftFreeCourse } from './drift.ts'
import {
  alternatingPower,
  recordedStillAirRide,
  rollingCourse,
  stillAirCalibration,
} from '../../test/fixtures.ts'

const course = rollingCourse(3600, 20, 0.03, 0.01)
const powerW = alternatingPower(course.n, 180, 300)
const {
  sim,
  points: { timeS, distanceM, powerW: points },
} = recordedStillAirRide(course, powerW)
/** The injected drift (m) at a distance: +30 m over the first 8 km, back to 0 over the last 4. */
const DRIFT_M = 30
const drift = (x: number) =>
  x <= 24_000 ? (DRIFT_M * x) / 24_000 : (DRIFT_M * (36_000 - x)) / 12_000
const drifted: Course = (() => {
  const altitude = course.altitude.map((a, i) => a + drift(course.start[i]!))
  const grade = course.grade.map((_, i) => (altitude[i + 1]! - altitude[i]!) / course.length[i]!)
  return { ...course, altitude, grade }
})()
const recordedInput = { distanceM, timeS, powerW: points }
const ride = {
  course: drifted,
  recorded: recordedSegments(drifted, recordedInput),
  points: { timeS, distanceM, powerW: points },
  recordedInput,
}
const input = stillAirCalibration

describe('the replay elevation the energy fit sees (drift.ts), against known truth', () => {
  it('without drift the chained virtual elevation is the course: under 0.5 m taken out, k ≈ 1', () => {
    expect(sim.status).toBe('ok')
    const clean = { ...ride, course, recorded: recordedSegments(course, ride.recordedInput) }
    const c = calibrateRecordedRide(clean, input)
    expect(c.elevationDriftM).toBeLessThan(0.5)
    expect(Math.abs(c.closureFactor - 1)).toBeLessThan(0.005)
  })

  it('a drift of constant slope over the fitted range is Crr to the energy balance: absorbed exactly', () => {
    // Fitted on the first 18 km, where the drift adds a constant grade of 30 m / 24 km = 0.125 %:
    // rolling and grade forces are both m·g·(…), so the fit finds Crr 0.005 − 0.00125 = 0.00375,
    // CdA unchanged, and no drift left to take out (the limit of any energy-only correction).
    const half = calibrateRecordedRide(ride, { ...input, toM: 18_000 })
    expect(Math.abs(half.energyFit.crr / (0.005 - DRIFT_M / 24_000) - 1)).toBeLessThan(0.03)
    expect(Math.abs(half.energyFit.cdaM2 / 0.3 - 1)).toBeLessThan(0.01)
    expect(half.elevationDriftM).toBeLessThan(1)
  })

  it('a drift that changes slope is partly taken out; the closure then moves less from 1', () => {
    // Over the whole ride the drift climbs 30 m and falls back twice as steeply: one Crr cannot
    // absorb both slopes, the rest shows in the chained profile (between 5 and 30 m).
    const c = calibrateRecordedRide(ride, input)
    const onRecorded = calibrateRecordedRide(ride, { ...input, closureElevation: 'recorded' })
    expect(c.elevationDriftM).toBeGreaterThan(5)
    expect(c.elevationDriftM).toBeLessThan(DRIFT_M)
    expect(onRecorded.elevationDriftM).toBe(0)
    expect(Math.abs(c.closureFactor - 1)).toBeLessThan(Math.abs(onRecorded.closureFactor - 1))
    expect(Math.abs(c.replay.errorPct)).toBeLessThan(0.05)
  })

  it('driftFreeCourse takes the profile out of the altitudes and keeps the lengths', () => {
    const profile = {
      distanceM: Float64Array.from([0, 36_000]),
      driftM: Float64Array.from([0, 36]),
    }
    const flat = driftFreeCourse(drifted, profile)
    // 36 m over 36 km: every boundary 1 m per km lower, so grades 0.1 % lower.
    expect(flat.altitude[3600]! - drifted.altitude[3600]!).toBeCloseTo(-36, 9)
    expect(flat.grade[100]! - drifted.grade[100]!).toBeCloseTo(-0.001, 12)
    expect(flat.length).toBe(drifted.length)
  })
})
