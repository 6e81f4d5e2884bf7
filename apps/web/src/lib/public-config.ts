import { useEffect, useSyncExternalStore } from 'react'

/** GET /api/public-config: the links and settings the shell needs before anyone signs in. */
export type ShellConfig = {
  support_url: string
  feedback_survey_url: string | null
  terms_url: string
  privacy_url: string
}

export type PublicConfigState = {
  data: ShellConfig | undefined
  error: Error | undefined
  isLoading: boolean
}

// Read once per page and shared by every caller (the footer's links, Support, Feedback). Plain
// React rather than TanStack Query: the landing page's footer needs it, and the query library
// loads with the signed-in app (issue 18 §4).
let state: PublicConfigState = { data: undefined, error: undefined, isLoading: true }
let request: Promise<void> | undefined
const listeners = new Set<() => void>()

function set(next: PublicConfigState) {
  state = next
  for (const listener of listeners) listener()
}

function load() {
  request ??= (async () => {
    try {
      const response = await fetch('/api/public-config')
      if (!response.ok) throw new Error(`public-config answered ${response.status}`)
      set({ data: (await response.json()) as ShellConfig, error: undefined, isLoading: false })
    } catch (error) {
      set({ data: undefined, error: error as Error, isLoading: false })
      request = undefined // the next caller to mount tries again
    }
  })()
}

const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => void listeners.delete(listener)
}

export function usePublicConfig(): PublicConfigState {
  useEffect(load, [])
  return useSyncExternalStore(subscribe, () => state)
}
