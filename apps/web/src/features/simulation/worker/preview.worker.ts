// The engine off the main thread: the page posts engine inputs, the worker answers the summary.
import { computePreview } from '../lib/preview.ts'
import type { EngineInputs, OptimizationInputs } from '../lib/engine-input.ts'

export type PreviewRequest = {
  id: number
  inputs: EngineInputs
  optimization: OptimizationInputs
  type: 'pacing' | 'equipment'
}

self.onmessage = (event: MessageEvent<PreviewRequest>) => {
  const { id, inputs, optimization, type } = event.data
  const started = performance.now()
  try {
    const summary = computePreview(inputs, optimization, type)
    self.postMessage({ id, summary, ms: performance.now() - started })
  } catch (error) {
    self.postMessage({ id, error: error instanceof Error ? error.message : String(error) })
  }
}
