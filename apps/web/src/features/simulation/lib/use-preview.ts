import { useEffect, useRef, useState } from 'react'
import type { EngineInputs, OptimizationInputs } from './engine-input.ts'
import type { PreviewSummary } from './preview.ts'

export type PreviewState = {
  summary: PreviewSummary | null
  error: string | null
  computing: boolean
  ms: number | null
}

/**
 * Runs the pacing optimizer in a Web Worker whenever `inputs` change (debounced); a newer request
 * supersedes an older one (a busy worker is replaced rather than waited for).
 */
export function usePreview(
  inputs: EngineInputs | null,
  optimization: OptimizationInputs,
  type: 'pacing' | 'equipment',
): PreviewState {
  const [state, setState] = useState<PreviewState>({
    summary: null,
    error: null,
    computing: false,
    ms: null,
  })
  const worker = useRef<{ w: Worker; busy: boolean } | null>(null)
  const seq = useRef(0)
  const key = inputs ? JSON.stringify([inputs, optimization.equipment, type]) : null

  useEffect(() => {
    if (!inputs || !key) return
    const id = ++seq.current
    const timer = window.setTimeout(() => {
      if (worker.current?.busy) {
        worker.current.w.terminate()
        worker.current = null
      }
      if (!worker.current) {
        const w = new Worker(new URL('../worker/preview.worker.ts', import.meta.url), {
          type: 'module',
        })
        worker.current = { w, busy: false }
      }
      const slot = worker.current
      slot.busy = true
      setState((s) => ({ ...s, computing: true }))
      slot.w.onmessage = (
        e: MessageEvent<{ id: number; summary?: PreviewSummary; error?: string; ms?: number }>,
      ) => {
        slot.busy = false
        if (e.data.id !== seq.current) return
        setState({
          summary: e.data.summary ?? null,
          error: e.data.error ?? null,
          computing: false,
          ms: e.data.ms ?? null,
        })
      }
      slot.w.postMessage({ id, inputs, optimization, type })
    }, 250)
    return () => window.clearTimeout(timer)
    // key captures inputs, optimization and type
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])

  useEffect(() => () => worker.current?.w.terminate(), [])
  return state
}
