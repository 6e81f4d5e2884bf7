// The browser side of preview.bench.ts: what the optimization page does on a keystroke, timed in
// Chromium. Each keystroke builds the optimizer input with the page's own builder and the change
// key the preview hook makes (JSON of the input), then hands it to the page's preview client
// (src/features/simulation/worker/preview-client.ts, debounce included) with the real preview
// worker. Timed from the last keystroke to the first answer and to the refined plan on the main
// thread; React rendering is not included.
import {
  optimizerInputOf,
  type OptimizationInputs,
  type SegmentRow,
  type SetupLike,
} from '../src/features/simulation/lib/engine-input.ts'
import {
  PreviewClient,
  type PreviewClientOptions,
  type PreviewState,
  type PreviewWorker,
} from '../src/features/simulation/worker/preview-client.ts'

export type BenchRequest = {
  rows: SegmentRow[]
  setup: SetupLike
  inputs: OptimizationInputs
  type: 'pacing' | 'equipment'
  options: PreviewClientOptions
  /**
   * `idle`: one keystroke once everything is computed; `interrupting`: a keystroke while the
   * previous keystroke's plan is being refined (after its first answer)
   */
  edit: 'idle' | 'interrupting'
  runs: number
}

export type BenchRun = {
  /** from the last keystroke to the first answer on the main thread (ms; the refined one when
   * the preview answers once) */
  firstMs: number
  /** from the last keystroke to the refined plan (ms) */
  refinedMs: number
  /** input building and change key of one keystroke on the main thread (ms) */
  keystrokeMs: number
  /** the computations inside the worker (ms) */
  firstComputeMs: number | null
  refinedComputeMs: number
  /** the first answer's per-segment optimum and the refined answer's plan and bound (s) */
  firstBoundS: number | null
  planS: number | null
  boundS: number | null
}

type Times = { bound_time_s?: number; time_s?: number; best?: { time_s: number } }

async function run(request: BenchRequest): Promise<BenchRun[]> {
  let state: PreviewState | null = null
  let waiting: ((s: PreviewState) => void) | null = null
  const client = new PreviewClient(
    (): PreviewWorker => new Worker('/worker.js', { type: 'module' }),
    (s) => {
      state = s
      waiting?.(s)
    },
    request.options,
  )
  const until = (done: (s: PreviewState) => boolean) =>
    new Promise<PreviewState>((resolve) => {
      if (state && done(state)) return resolve(state)
      waiting = (s) => {
        if (!done(s)) return
        waiting = null
        resolve(s)
      }
    })
  let cda = 0.25
  const keystroke = () => {
    const t0 = performance.now()
    cda += 0.001
    const setup = { ...request.setup, positions: [{ cda }] }
    const input = optimizerInputOf(request.rows, undefined, setup, request.inputs, request.type)
    JSON.stringify([input, request.type])
    client.update(input, request.type)
    return { t0, ms: performance.now() - t0 }
  }
  const seqAfter = (seq: number) => (s: PreviewState) => s.seq > seq
  const refined = (s: PreviewState) =>
    s.seq > 0 && s.answers === s.seq && s.stage === 'refined' && !s.computing
  const failed = (s: PreviewState) => s.error !== null

  // the page opened: its first input computed (a spare worker, if any, loads meanwhile)
  keystroke()
  await until((s) => refined(s) || failed(s))
  const runs: BenchRun[] = []
  for (let k = 0; k < request.runs; k++) {
    if (request.edit === 'interrupting') {
      const before = state!.seq
      keystroke()
      await until(seqAfter(before))
      const seq = state!.seq
      await until((s) => (s.answers === seq && s.stage !== null) || failed(s) || s.seq > seq)
    }
    const before = state!.seq
    const { t0, ms } = keystroke()
    await until(seqAfter(before))
    const seq = state!.seq
    const first = await until((s) => (s.answers === seq && s.stage !== null) || failed(s))
    const firstAt = performance.now()
    const last = await until((s) => (s.answers === seq && refined(s)) || failed(s))
    const lastAt = performance.now()
    if (last.error) throw new Error(last.error)
    const firstOut = first.output as Times | null
    const lastOut = last.output as Times
    runs.push({
      firstMs: firstAt - t0,
      refinedMs: lastAt - t0,
      keystrokeMs: ms,
      firstComputeMs: first.stage === 'first' ? first.ms : null,
      refinedComputeMs: last.ms ?? 0,
      firstBoundS: first.stage === 'first' ? (firstOut?.bound_time_s ?? null) : null,
      planS: lastOut.time_s ?? lastOut.best?.time_s ?? null,
      boundS: lastOut.bound_time_s ?? null,
    })
  }
  client.dispose()
  return runs
}

;(window as unknown as { benchPreview: typeof run }).benchPreview = run
