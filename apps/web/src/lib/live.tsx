import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react'
import { useQueryClient } from '@tanstack/react-query'
import type { LiveEventName, LiveTeamItems, RiderProfile } from '@veloptima/contracts'
import { useAuth } from './auth.ts'

type Listener = (data: unknown) => void

export type LiveState = {
  /** The caller's rider profile from the live stream: undefined until it arrived, null if none. */
  riderProfile: RiderProfile | null | undefined
  /** Sets the profile at once after a save (the stream confirms it moments later). */
  setRiderProfile(profile: RiderProfile | null): void
  /** Listens to one event type of GET /api/live; returns the unsubscribe function. */
  subscribe(event: LiveEventName, listener: Listener): () => void
}

const LiveContext = createContext<LiveState>({
  riderProfile: undefined,
  setRiderProfile: () => {},
  subscribe: () => () => {},
})

export function useLive(): LiveState {
  return useContext(LiveContext)
}

const RECONNECT_MS = 2_000

/**
 * One Server-Sent Events stream per signed-in user (GET /api/live?access_token=…). The stream
 * ends when its session token expires and EventSource cannot add a header, so on any error the
 * stream is reopened with a fresh token, resuming after the last event id received.
 */
export function LiveProvider({ children }: { children: ReactNode }) {
  const { user, getSessionToken, refreshClaims } = useAuth()
  const uid = user?.uid
  const [profile, setProfile] = useState<{ uid: string; value: RiderProfile | null }>()
  const listeners = useRef(new Map<LiveEventName, Set<Listener>>())
  const queryClient = useQueryClient()

  useEffect(() => {
    if (!uid) return
    let source: EventSource | undefined
    let timer: ReturnType<typeof setTimeout> | undefined
    let stopped = false
    let lastEventId = ''

    const dispatch = (event: LiveEventName, data: unknown) => {
      for (const listener of listeners.current.get(event) ?? []) listener(data)
    }

    const open = async () => {
      const token = await getSessionToken()
      if (stopped || !token) return
      const query = new URLSearchParams({ access_token: token })
      if (lastEventId) query.set('last_event_id', lastEventId)
      const es = new EventSource(`/api/live?${query}`)
      source = es
      es.addEventListener('rider-profile', (e) => {
        setProfile({ uid, value: JSON.parse((e as MessageEvent<string>).data) as RiderProfile })
      })
      es.addEventListener('team-item', (e) => {
        const data = JSON.parse((e as MessageEvent<string>).data) as LiveTeamItems
        // Every list and item is kept by TanStack Query under a key that starts with its
        // collection (features/*/queries): a team member's change refetches them here.
        void queryClient.invalidateQueries({ queryKey: [data.collection] })
        dispatch('team-item', data)
      })
      for (const name of ['notification', 'job'] as const) {
        es.addEventListener(name, (e) => {
          const message = e as MessageEvent<string>
          if (message.lastEventId) lastEventId = message.lastEventId
          const data = JSON.parse(message.data) as { data?: { kind?: unknown } | null }
          // A plan changed (Stripe's webhook): renew the session token, so its claims and the
          // menu entries they unlock follow without signing out.
          if (name === 'notification' && data.data?.kind === 'claims') void refreshClaims()
          dispatch(name, data)
        })
      }
      es.onerror = () => {
        es.close()
        if (stopped) return
        timer = setTimeout(() => void open(), RECONNECT_MS)
      }
    }
    void open()
    return () => {
      stopped = true
      source?.close()
      if (timer) clearTimeout(timer)
    }
  }, [uid, getSessionToken, refreshClaims, queryClient])

  // Stable, so that listeners do not re-subscribe whenever the profile changes.
  const subscribe = useCallback<LiveState['subscribe']>((event, listener) => {
    const set = listeners.current.get(event) ?? new Set()
    set.add(listener)
    listeners.current.set(event, set)
    return () => {
      set.delete(listener)
    }
  }, [])
  const value = useMemo<LiveState>(
    () => ({
      riderProfile: profile && profile.uid === uid ? profile.value : undefined,
      setRiderProfile: (value) => uid && setProfile({ uid, value }),
      subscribe,
    }),
    [profile, uid, subscribe],
  )
  return <LiveContext.Provider value={value}>{children}</LiveContext.Provider>
}
