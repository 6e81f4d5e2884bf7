// What the page and the preview worker say to each other, and the worker's side of it: for each
// input (numbered by the page) the first answer, then the refined one (lib/preview.ts). Both run
// synchronously: a newer input cannot interrupt them by a message, so the page replaces a busy
// worker (worker/preview-client.ts) and drops every answer that is not for its latest input.
import type { OptimizerInput } from '../lib/engine-input.ts'
import { firstAnswer, preparePreview, refinedAnswer, type PreviewType } from '../lib/preview.ts'
import type { RunOutput } from '../lib/run-output.ts'

/** `first`: the per-segment optimum and the best constant power; `refined`: the rideable plan. */
export type PreviewStage = 'first' | 'refined'

/** Which answers a worker computes: both in turn, or one (two workers share an input). */
export type PreviewSteps = 'both' | PreviewStage

export type PreviewRequest = {
  seq: number
  input: OptimizerInput
  type: PreviewType
  steps: PreviewSteps
}

export type PreviewReply =
  | { seq: number; stage: PreviewStage; output: RunOutput; ms: number }
  /** the input cannot be computed (the engine's message naming the field); nothing follows */
  | { seq: number; stage: 'refined'; error: string }

/** Answers one request: the first answer (pacing), then the refined one, or an error. */
export function answerPreview(request: PreviewRequest, post: (reply: PreviewReply) => void): void {
  const { seq, input, type, steps } = request
  try {
    let started = performance.now()
    const prepared = preparePreview(input)
    const first = steps === 'refined' ? null : firstAnswer(prepared, type)
    if (first) {
      post({ seq, stage: 'first', output: first, ms: performance.now() - started })
      started = performance.now()
    }
    if (steps === 'first' && first) return
    post({
      seq,
      stage: 'refined',
      output: refinedAnswer(prepared, type),
      ms: performance.now() - started,
    })
  } catch (error) {
    post({ seq, stage: 'refined', error: error instanceof Error ? error.message : String(error) })
  }
}
