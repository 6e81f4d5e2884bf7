// The engine off the main thread: the page posts the optimizer input, the worker answers the
// summary (or the engine's message naming the field that is wrong). A long course gets a draft
// answer first (segments merged to ~20 m) and the full-resolution answer after it; a newer request
// replaces this worker, so an edit never waits for a stale refinement.
import { computePreview, DRAFT_ABOVE_SEGMENTS } from '../lib/preview.ts'
import type { OptimizerInput } from '../lib/engine-input.ts'

export type PreviewRequest = { id: number; input: OptimizerInput; type: 'pacing' | 'equipment' }

self.onmessage = (event: MessageEvent<PreviewRequest>) => {
  const { id, input, type } = event.data
  try {
    if (input.segments.length > DRAFT_ABOVE_SEGMENTS) {
      const started = performance.now()
      const output = computePreview(input, type, { draft: true })
      self.postMessage({ id, output, ms: performance.now() - started, draft: true })
    }
    const started = performance.now()
    const output = computePreview(input, type)
    self.postMessage({ id, output, ms: performance.now() - started, draft: false })
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) })
  }
}
