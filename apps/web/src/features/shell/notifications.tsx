import { useQuery } from '@tanstack/react-query'
import { useCallback, useEffect, useRef } from 'react'
import { useNavigate } from 'react-router'
import type { NavigateFunction } from 'react-router'
import { toast } from '../../lib/toast.tsx'
import type { DownloadUrl, Notification } from '@veloptima/contracts'
import { DownloadIcon } from '../../components/icons.tsx'
import { api } from '../../lib/api-client.ts'
import { useAuth } from '../../lib/auth.ts'
import { useLive } from '../../lib/live.tsx'
import { unshownNotificationsQuery } from './lib/queries.ts'

/** Appends the download link when the notification carries a stored file. */
async function downloadUrlOf(n: Notification): Promise<string | undefined> {
  if (!n.download_blob) return undefined
  try {
    const { url } = await api<DownloadUrl>(
      `/api/files/${encodeURIComponent(n.download_blob)}/download-url`,
    )
    return url
  } catch (error) {
    // docs/specification.md §4: a link failure is only logged; the notification still shows.
    console.warn('No download link for notification', n.id, error)
    return undefined
  }
}

/**
 * The aero session a notification is about ("Aero analysis ready" / "failed": data carries
 * aero_session_id and aero_session_format), as its route /aero/sessions/<format>/<id>.
 */
export function sessionPathOf(n: Pick<Notification, 'data'>): string | undefined {
  const id = n.data?.aero_session_id
  if (typeof id !== 'string' || id === '') return undefined
  const format = n.data?.aero_session_format === 'v5' ? 'v5' : 'v6'
  return `/aero/sessions/${format}/${encodeURIComponent(id)}`
}

const linkClass =
  'inline-flex items-center gap-1 font-semibold text-brand-700 underline underline-offset-2'

function show(n: Notification, url: string | undefined, navigate: (to: string) => unknown) {
  const session = sessionPathOf(n)
  const kind = n.type === 'error' ? toast.error : n.type === 'success' ? toast.success : toast
  kind(n.title, {
    id: `notification-${n.id}`,
    duration: Infinity,
    closeButton: true,
    description: (
      <span data-testid="notification-text">
        {n.text}
        {url && (
          <>
            {' '}
            <a href={url} download className={linkClass}>
              <DownloadIcon className="h-4 w-4" />
              Download
            </a>
          </>
        )}
        {session && (
          <>
            {' '}
            <a
              href={session}
              className={linkClass}
              onClick={(e) => {
                // the popup lives outside the routes: navigate in the app, new tab on modifiers
                if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return
                e.preventDefault()
                void navigate(session)
              }}
            >
              Open session
            </a>
          </>
        )}
      </span>
    ),
  })
}

/** Sets a notification showed, so that it pops up once; a failure is only logged. */
async function markShowed(n: Notification) {
  try {
    await api(`/api/notifications/${encodeURIComponent(n.id)}`, {
      method: 'PATCH',
      body: { showed: true },
    })
  } catch (error) {
    console.warn('Could not mark notification showed', n.id, error)
  }
}

/**
 * Shows the current user's unshown notifications (the initial GET /api/notifications?showed=false
 * and then live ones) as popups at the bottom right that never auto-close, then marks each showed.
 */
export function Notifications() {
  const { user } = useAuth()
  const { subscribe } = useLive()
  // a ref: the effects (subscription and first page) must not re-run when navigate changes
  const routerNavigate = useNavigate()
  const navigate = useRef<NavigateFunction>(routerNavigate)
  useEffect(() => {
    navigate.current = routerNavigate
  }, [routerNavigate])
  const seen = useRef(new Set<string>())
  const uid = user?.uid
  const unshown = useQuery({ ...unshownNotificationsQuery(uid ?? ''), enabled: Boolean(uid) })

  /** Shows `n` once when it is the user's and not shown yet, then marks it showed. */
  const handle = useCallback(
    async (n: Notification, active: () => boolean) => {
      if (!active() || n.showed || n.user !== uid || seen.current.has(n.id)) return
      seen.current.add(n.id)
      show(n, await downloadUrlOf(n), (to) => navigate.current(to))
      await markShowed(n)
    },
    [uid],
  )

  useEffect(() => {
    if (!uid) return
    let active = true
    const unsubscribe = subscribe('notification', (data) => {
      void handle(data as Notification, () => active)
    })
    return () => {
      active = false
      unsubscribe()
    }
  }, [uid, subscribe, handle])

  useEffect(() => {
    if (!uid) return
    let active = true
    unshown.data?.items.forEach((n) => void handle(n, () => active))
    return () => {
      active = false
    }
  }, [uid, unshown.data, handle])

  useEffect(() => {
    if (unshown.error) console.warn('Could not load notifications', unshown.error)
  }, [unshown.error])
  return null
}
