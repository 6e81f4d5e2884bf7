import { useEffect, useRef, useState } from 'react'
import type { OptimizerInput } from './engine-input.ts'
import type { RunOutput } from './run-output.ts'

export type PreviewState = {
  output: RunOutput | null
  error: string | null
  computing: boolean
  ms: number | null
  /** the output is the quick draft of a long course; the full resolution is being computed */
  draft: boolean
}

type Reply = { id: number; output?: RunOutput; error?: string; ms?: number; draft?: boolean }

/**
 * Runs the optimizer in a Web Worker whenever `input` changes (debounced); a newer request
 * supersedes an older one (a busy worker is replaced rather than waited for).
 */
export function usePreview(
  input: OptimizerInput | null,
  type: 'pacing' | 'equipment',
): PreviewState {
  const [state, setState] = useState<PreviewState>({
    output: null,
    error: null,
    computing: false,
    ms: null,
    draft: false,
  })
  const worker = useRef<{ w: Worker; busy: boolean } | null>(null)
  const seq = useRef(0)
  const key = input ? JSON.stringify([input, type]) : null

  useEffect(() => {
    if (!input || !key) return
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
      slot.w.onmessage = (e: MessageEvent<Reply>) => {
        const draft = e.data.draft === true
        if (!draft) slot.busy = false
        if (e.data.id !== seq.current) return
        setState({
          output: e.data.output ?? null,
          error: e.data.error ?? null,
          computing: draft,
          ms: e.data.ms ?? null,
          draft,
        })
      }
      slot.w.postMessage({ id, input, type })
    }, 250)
    return () => window.clearTimeout(timer)
    // `key` stands for input and type
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])

  useEffect(() => () => worker.current?.w.terminate(), [])
  return state
}
