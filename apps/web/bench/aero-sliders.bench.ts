// `npm run bench -- aero-sliders`: the VE sliders of the aero session page (goal: "slider
// redraw < 16 ms in the browser bench"), measured where they run: the page's own VE code
// (src/features/aero/ve.ts → the engine's virtualElevation) and uPlot, bundled by Vite, in
// Debian's headless Chromium. The run is 3,600 samples (1 h at 1 Hz) of a real ride, the
// five-lap demo (PeakPacer's demo.fit), prepared as the API's run block holds it. Per slider
// step: VE recompute, setData and uPlot's draw. Prints ms; nothing here asserts time.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { prepareVe } from '@veloptima/engine'
import { readActivity } from '@veloptima/formats'
import { exitWithoutChromium, openBenchPage } from './browser-harness.ts'
import type { RunParamsJson, RunSeriesJson } from '../src/features/aero/ve.ts'
import { stillAirParams } from '../src/features/aero/ve-fixtures.ts'
import type { SliderReply, SliderRequest } from './aero-sliders-page.ts'
import { needs } from '../../../scripts/test-data.ts'

exitWithoutChromium()

const N = 3600
const file = needs('aero/five-laps-cda-demo.fit').path('aero/five-laps-cda-demo.fit')
const samples = readActivity(readFileSync(file), 'five-laps-cda-demo.fit').samples
const ve = prepareVe(samples)
const n = Math.min(N, ve.n)
const pick = (a: ArrayLike<number>) => Array.from({ length: n }, (_, i) => a[i]!)
const series: RunSeriesJson = {
  t: pick(ve.t).map((t) => t - ve.t[0]!),
  dt: pick(ve.dt),
  speed: pick(ve.speed),
  power: pick(ve.power),
  rho: pick(ve.rho),
  elevation: ve.elevation ? pick(ve.elevation) : null,
  heading: pick(ve.heading),
  valid: pick(ve.valid),
}
const params: RunParamsJson = stillAirParams(series.elevation?.[0] ?? 0)

const { page, version, close } = await openBenchPage(
  import.meta.dirname,
  { page: resolve(import.meta.dirname, 'aero-sliders-page.ts') },
  'benchSliders',
)

const request: SliderRequest = { series, params, steps: 200 }
const run = () =>
  page.evaluate(
    (r) =>
      (
        window as unknown as { benchSliders: (r: SliderRequest) => Promise<SliderReply> }
      ).benchSliders(r),
    request,
  )
await run() // warm-up: the page's code compiled and optimized
const reply = await run()
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b)
const q = (xs: number[], p: number) =>
  sorted(xs)[Math.min(xs.length - 1, Math.floor(p * xs.length))]!
console.log(
  `VE slider redraw in Chromium (${version}), ${reply.samples} samples, ` +
    `${reply.ms.length} slider steps:\n` +
    `   VE recompute + setData + draw: median ${q(reply.ms, 0.5).toFixed(2)} ms, ` +
    `p95 ${q(reply.ms, 0.95).toFixed(2)} ms, max ${q(reply.ms, 1).toFixed(2)} ms (one frame: 16.7 ms)\n` +
    `   of which VE recompute: median ${q(reply.computeMs, 0.5).toFixed(3)} ms`,
)
await close()
