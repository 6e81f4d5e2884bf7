// `npm run bench`: forward simulation of a 180 km course at 10 m resolution, made by riding the
// real Mont Ventoux (Bédoin) GPX up and down until 180 km. Prints segment-steps per second and
// milliseconds per simulation (median of many runs after warm-up). Nothing here asserts time.
// It lives in packages/formats because it reads a real file (Node); it measures the engine.
import {
  courseFromSegments,
  createStepResult,
  prepareModel,
  simulate,
  simulatePrepared,
  step,
} from '@veloptima/engine'
import type { Rider } from '@veloptima/engine'
import { medianOf, sortedTimes } from '../../engine/bench/timing.ts'
import { ventouxUpAndDown } from './ventoux-course.ts'

const N = 18000
const long = ventouxUpAndDown(N)
const course = courseFromSegments(long.segments, long.startAltitudeM)
const rider: Rider = {
  massKg: 72,
  bikeMassKg: 8,
  cdaM2: 0.27,
  crr: 0.004,
  drivetrainEfficiency: 0.976,
  cpW: 300,
  wPrimeJ: 20000,
}
const environment = {
  temperatureC: 18,
  pressurePa: 98000,
  relativeHumidity: 0.5,
  windSpeedMps: 4,
  windFromDeg: 300,
}
const pacing = { type: 'constant' as const, powerW: 260 }

function measure(label: string, runs: number, fn: () => void): number {
  const median = medianOf(sortedTimes(runs, 20, fn))
  const stepsPerS = (N / median) * 1000
  console.log(
    `${label.padEnd(44)} ${median.toFixed(2).padStart(7)} ms/simulation (median of ${runs})   ` +
      `${(stepsPerS / 1e6).toFixed(2)} M segment-steps/s`,
  )
  return median
}

const km = course.start[course.n]! / 1000
const check = simulate({ course, rider, environment, pacing })
console.log(
  `course: ${km.toFixed(1)} km, ${course.n} segments of ${((km / course.n) * 1000).toFixed(2)} m ` +
    `(Mont Ventoux up and down); 260 W → ${(check.timeS / 3600).toFixed(3)} h, status ${check.status}`,
)
const model = prepareModel(course, rider, environment, {})
const out = createStepResult()
measure('step loop only (the optimizer hot path)', 200, () => {
  let v = 0
  for (let i = 0; i < model.n; i++) {
    step(model, i, v, 260, out)
    v = out.v1
  }
})
measure('simulatePrepared (series, W′, NP, energy)', 200, () => {
  simulatePrepared(model, course, rider, pacing)
})
measure('simulate (validate + prepare + run)', 100, () => {
  simulate({ course, rider, environment, pacing })
})
