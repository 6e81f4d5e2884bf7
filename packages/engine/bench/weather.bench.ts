// `npm run bench -- weather`: what the race-day weather costs an optimization run.
// A 180 km rolling course (engine-made, so no file), a forecast at 6 points over 12 hours whose
// wind turns and strengthens through the day, a rider with CP 300 W. Measured: one pacing
// optimization; the whole arrival-time iteration (steady first guess, then re-optimized with the
// plan's own arrivals until none moves ≥ 60 s, at most 3 more rounds), with its rounds; and the
// time range for wind ± 2 m/s and direction ± 30° (9 forecasts, the plan's powers). Prints the
// median of a few runs after warm-up. Nothing here asserts time.
import {
  courseFromSegments,
  forecastSensitivity,
  iterateArrival,
  iteratePlanArrival,
  optimizePacing,
  pacingOutput,
  simulationEvaluator,
  type Environment,
  type Forecast,
  type Rider,
} from '../src/index.ts'
import { cpRider } from '../test/fixtures.ts'

// The engine's tsconfig has no DOM or Node types: the two globals this script uses.
declare const console: { log(...args: unknown[]): void }
declare const performance: { now(): number }

async function measure<T>(label: string, runs: number, fn: () => Promise<T> | T): Promise<T> {
  let last: T = await fn()
  const times: number[] = []
  for (let k = 0; k < runs; k++) {
    const t0 = performance.now()
    last = await fn()
    times.push(performance.now() - t0)
  }
  times.sort((a, b) => a - b)
  console.log(
    `${label.padEnd(58)} ${times[Math.floor(runs / 2)]!.toFixed(0).padStart(6)} ms (median of ${runs}; min ${times[0]!.toFixed(0)})`,
  )
  return last
}

// 180 km: 1800 segments of 100 m, rolling ±2 % every 2 km, the heading turning slowly.
const course = courseFromSegments(
  Array.from({ length: 1800 }, (_, i) => ({
    lengthM: 100,
    grade: 0.02 * Math.sin((2 * Math.PI * i) / 40),
    headingDeg: (i * 0.4) % 360,
  })),
)
const T0 = Date.UTC(2026, 6, 1, 6) / 1000
const hours = Array.from({ length: 12 }, (_, k) => k)
const forecast: Forecast = {
  points: [0, 1, 2, 3, 4, 5].map((j) => ({
    distanceM: j * 36_000,
    elevationM: 200,
    timeS: hours.map((k) => T0 + 3600 * k),
    windSpeedMps: hours.map((k) => 2 + 0.6 * k + 0.3 * j),
    windFromDeg: hours.map((k) => (200 + 8 * k + 5 * j) % 360),
    gustMps: hours.map((k) => 4 + k),
    temperatureC: hours.map((k) => 14 + k),
    relativeHumidity: hours.map(() => 0.6),
    surfacePressurePa: hours.map(() => 99000),
  })),
}
const rider: Rider = { ...cpRider, massKg: 72, maxPowerW: 900 }
const startTimeS = T0 + 1800
const pacing = { constraint: { type: 'average_power' as const, powerW: 240 }, maxTargets: 12 }
const optimize = (environment: Environment) =>
  pacingOutput(optimizePacing({ course, rider, environment, pacing }), course)

const steady = iterateArrival({
  course,
  forecast,
  startTimeS,
  evaluate: simulationEvaluator({ course, rider, pacing: { type: 'constant', powerW: 270 } }),
})
console.log(
  `course ${(course.start[course.n]! / 1000).toFixed(0)} km, ${course.n} segments; first guess: steady 270 W, ${steady.iterations} simulations, ${(steady.timeS / 3600).toFixed(2)} h`,
)
await measure('one pacing optimization (first-guess arrivals)', 3, () =>
  optimize(steady.environment),
)
const out = await measure('arrival-time iteration with the plan (all rounds)', 3, () =>
  iteratePlanArrival({
    course,
    forecast,
    startTimeS,
    firstGuessS: steady.conditions.timeS,
    optimize: async (env) => optimize(env),
    timelineOf: (o) =>
      o.series
        ? { distanceM: o.series.distance_m, elapsedS: o.series.time_s, timeS: o.time_s }
        : null,
  }),
)
console.log(
  `  rounds: ${out.rounds.map((r) => `${r.arrivals} → ${r.timeS.toFixed(1)} s, max shift ${r.maxShiftS.toFixed(1)} s`).join('; ')}; converged ${out.converged}`,
)
const range = await measure('time range, 9 forecasts × arrival iteration (plan powers)', 3, () =>
  forecastSensitivity({
    course,
    forecast,
    startTimeS,
    evaluate: simulationEvaluator({
      course,
      rider,
      pacing: { type: 'plan', powerW: out.result.series!.power_w },
    }),
  }),
)
console.log(
  `  plan ${range.baseS.toFixed(0)} s, range ${range.minS.toFixed(0)}–${range.maxS.toFixed(0)} s`,
)
