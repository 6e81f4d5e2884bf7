// `npm run bench`: the instant preview of the optimization page (the predicted time and plan
// within a second for courses up to 200 km, docs/web-app.md), measured where it runs: the real
// preview worker (src/features/simulation/worker/preview.worker.ts), bundled by Vite, in Debian's
// headless Chromium. For each course it prints the time from an edit to the first answer (the
// draft on long courses) and to the full-resolution answer, on the main thread: the page's input
// building and change key, the message to the worker, the computation, the reply. The page's
// 250 ms debounce comes before that and React's render after it; both are printed, not measured.
// Courses are stored by the API with at most 5 000 segments (segmentLengthFor: 40 m at 200 km),
// so the long courses here are merged the same way. Nothing here asserts time.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { exitWithoutChromium, openBenchPage } from './browser-harness.ts'
import { courseFromSegments, mergeSegments, type Course } from '@veloptima/engine'
import { importCourse } from '@veloptima/formats'
import { coursesDir, ventouxUpAndDown } from '../../../packages/formats/bench/ventoux-course.ts'
import type {
  OptimizationInputs,
  SegmentRow,
  SetupLike,
} from '../src/features/simulation/lib/engine-input.ts'
import { optimizerInputOf } from '../src/features/simulation/lib/engine-input.ts'
import { computePreview, DRAFT_ABOVE_SEGMENTS } from '../src/features/simulation/lib/preview.ts'
import type { BenchReply, BenchRequest } from './preview-page.ts'

exitWithoutChromium()

/** The API's segment length for a course of this length (apps/api course-rows.ts). */
const apiSegmentLength = (distanceM: number) => Math.max(10, Math.ceil(distanceM / 5000))

function rowsOf(course: Course): SegmentRow[] {
  return Array.from({ length: course.n }, (_, i) => ({
    start: course.start[i]!,
    end: course.start[i + 1]!,
    grade: course.grade[i]!,
    heading: (course.heading[i]! * 180) / Math.PI,
    radius: Number.isFinite(course.radius[i]!) ? course.radius[i]! : null,
    altitude: course.altitude[i]!,
  }))
}

function ventoux(km: number): { label: string; rows: SegmentRow[] } {
  const fine = ventouxUpAndDown(km * 100)
  const length = apiSegmentLength(km * 1000)
  const course = courseFromSegments(mergeSegments(fine.segments, length), fine.startAltitudeM)
  return { label: `${km} km Mont Ventoux up and down (${length} m)`, rows: rowsOf(course) }
}

function real(name: string): { label: string; rows: SegmentRow[] } {
  const course = importCourse(readFileSync(resolve(coursesDir, name)), name).course
  return { label: name, rows: rowsOf(course) }
}

const setup: SetupLike = {
  rider_mass: 75,
  bike_mass: 8,
  extra_mass: 1,
  positions: [{ cda: 0.25 }],
  crr: { smooth: 0.0032, normal: 0.004, rough: 0.0055 },
  drivetrain_efficiency: 0.976,
  wheel_inertia: 0.14,
  cp: 300,
  w_prime: 20000,
  max_power: 700,
}
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
const runs = 5

async function measure(request: BenchRequest): Promise<BenchReply[]> {
  const replies: BenchReply[] = []
  for (let k = 0; k < runs + 1; k++) {
    const reply = await page.evaluate(
      (r) =>
        (
          window as unknown as { benchPreview: (r: BenchRequest) => Promise<BenchReply> }
        ).benchPreview(r),
      request,
    )
    if (reply.error) throw new Error(reply.error)
    if (k > 0) replies.push(reply) // the first run warms up the page's own code
  }
  return replies
}

console.log(
  `Instant preview in Chromium (${version}), median of ${runs}; ` +
    'ms from the edit (after the 250 ms debounce) to the answer on the page',
)
const courses = [real('alpe-dhuez.gpx'), ventoux(100), ventoux(200)]
for (const course of courses) {
  for (const [type, inputs] of [
    ['pacing', pacing],
    ['equipment', equipment],
  ] as const) {
    if (type === 'equipment' && course !== courses.at(-1)) continue
    const request = { rows: course.rows, setup, inputs, type }
    const warm = await measure({ ...request, fresh: false })
    const cold = await measure({ ...request, fresh: true })
    // The same computation in Node, for the ratio of the browser's engine to Node's.
    const input = optimizerInputOf(course.rows, undefined, setup, inputs, type)
    const long = course.rows.length > DRAFT_ABOVE_SEGMENTS
    const nodeMs: number[] = []
    for (let k = 0; k < 3; k++) {
      const t0 = performance.now()
      computePreview(input, type, { draft: long })
      nodeMs.push(performance.now() - t0)
    }
    const first = warm[0]!
    const gap = first.fullTimeS && first.timeS ? (first.timeS / first.fullTimeS - 1) * 100 : 0
    console.log(
      `${course.label}, ${course.rows.length} segments, ${type}${type === 'equipment' ? ' (2 wheels)' : ''}\n` +
        `   first answer${first.draft ? ' (draft)' : ''}: ${median(warm.map((r) => r.firstMs)).toFixed(0)} ms ` +
        `(new worker ${median(cold.map((r) => r.firstMs)).toFixed(0)} ms; input and key ` +
        `${median(warm.map((r) => r.buildMs)).toFixed(0)} ms; computing ${median(warm.map((r) => r.firstComputeMs)).toFixed(0)} ms, ` +
        `in Node ${median(nodeMs).toFixed(0)} ms)\n` +
        `   full resolution: ${median(warm.map((r) => r.fullMs)).toFixed(0)} ms ` +
        `(new worker ${median(cold.map((r) => r.fullMs)).toFixed(0)} ms)` +
        (first.draft
          ? `; the draft's optimum ${gap >= 0 ? '+' : ''}${gap.toFixed(2)} % against it`
          : '') +
        `; optimum ${first.fullTimeS?.toFixed(1)} s`,
    )
  }
}
await close()
