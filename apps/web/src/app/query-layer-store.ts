import { useSyncExternalStore } from 'react'
import type * as QueryLayerModule from './query-layer.tsx'

/**
 * The signed-in app's data layer (TanStack Query, the live stream, the user's units) is its own
 * chunk: the landing page does not load it. It loads when someone is signed in and
 * before any page other than the landing page renders (router.tsx waits for it in every lazy
 * route); this module, in the first chunk, only knows whether it has arrived.
 */
export type QueryLayer = typeof QueryLayerModule

let layer: QueryLayer | undefined
let loading: Promise<QueryLayer> | undefined
const listeners = new Set<() => void>()

/** Loads the data layer once (again after a failed attempt); resolves when it is ready. */
export function loadQueryLayer(): Promise<QueryLayer> {
  loading ??= import('./query-layer.tsx').then(
    (module) => {
      layer = module
      for (const listener of listeners) listener()
      return module
    },
    (error: unknown) => {
      loading = undefined
      throw error
    },
  )
  return loading
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => void listeners.delete(listener)
}

/** The data layer once loaded, else undefined (re-renders when it arrives). */
export function useQueryLayer(): QueryLayer | undefined {
  return useSyncExternalStore(subscribe, () => layer)
}
