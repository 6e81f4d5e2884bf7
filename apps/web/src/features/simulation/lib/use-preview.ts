import { useEffect, useRef, useState } from 'react'
import type { OptimizerInput } from './engine-input.ts'
import type { PreviewType } from './preview.ts'
import {
  INITIAL_PREVIEW,
  PreviewClient,
  type PreviewState,
  type PreviewWorker,
} from '../worker/preview-client.ts'

export type { PreviewState } from '../worker/preview-client.ts'

const spawnPreviewWorker = (): PreviewWorker =>
  new Worker(new URL('../worker/preview.worker.ts', import.meta.url), { type: 'module' })

/**
 * The instant preview of `input`: computed in Web Workers (worker/preview-client.ts) whenever it
 * changes, the first answer then the refined plan; typing never waits for a computation.
 */
export function usePreview(input: OptimizerInput | null, type: PreviewType): PreviewState {
  const [state, setState] = useState<PreviewState>(INITIAL_PREVIEW)
  const client = useRef<PreviewClient | null>(null)
  const key = input ? JSON.stringify([input, type]) : null

  useEffect(() => {
    const c = new PreviewClient(spawnPreviewWorker, setState)
    client.current = c
    return () => {
      c.dispose()
      client.current = null
    }
  }, [])

  useEffect(() => {
    if (input && key) client.current?.update(input, type)
    // `key` stands for input and type
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key])

  return state
}
