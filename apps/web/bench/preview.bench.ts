// `npm run bench -- preview`: the instant preview of the optimization page, measured where it runs:
// the page's preview client and the real preview worker (src/features/simulation/worker/), bundled
// by Vite, in Debian's headless Chromium. For each course it prints the time from the last
// keystroke to the first answer (the steady power and the per-segment optimum) and to the refined
// plan, debounce included, React's render not included:
//   - idle: a keystroke once everything is computed (the worker reuses its warm engine);
//   - interrupting: a keystroke while the previous one's plan is being refined (after its first
//     answer), with each way of replacing the busy worker (worker/preview-client.ts).
// Courses are stored by the API with at most 5 000 segments (segmentLengthFor: 36 m at 180 km),
// so the long course here is merged the same way. The real Mont Ventoux GPX comes from the shared
// real-world files; without it the bench says so and exits. Nothing here asserts time.
import { resolve } from 'node:path'
import { readFileSync } from 'node:fs'
import { exitWithoutChromium, openBenchPage } from './browser-harness.ts'
import { courseFromSegments, mergeSegments } from '@veloptima/engine'
import { importCourse } from '@veloptima/formats'
import { needs } from '../../../scripts/test-data.ts'
import type {
  OptimizationInputs,
  SegmentRow,
  SetupLike,
} from '../src/features/simulation/lib/engine-input.ts'
import type { PreviewClientOptions } from '../src/features/simulation/worker/preview-client.ts'
import { PREVIEW_DEFAULTS } from '../src/features/simulation/worker/preview-client.ts'
import { previewSetup, segmentRowsOf } from '../src/features/simulation/lib/preview-fixtures.ts'
import type { BenchRequest, BenchRun } from './preview-page.ts'

exitWithoutChromium()
const VENTOUX = 'courses/mont-ventoux-bedoin.gpx'
const data = needs(VENTOUX)
if (data.skip) {
  console.log(`Instant preview bench skipped: ${data.reason}`)
  process.exit(0)
}
const { ventouxUpAndDown } = await import('../../../packages/formats/bench/ventoux-course.ts')

/** The API's segment length for a course of this length (apps/api course-rows.ts). */
const apiSegmentLength = (distanceM: number) => Math.max(10, Math.ceil(distanceM / 5000))

/** The climb from Bédoin as the API stores it (10 m). */
function ventouxClimb(): { label: string; rows: SegmentRow[] } {
  const course = importCourse(readFileSync(data.path(VENTOUX)), 'mont-ventoux-bedoin.gpx', {
    segmentLengthM: 10,
  }).course
  const km = (course.start[course.n]! / 1000).toFixed(1)
  return { label: `Mont Ventoux from Bédoin, ${km} km at 10 m`, rows: segmentRowsOf(course) }
}

function ventoux(km: number): { label: string; rows: SegmentRow[] } {
  const fine = ventouxUpAndDown(km * 100)
  const length = apiSegmentLength(km * 1000)
  const course = courseFromSegments(mergeSegments(fine.segments, length), fine.startAltitudeM)
  return { label: `${km} km Mont Ventoux up and down (${length} m)`, rows: segmentRowsOf(course) }
}

const setup: SetupLike = previewSetup({ rider_mass: 75, positions: [{ cda: 0.25 }], cp: 300 })
const pacing: OptimizationInputs = {
  environment: { temperature_c: 20, wind_speed_mps: 3, wind_from_deg: 300 },
  constraint: { type: 'w_prime_balance' },
  max_targets: 20,
}
const equipment: OptimizationInputs = {
  ...pacing,
  equipment: {
    groups: {
      wheels: [
        { name: 'Shallow 30 mm', cda_delta_m2: 0 },
        { name: 'Deep 80 mm', cda_delta_m2: -0.008, mass_delta_kg: 0.4 },
      ],
    },
  },
}

// The page and the worker, bundled by Vite as the app's build bundles the worker.
const { page, version, close } = await openBenchPage(
  import.meta.dirname,
  {
    page: resolve(import.meta.dirname, 'preview-page.ts'),
    worker: resolve(import.meta.dirname, '../src/features/simulation/worker/preview.worker.ts'),
  },
  'benchPreview',
)

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const runs = Number(process.env.PREVIEW_BENCH_RUNS ?? 5)
const ms = (x: number) => `${x.toFixed(0)} ms`

async function measure(request: Omit<BenchRequest, 'runs'>): Promise<BenchRun[]> {
  return page.evaluate(
    (r) =>
      (
        window as unknown as { benchPreview: (r: BenchRequest) => Promise<BenchRun[]> }
      ).benchPreview(r),
    { ...request, runs },
  )
}

function line(label: string, r: BenchRun[]): string {
  const first = r[0]!
  const compute =
    first.firstComputeMs === null
      ? `computing ${ms(median(r.map((x) => x.refinedComputeMs)))}`
      : `computing ${ms(median(r.map((x) => x.firstComputeMs!)))} + ${ms(median(r.map((x) => x.refinedComputeMs)))}`
  return (
    `   ${label}: first answer ${ms(median(r.map((x) => x.firstMs)))}, ` +
    `refined plan ${ms(median(r.map((x) => x.refinedMs)))} (${compute} in the worker)`
  )
}

console.log(
  `Instant preview in Chromium (${version}), median of ${runs}; ms from the last keystroke ` +
    `(debounce ${PREVIEW_DEFAULTS.debounceMs} ms included) on the main thread`,
)
const policies: [string, PreviewClientOptions][] = [
  ['two workers (first-answer worker kept, refining one replaced by a spare)', PREVIEW_DEFAULTS],
  ['one worker replaced by a spare', { ...PREVIEW_DEFAULTS, lanes: 1 }],
  ['one worker replaced by a new one', { ...PREVIEW_DEFAULTS, lanes: 1, spare: false }],
]
for (const course of [ventouxClimb(), ventoux(180)]) {
  for (const [type, inputs] of [
    ['pacing', pacing],
    ['equipment', equipment],
  ] as const) {
    if (type === 'equipment' && course.rows.length < 3000) continue
    const base = { rows: course.rows, setup, inputs, type }
    const idle = await measure({ ...base, options: PREVIEW_DEFAULTS, edit: 'idle' })
    const r = idle[0]!
    console.log(
      `${course.label}, ${course.rows.length} segments, ${type}` +
        `${type === 'equipment' ? ' (2 wheels, one answer)' : ''}; keystroke on the main ` +
        `thread ${median(idle.map((x) => x.keystrokeMs)).toFixed(1)} ms\n` +
        line('idle', idle) +
        (r.firstBoundS !== null
          ? `\n   first answer's optimum ${r.firstBoundS.toFixed(1)} s, refined ${r.boundS?.toFixed(1)} s, plan ${r.planS?.toFixed(1)} s`
          : ''),
    )
    if (type === 'equipment') continue
    for (const [label, options] of policies) {
      console.log(
        line(`interrupting, ${label}`, await measure({ ...base, options, edit: 'interrupting' })),
      )
    }
  }
}
await close()
