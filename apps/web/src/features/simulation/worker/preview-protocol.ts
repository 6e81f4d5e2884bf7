// What the page and the preview worker say to each other, and the worker's side of it: for each
// input (numbered by the page) the first answer, then the refined one, then, where the scenario
// asks for heat, altitude, durability or rules, the refined one with their costs
// (lib/preview.ts). All run
// synchronously: a newer input cannot interrupt them by a message, so the page replaces a busy
// worker (worker/preview-client.ts) and drops every answer that is not for its latest input.
import type { OptimizerInput } from '../lib/engine-input.ts'
import { firstAnswer, preparePreview, refinedSteps, type PreviewType } from '../lib/preview.ts'
import type { RunOutput } from '../lib/run-output.ts'

/**
 * `first`: the per-segment optimum and the best constant power; `refined`: the rideable plan;
 * `costs`: the rideable plan with what each asked effect and rule costs it.
 */
export type PreviewStage = 'first' | 'refined' | 'costs'

/**
 * Which answers a worker computes: all in turn, the first only, or the refined one and its costs
 * (two workers share an input).
 */
export type PreviewSteps = 'both' | 'first' | 'refined'

export type PreviewRequest = {
  seq: number
  input: OptimizerInput
  type: PreviewType
  steps: PreviewSteps
}

export type PreviewReply =
  /** `ms`: the computation since the refined answer's start (the first answer: its own);
   * `done`: the worker sends nothing more for this input */
  | { seq: number; stage: PreviewStage; output: RunOutput; ms: number; done: boolean }
  /** the input cannot be computed (the engine's message naming the field); nothing follows */
  | { seq: number; stage: 'refined'; error: string }

/** Answers one request: the first answer (pacing), the refined one and its costs, or an error. */
export function answerPreview(request: PreviewRequest, post: (reply: PreviewReply) => void): void {
  const { seq, input, type, steps } = request
  try {
    let started = performance.now()
    const prepared = preparePreview(input)
    const first = steps === 'refined' ? null : firstAnswer(prepared, type)
    if (first) {
      const done = steps === 'first'
      post({ seq, stage: 'first', output: first, ms: performance.now() - started, done })
      if (done) return
      started = performance.now()
    }
    const refined = refinedSteps(prepared, type)
    const ms = () => performance.now() - started
    post({ seq, stage: 'refined', output: refined.plan, ms: ms(), done: !refined.costs })
    if (refined.costs) post({ seq, stage: 'costs', output: refined.costs(), ms: ms(), done: true })
  } catch (error) {
    post({ seq, stage: 'refined', error: error instanceof Error ? error.message : String(error) })
  }
}
