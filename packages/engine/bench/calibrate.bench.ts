// `npm run bench -- calibrate`: calibration of a 6 h ride (target: < 1 s). Two rides, both made
// by the engine so the bench needs no file: (1) a 6 h, 1 Hz head-unit recording of a hilly loop
// in a 3 m/s wind (aero/synthetic-ride.ts), calibrated by `calibrateRide` (exclusions, energy
// fit, outlier rejection, 50 bootstrap resamples, wind jackknife); (2) a 6 h ride simulated on a
// 180 km rolling course and calibrated on that course by `calibrateRecordedRide` (the same plus
// the replay closure); (3) that course ridden in a known weather (wind and air varying along it)
// and calibrated with that weather as its historical input. Prints the median time of several runs after warm-up and the recovered
// values against the truth. Nothing here asserts time.
import {
  calibrateRecordedRide,
  calibrateRide,
  conditionsAlongCourse,
  courseFromSegments,
  forecastEnvironment,
  recordedSegments,
  simulate,
} from '../src/index.ts'
import type { Forecast } from '../src/index.ts'
import { syntheticRide } from '../src/aero/synthetic-ride.ts'
import { medianOf, sortedTimes } from './timing.ts'

// The engine's tsconfig has no DOM or Node types: the global this script uses.
declare const console: { log(...args: unknown[]): void }

function measure(label: string, runs: number, fn: () => void): void {
  const times = sortedTimes(runs, 2, fn)
  const median = medianOf(times)
  console.log(
    `${label.padEnd(58)} ${median.toFixed(0).padStart(6)} ms (median of ${runs}; min ${times[0]!.toFixed(0)})`,
  )
}

// (1) 6 h at 1 Hz: 12 km loop, ±15 m hills, laps alternating 160/260/210 W.
const truth = { cda: 0.3, crr: 0.0045, massKg: 82, windMps: 3, windFromDeg: 240 }
const loop = syntheticRide({
  ...truth,
  rho: 1.2,
  lengthM: 12_000,
  hillM: 15,
  laps: 17,
  lapPowerW: [160, 260, 210],
  powerNoise: 0.03,
  speedNoise: 0.08,
  elevationNoiseM: 0.5,
  gpsNoiseM: 2,
  seed: 7,
}).samples
const hours = loop.t[loop.t.length - 1]! / 3600
const input = {
  massKg: truth.massKg - 8,
  bikeMassKg: 8,
  environment: { airDensityKgM3: 1.2 },
}
const one = calibrateRide(loop, input)
console.log(
  `synthetic loop: ${hours.toFixed(2)} h, ${loop.t.length} samples; CdA ${one.cdaM2.value.toFixed(4)} ` +
    `[${one.cdaM2.ci95.map((x) => x.toFixed(4)).join(', ')}] (truth ${truth.cda}), Crr ` +
    `${one.crr.value.toFixed(5)} (truth ${truth.crr}), wind ${one.wind?.speedMps.value.toFixed(2)} m/s ` +
    `from ${one.wind?.fromDeg.toFixed(0)}° (truth ${truth.windMps} from ${truth.windFromDeg}°)`,
)
measure(`calibrateRide, ${hours.toFixed(1)} h at 1 Hz`, 7, () => calibrateRide(loop, input))

// (2) 6 h on a 180 km rolling course at 10 m, power alternating by 2 km, ridden by the simulator.
const n = 18_000
const segments = Array.from({ length: n }, (_, i) => ({
  lengthM: 10,
  grade: 0.035 * Math.sin((2 * Math.PI * i) / 400) + 0.012 * Math.sin((2 * Math.PI * i) / 57),
  headingDeg: (i * 0.25) % 360,
}))
const course = courseFromSegments(segments, 300)
const rider = { massKg: 74, bikeMassKg: 8, cdaM2: 0.32, crr: 0.005, drivetrainEfficiency: 0.976 }
const powerW = Array.from({ length: n }, (_, i) => (Math.floor(i / 200) % 2 ? 190 : 130))
const sim = simulate({
  course,
  rider,
  environment: { airDensityKgM3: 1.2 },
  pacing: { type: 'plan', powerW },
})
/**
 * One recorded point per second (times from `t0`), interpolated along the simulated 10 m
 * segments of `duration`; `t`, the ride's time.
 */
function pointsPerSecond(duration: Float64Array, t0: number) {
  const timeS: number[] = []
  const distanceM: number[] = []
  const pointPower: number[] = []
  let t = 0
  for (let i = 0, next = 0; i < n; i++) {
    const d = duration[i]!
    while (next <= t + d) {
      timeS.push(t0 + next)
      distanceM.push(course.start[i]! + (10 * (next - t)) / d)
      pointPower.push(powerW[i]!)
      next += 1
    }
    t += d
  }
  return { points: { timeS, distanceM, powerW: pointPower }, t }
}
const { points, t } = pointsPerSecond(sim.segments.duration, 0)
const ride = { course, recorded: recordedSegments(course, points), points }
const rideInput = {
  massKg: 74,
  bikeMassKg: 8,
  environment: { airDensityKgM3: 1.2 },
  fitWind: false,
}
const two = calibrateRecordedRide(ride, rideInput)
console.log(
  `simulated course: ${(t / 3600).toFixed(2)} h, ${points.timeS.length} points; energy fit CdA ` +
    `${two.energyFit.cdaM2.toFixed(4)} (truth ${rider.cdaM2}), Crr ${two.energyFit.crr.toFixed(5)} ` +
    `(truth ${rider.crr}), closure ${two.closureFactor.toFixed(4)}, replay ${two.replay.errorPct.toFixed(3)} %`,
)
measure(`calibrateRecordedRide (with replay closure), ${(t / 3600).toFixed(1)} h`, 5, () =>
  calibrateRecordedRide(ride, rideInput),
)

// (3) The same course in a known weather: 7 places along it, 12 hours, wind 3–7 m/s from 200–260°,
// 24–28 °C, 960 hPa (constant in time, so the still-air ride's clock places it well enough).
const T0 = 1_700_000_000
const hourly = Array.from({ length: 12 }, (_, k) => T0 - 3600 + 3600 * k)
const forecast: Forecast = {
  source: 'bench',
  points: Array.from({ length: 7 }, (_, j) => ({
    distanceM: (course.start[n]! * j) / 6,
    elevationM: 300,
    timeS: hourly,
    windSpeedMps: hourly.map(() => 3 + (4 * j) / 6),
    windFromDeg: hourly.map(() => 200 + 10 * j),
    temperatureC: hourly.map(() => 24 + (4 * j) / 6),
    relativeHumidity: hourly.map(() => 0.5),
    surfacePressurePa: hourly.map(() => 96_000),
  })),
}
const midTimes = new Float64Array(n).fill(T0)
const windy = simulate({
  course,
  rider,
  environment: forecastEnvironment(course, conditionsAlongCourse(course, forecast, midTimes)),
  pacing: { type: 'plan', powerW },
})
const { points: wPoints, t: tw } = pointsPerSecond(windy.segments.duration, T0)
const windyRide = { course, recorded: recordedSegments(course, wPoints), points: wPoints }
const weatherInput = { massKg: 74, bikeMassKg: 8, weather: { forecast, label: 'bench weather' } }
const three = calibrateRecordedRide(windyRide, weatherInput)
console.log(
  `course in a known weather: ${(tw / 3600).toFixed(2)} h; energy fit CdA ` +
    `${three.energyFit.cdaM2.toFixed(4)} (truth ${rider.cdaM2}), Crr ${three.energyFit.crr.toFixed(5)} ` +
    `(truth ${rider.crr}), closure ${three.closureFactor.toFixed(4)}, replay ${three.replay.errorPct.toFixed(3)} %`,
)
measure(`calibrateRecordedRide in its historical weather, ${(tw / 3600).toFixed(1)} h`, 5, () =>
  calibrateRecordedRide(windyRide, weatherInput),
)
