// The browser side of preview.bench.ts: what the optimization page does on an edit, timed in
// Chromium. It builds the optimizer input with the page's own builder, makes the change key the
// preview hook makes (JSON of the input), posts it to the real preview worker and waits for the
// draft and the full-resolution answers. React rendering is not included.
import {
  optimizerInputOf,
  type OptimizationInputs,
  type SegmentRow,
  type SetupLike,
} from '../src/features/simulation/lib/engine-input.ts'

export type BenchRequest = {
  rows: SegmentRow[]
  setup: SetupLike
  inputs: OptimizationInputs
  type: 'pacing' | 'equipment'
  /** a new worker for this run (module load and compile included), as after a busy worker */
  fresh: boolean
}

export type BenchReply = {
  /** input building and change key on the main thread (ms) */
  buildMs: number
  /** length of the change key (characters): what the page stringifies on every edit */
  keyChars: number
  /** from the edit's start (after the debounce) to the first answer on the main thread (ms) */
  firstMs: number
  /** the same to the full-resolution answer (ms) */
  fullMs: number
  /** computation inside the worker for the first and the full answers (ms) */
  firstComputeMs: number
  fullComputeMs: number
  draft: boolean
  /** the unsimplified optimum's time of the first and the full answers (s) */
  timeS: number | null
  fullTimeS: number | null
  error: string | null
}

type Reply = {
  ms?: number
  draft?: boolean
  error?: string
  output?: { optimal_time_s?: number; best?: { optimal_time_s?: number } }
}

const optimum = (reply: Reply) =>
  reply.output?.optimal_time_s ?? reply.output?.best?.optimal_time_s ?? null

let warm: Worker | null = null

function run(request: BenchRequest): Promise<BenchReply> {
  const t0 = performance.now()
  const input = optimizerInputOf(
    request.rows,
    undefined,
    request.setup,
    request.inputs,
    request.type,
  )
  const key = JSON.stringify([input, request.type])
  const t1 = performance.now()
  if (request.fresh || !warm) {
    warm?.terminate()
    warm = new Worker('/worker.js', { type: 'module' })
  }
  const worker = warm
  return new Promise((resolve) => {
    let first: { at: number; reply: Reply } | null = null
    worker.onmessage = (event: MessageEvent<Reply>) => {
      const at = performance.now()
      const reply = event.data
      if (!first) first = { at, reply }
      if (reply.draft && !reply.error) return
      resolve({
        buildMs: t1 - t0,
        keyChars: key.length,
        firstMs: first.at - t0,
        fullMs: at - t0,
        firstComputeMs: first.reply.ms ?? 0,
        fullComputeMs: reply.ms ?? 0,
        draft: first.reply.draft === true,
        timeS: optimum(first.reply),
        fullTimeS: optimum(reply),
        error: reply.error ?? null,
      })
    }
    worker.postMessage({ id: 1, input, type: request.type })
  })
}

;(window as unknown as { benchPreview: typeof run }).benchPreview = run
