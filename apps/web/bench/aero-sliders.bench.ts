// `npm run bench -- aero-sliders`: the VE sliders of the aero session page (issue 14: "slider
// redraw < 16 ms in the browser bench"), measured where they run: the page's own VE code
// (src/features/aero/ve.ts → the engine's virtualElevation) and uPlot, bundled by Vite, in
// Debian's headless Chromium. The run is 3,600 samples (1 h at 1 Hz) of a real ride, the
// five-lap demo (PeakPacer's demo.fit), prepared as the API's run block holds it. Per slider
// step: VE recompute, setData and uPlot's draw. Prints ms; nothing here asserts time.
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { resolve } from 'node:path'
import { chromium } from '@playwright/test'
import { build } from 'vite'
import { prepareVe } from '@veloptima/engine'
import { readActivity } from '@veloptima/formats'
import { chromiumArgs, chromiumPath } from '../../../e2e/chromium.ts'
import type { RunParamsJson, RunSeriesJson } from '../src/features/aero/ve.ts'
import type { SliderReply, SliderRequest } from './aero-sliders-page.ts'

if (!existsSync(chromiumPath)) {
  console.log(
    `Chromium not found at ${chromiumPath}: install Debian's chromium (npm test does as root).`,
  )
  process.exit(0)
}

const N = 3600
const file = resolve(import.meta.dirname, '../../../../shared/data/aero/five-laps-cda-demo.fit')
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
const params: RunParamsJson = {
  cda: 0.3,
  crr: 0.004,
  mass_kg: 80,
  drivetrain_efficiency: 0.976,
  wind_e: 0,
  wind_n: 0,
  offset_m: series.elevation?.[0] ?? 0,
}

const output = await build({
  configFile: false,
  logLevel: 'silent',
  root: import.meta.dirname,
  build: {
    write: false,
    minify: true,
    lib: {
      entry: { page: resolve(import.meta.dirname, 'aero-sliders-page.ts') },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
  },
})
const files = new Map<string, string>()
for (const result of Array.isArray(output) ? output : [output]) {
  if (!('output' in result)) continue
  for (const item of result.output) {
    if (item.type === 'chunk') files.set(`/${item.fileName}`, item.code)
  }
}
const html = '<!doctype html><meta charset="utf-8"><script type="module" src="/page.js"></script>'
const server = createServer((req, res) => {
  const path = (req.url ?? '/').split('?')[0]!
  const body = path === '/' ? html : files.get(path)
  if (body === undefined) {
    res.writeHead(404).end()
    return
  }
  res.writeHead(200, { 'content-type': path === '/' ? 'text/html' : 'text/javascript' })
  res.end(body)
})
await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
const port = (server.address() as AddressInfo).port

const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
const page = await browser.newPage()
await page.goto(`http://127.0.0.1:${port}/`)
await page.waitForFunction(() => 'benchSliders' in window)

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
  `VE slider redraw in Chromium (${(await browser.version()).split(' ')[0]}), ${reply.samples} samples, ` +
    `${reply.ms.length} slider steps:\n` +
    `   VE recompute + setData + draw: median ${q(reply.ms, 0.5).toFixed(2)} ms, ` +
    `p95 ${q(reply.ms, 0.95).toFixed(2)} ms, max ${q(reply.ms, 1).toFixed(2)} ms (one frame: 16.7 ms)\n` +
    `   of which VE recompute: median ${q(reply.computeMs, 0.5).toFixed(3)} ms`,
)
await browser.close()
server.close()
