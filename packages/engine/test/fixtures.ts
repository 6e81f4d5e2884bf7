// The riders the engine's tests and benchmarks ride (each test spreads what it changes), and the
// simulated rides the calibration tests recover.
import { courseFromSegments, simulate } from '../src/index.ts'
import type { Course, Rider, SimulationResult } from '../src/index.ts'
import type { ReferenceRider } from '../src/optimize/reference.ts'

/** 75 kg on an 8 kg bike, CdA 0.25 m², Crr 0.004, drivetrain 97.6 % (Martin et al. 1998). */
export const roadRider: Rider = {
  massKg: 75,
  bikeMassKg: 8,
  cdaM2: 0.25,
  crr: 0.004,
  drivetrainEfficiency: 0.976,
}

/** The road rider with a critical power of 300 W and a W′ of 20 kJ. */
export const cpRider: Rider = { ...roadRider, cpW: 300, wPrimeJ: 20000 }

/** `cpRider` as a scenario's `rider` (snake_case JSON). */
export const cpRiderJson = {
  mass_kg: 75,
  bike_mass_kg: 8,
  cda_m2: 0.25,
  crr: 0.004,
  drivetrain_efficiency: 0.976,
  cp_w: 300,
  w_prime_j: 20000,
}

/**
 * A simulated ride as a device records it: the time, the distance and the power of the interval
 * it ends at each segment boundary.
 */
export function recordedPoints(
  course: Course,
  duration: ArrayLike<number>,
  powerW: readonly number[],
  startS = 0,
): { timeS: number[]; distanceM: number[]; powerW: number[] } {
  const timeS = [startS]
  const distanceM = [0]
  const points = [NaN]
  for (let i = 0; i < course.n; i++) {
    timeS.push(timeS[i]! + duration[i]!)
    distanceM.push(course.start[i + 1]!)
    points.push(powerW[i]!)
  }
  return { timeS, distanceM, powerW: points }
}

/** The rider the calibration tests simulate and then recover: 72 + 8 kg, CdA 0.30 m², Crr 0.005. */
export const calibrationRider: Rider = {
  massKg: 72,
  bikeMassKg: 8,
  cdaM2: 0.3,
  crr: 0.005,
  drivetrainEfficiency: 0.976,
}

/**
 * A rolling course of `n` 10 m segments turning 0.6° each, grade
 * amplitude·sin(2πi/150) + ripple·sin(2πi/37), starting at `startAltitudeM`.
 */
export function rollingCourse(
  n: number,
  startAltitudeM: number,
  amplitude: number,
  ripple = 0,
): Course {
  const segments = Array.from({ length: n }, (_, i) => ({
    lengthM: 10,
    grade:
      amplitude * Math.sin((2 * Math.PI * i) / 150) + ripple * Math.sin((2 * Math.PI * i) / 37),
    headingDeg: (i * 0.6) % 360,
  }))
  return courseFromSegments(segments, startAltitudeM)
}

/** A plan of `n` powers alternating every 100 segments (1 km of 10 m segments), `first` first. */
export const alternatingPower = (n: number, first: number, second: number): number[] =>
  Array.from({ length: n }, (_, i) => (Math.floor(i / 100) % 2 ? second : first))

/** The calibration rider riding `powerW` over `course` in still air of 1.2 kg/m³. */
export const rideInStillAir = (course: Course, powerW: number[]): SimulationResult =>
  simulate({
    course,
    rider: calibrationRider,
    environment: { airDensityKgM3: 1.2 },
    pacing: { type: 'plan', powerW },
  })

/** That ride, and its points as a device records them. */
export function recordedStillAirRide(
  course: Course,
  powerW: number[],
): { sim: SimulationResult; points: ReturnType<typeof recordedPoints> } {
  const sim = rideInStillAir(course, powerW)
  return { sim, points: recordedPoints(course, sim.segments.duration, powerW) }
}

/**
 * The calibration input for a ride by the calibration rider in `rideInStillAir`: its masses, that
 * still air, no wind to fit, no bootstrap.
 */
export const stillAirCalibration = {
  massKg: calibrationRider.massKg,
  bikeMassKg: calibrationRider.bikeMassKg,
  environment: { airDensityKgM3: 1.2 },
  fitWind: false,
  resamples: 0,
}

/** The road rider with W′ and power bounds, as the dense DP reference takes it (83 kg in all). */
export const referenceRider: ReferenceRider = {
  massKg: 83,
  cdaM2: 0.25,
  crr: 0.004,
  eta: 0.976,
  fwM2: 0.0044,
  bearing: true,
  cpW: 300,
  wPrimeJ: 20000,
  minPowerW: 100,
  maxPowerW: 600,
}
