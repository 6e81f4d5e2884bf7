// `npm run bench -- aero`: the aero analysis on a 1 h, 1 Hz field test (3,600 samples), made
// with the Martin model (aero/synthetic-ride.ts: hilly 3 km loop, laps at 150/330 W, 3 m/s wind,
// power/speed/GPS/elevation noise). Prints the median time of: the whole analysis (runs, VE fit
// with Crr and wind, per-run CdA, jackknife intervals, comparison), the VE fit with its
// interval alone, and one VE trace as a slider move redraws it. Nothing here asserts time.
import { analyzeAero, fitVirtualElevation, prepareVe, virtualElevation } from '../src/index.ts'
import { NOISY_FIELD_TEST, syntheticRide } from '../src/aero/synthetic-ride.ts'
import { medianOf, sortedTimes } from './timing.ts'

// The engine compiles without DOM or Node types; the global this script uses:
declare const console: { log(...args: unknown[]): void }

const ride = syntheticRide({ ...NOISY_FIELD_TEST, laps: 12, seed: 1 })
const samples = ride.samples
const n = samples.t.length

function measure(label: string, runs: number, fn: () => void): number {
  const median = medianOf(sortedTimes(runs, Math.min(5, runs), fn))
  console.log(`${label.padEnd(58)} ${median.toFixed(3).padStart(9)} ms (median of ${runs})`)
  return median
}

console.log(
  `field test: ${n} samples (${(samples.t[n - 1]! / 3600).toFixed(2)} h at 1 Hz), 12 laps of 3 km`,
)
const a = analyzeAero(samples, { massKg: 80, airDensity: 1.2 })
console.log(
  `analysis: ${a.runs.length} runs (${a.runs[0]!.source}), Crr ${a.crr.toFixed(5)}, ` +
    `CdA ${a.runs.map((r) => r.cda.toFixed(3)).join(' ')}`,
)
measure('analyzeAero (runs, VE fit Crr+wind, run CdA, intervals)', 15, () => {
  analyzeAero(samples, { massKg: 80, airDensity: 1.2 })
})
const series = prepareVe(samples, { airDensity: 1.2 })
const whole = [{ start: 0, end: n, group: 0 }]
const fit = fitVirtualElevation(series, whole, { massKg: 80, drivetrainEfficiency: 0.976 })
console.log(
  `one fit: CdA ${fit.cda[0]!.toFixed(4)} [${fit.cdaCi95[0]!.map((x) => x.toFixed(4)).join(', ')}], ` +
    `Crr ${fit.crr.toFixed(5)}, wind ${Math.hypot(fit.windE, fit.windN).toFixed(2)} m/s, φ ${fit.phi.toFixed(2)}`,
)
measure('fitVirtualElevation + jackknife 95 % interval (1 group)', 15, () => {
  fitVirtualElevation(series, whole, { massKg: 80, drivetrainEfficiency: 0.976 })
})
measure('fitVirtualElevation without interval', 15, () => {
  fitVirtualElevation(series, whole, { massKg: 80, drivetrainEfficiency: 0.976, resamples: 0 })
})
measure('fitVirtualElevation + seeded block bootstrap (200 resamples)', 7, () => {
  fitVirtualElevation(series, whole, {
    massKg: 80,
    drivetrainEfficiency: 0.976,
    interval: 'bootstrap',
  })
})
const out = new Float64Array(n)
let cda = 0.25
measure('virtualElevation trace, 3,600 samples (one slider move)', 2000, () => {
  cda = cda === 0.25 ? 0.251 : 0.25
  virtualElevation(
    series,
    0,
    n,
    { cda, crr: 0.004, massKg: 80, drivetrainEfficiency: 0.976, windE: 2.6, windN: 1.5 },
    out,
  )
})
