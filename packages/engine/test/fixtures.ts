// The riders the engine's tests and benchmarks ride; each test spreads what it changes.
import type { Course, Rider } from '../src/index.ts'
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

/**
 * A simulated ride as a device records it: the time, the distance and the power of the interval
 * it ends at each segment boundary.
 */
export function recordedPoints(
  course: Course,
  duration: ArrayLike<number>,
  powerW: readonly number[],
): { timeS: number[]; distanceM: number[]; powerW: number[] } {
  const timeS = [0]
  const distanceM = [0]
  const points = [NaN]
  for (let i = 0; i < course.n; i++) {
    timeS.push(timeS[i]! + duration[i]!)
    distanceM.push(course.start[i + 1]!)
    points.push(powerW[i]!)
  }
  return { timeS, distanceM, powerW: points }
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
