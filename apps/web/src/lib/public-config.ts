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

// Read once per page and shared by every caller (the footer's links, Support, Feedback, the
// sign-in's provider settings, the maps' tile server). Plain React rather than TanStack Query:
// the landing page's footer needs it, and the query library loads with the signed-in app.
let json: Promise<unknown> | undefined

/**
 * The whole answer of GET /api/public-config, one request per page load for every caller; a
 * failed request is forgotten, so the next caller tries again.
 */
export function publicConfigJson(): Promise<unknown> {
  json ??= (async () => {
    const response = await fetch('/api/public-config', { signal: AbortSignal.timeout(10_000) })
    if (!response.ok) throw new Error(`public-config answered HTTP ${response.status}`)
    return response.json() as Promise<unknown>
  })().catch((error: unknown) => {
    json = undefined
    throw error
  })
  return json
}

/** The configured map tile URL (null: none, or the configuration could not be read). */
export async function mapTileUrl(): Promise<string | null> {
  try {
    const c = (await publicConfigJson()) as { map_tile_url?: string | null }
    return c.map_tile_url || null
  } catch {
    return null
  }
}

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
      set({ data: (await publicConfigJson()) as ShellConfig, error: undefined, isLoading: false })
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
