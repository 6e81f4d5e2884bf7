// The page's side of the preview workers: numbers each input, shows only answers to the latest
// one (the first answer, then the refined plan replacing it, then the plan with its costs where
// the scenario asks for any) and never waits for a stale
// computation. Two workers share each pacing input (docs/benchmarks.md, "Instant preview", for
// the measurements behind this):
//   - the first-answer worker computes the quick answer (a fraction of a second) and lives as long
//     as the page, so its engine stays compiled; an input arriving while it is busy waits for it,
//     and only the latest waiting input is computed;
//   - the refining worker computes the rideable plan (seconds). A worker busy in the engine cannot
//     be interrupted by a message, so a newer input terminates it and goes to a spare worker that
//     has already loaded the engine; a new spare starts beside it.
// With `lanes: 1` one worker computes both answers in turn and is replaced when busy.
import type { OptimizerInput } from '../lib/engine-input.ts'
import type { PreviewType } from '../lib/preview.ts'
import type { RunOutput } from '../lib/run-output.ts'
import type {
  PreviewReply,
  PreviewRequest,
  PreviewStage,
  PreviewSteps,
} from './preview-protocol.ts'

export type PreviewState = {
  output: RunOutput | null
  error: string | null
  /** which answer `output` is (null before any) */
  stage: PreviewStage | null
  /** an answer to the latest input is still to come (the shown one may be older or first) */
  computing: boolean
  /** the shown refined plan is the latest input's and its costs are being computed */
  costsPending: boolean
  /** the computation of the shown answer in the worker (ms) */
  ms: number | null
  /** the latest input's number, and the number `output` answers */
  seq: number
  answers: number
}

/** The part of a Web Worker the client uses (a real Worker in the page). */
export type PreviewWorker = {
  postMessage(request: PreviewRequest): void
  terminate(): void
  onmessage: ((event: MessageEvent<PreviewReply>) => void) | null
}

export type PreviewClientOptions = {
  /** ms from an edit to its computation; newer edits within it replace it */
  debounceMs: number
  /** 2: a first-answer worker beside the refining one; 1: one worker computes both in turn */
  lanes: 1 | 2
  /** a spare worker takes over from a busy refining one (else a new worker at that moment) */
  spare: boolean
}

/** Chosen from docs/benchmarks.md, "Instant preview". */
export const PREVIEW_DEFAULTS: PreviewClientOptions = { debounceMs: 60, lanes: 2, spare: true }

export const INITIAL_PREVIEW: PreviewState = {
  output: null,
  error: null,
  stage: null,
  computing: false,
  costsPending: false,
  ms: null,
  seq: 0,
  answers: 0,
}

type Slot = { worker: PreviewWorker; busy: boolean }
type Job = Omit<PreviewRequest, 'steps'>

export class PreviewClient {
  state: PreviewState = INITIAL_PREVIEW
  private readonly spawn: () => PreviewWorker
  private readonly onChange: (state: PreviewState) => void
  private readonly options: PreviewClientOptions
  /** the worker of the refined answers (of both, with one lane) */
  private refining: Slot | null = null
  private spare: PreviewWorker | null = null
  /** the worker of the first answers, and the latest input waiting for it */
  private quick: Slot | null = null
  private waiting: Job | null = null
  private timer: ReturnType<typeof setTimeout> | null = null

  constructor(
    spawn: () => PreviewWorker,
    onChange: (state: PreviewState) => void,
    options: PreviewClientOptions = PREVIEW_DEFAULTS,
  ) {
    this.spawn = spawn
    this.onChange = onChange
    this.options = options
  }

  /** An edit: the shown answer is out of date at once; the input is computed after the debounce. */
  update(input: OptimizerInput, type: PreviewType): void {
    if (this.timer !== null) clearTimeout(this.timer)
    this.set({ ...this.state, computing: true, costsPending: false })
    this.timer = setTimeout(() => {
      this.timer = null
      this.request(input, type)
    }, this.options.debounceMs)
  }

  /** Computes `input` now: a busy refining worker is replaced, every older answer is dropped. */
  request(input: OptimizerInput, type: PreviewType): number {
    const job: Job = { seq: this.state.seq + 1, input, type }
    this.set({ ...this.state, seq: job.seq, computing: true, costsPending: false })
    const split = this.options.lanes === 2 && type === 'pacing'
    if (this.refining?.busy) {
      this.refining.worker.terminate()
      this.refining = null
    }
    this.refining ??= { worker: this.takeSpare(), busy: false }
    this.post(this.refining, job, split ? 'refined' : 'both')
    if (split) {
      this.quick ??= { worker: this.spawn(), busy: false }
      if (this.quick.busy) this.waiting = job
      else this.post(this.quick, job, 'first')
    }
    if (this.options.spare && !this.spare) this.spare = this.spawn()
    return job.seq
  }

  /** Stops every worker (the page is left). */
  dispose(): void {
    if (this.timer !== null) clearTimeout(this.timer)
    for (const worker of [this.refining?.worker, this.quick?.worker, this.spare])
      worker?.terminate()
    this.refining = null
    this.quick = null
    this.spare = null
  }

  private post(slot: Slot, job: Job, steps: PreviewSteps): void {
    slot.busy = true
    slot.worker.onmessage = (event) => this.receive(slot, event.data)
    slot.worker.postMessage({ ...job, steps })
  }

  private receive(slot: Slot, reply: PreviewReply): void {
    // a worker is free once it has sent its last answer to the input it was given
    if ('error' in reply || reply.done) {
      slot.busy = false
      if (slot === this.quick && this.waiting) {
        const job = this.waiting
        this.waiting = null
        this.post(slot, job, 'first')
      }
    }
    if (reply.seq !== this.state.seq) return
    // the refining worker can answer first on a short course: its answer stays
    if (reply.stage === 'first' && this.state.answers === reply.seq) return
    // the last answer: the refined plan when no costs follow, else the plan with its costs
    const last = reply.stage !== 'first' && ('error' in reply || reply.done)
    this.set(
      'error' in reply
        ? {
            ...this.state,
            output: null,
            error: reply.error,
            stage: null,
            computing: false,
            costsPending: false,
            ms: null,
          }
        : {
            ...this.state,
            output: reply.output,
            error: null,
            stage: reply.stage,
            computing: !last || this.timer !== null,
            costsPending: reply.stage === 'refined' && !last && this.timer === null,
            ms: reply.ms,
            answers: reply.seq,
          },
    )
  }

  private takeSpare(): PreviewWorker {
    const spare = this.spare
    this.spare = null
    return spare ?? this.spawn()
  }

  private set(state: PreviewState): void {
    this.state = state
    this.onChange(state)
  }
}
