// The engine off the main thread: the page posts the optimizer input, the worker answers the
// summary (or the engine's message naming the field that is wrong).
import { computePreview } from '../lib/preview.ts'
import type { OptimizerInput } from '../lib/engine-input.ts'

export type PreviewRequest = { id: number; input: OptimizerInput; type: 'pacing' | 'equipment' }

self.onmessage = (event: MessageEvent<PreviewRequest>) => {
  const { id, input, type } = event.data
  const started = performance.now()
  try {
    const output = computePreview(input, type)
    self.postMessage({ id, output, ms: performance.now() - started })
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) })
  }
}
