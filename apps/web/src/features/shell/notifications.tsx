import { useEffect, useRef } from 'react'
import { toast } from '../../lib/toast.tsx'
import type { Notification, Page } from '@veloptima/contracts'
import { DownloadIcon } from '../../components/icons.tsx'
import { api } from '../../lib/api-client.ts'
import { useAuth } from '../../lib/auth.ts'
import { useLive } from '../../lib/live.tsx'

/** Appends the download link when the notification carries a stored file. */
async function downloadUrlOf(n: Notification): Promise<string | undefined> {
  if (!n.download_blob) return undefined
  try {
    const { url } = await api<{ url: string }>(
      `/api/files/${encodeURIComponent(n.download_blob)}/download-url`,
    )
    return url
  } catch (error) {
    // Specification §4: a link failure is only logged; the notification still shows.
    console.warn('No download link for notification', n.id, error)
    return undefined
  }
}

function show(n: Notification, url: string | undefined) {
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
            <a
              href={url}
              download
              className="inline-flex items-center gap-1 font-semibold text-brand-700 underline underline-offset-2"
            >
              <DownloadIcon className="h-4 w-4" />
              Download
            </a>
          </>
        )}
      </span>
    ),
  })
}

/**
 * Shows the current user's unshown notifications (the initial GET /api/notifications?showed=false
 * and then live ones) as popups at the bottom right that never auto-close, then marks each showed.
 */
export function Notifications() {
  const { user } = useAuth()
  const { subscribe } = useLive()
  const seen = useRef(new Set<string>())
  const uid = user?.uid

  useEffect(() => {
    if (!uid) return
    let active = true
    const handle = async (n: Notification) => {
      if (!active || n.showed || n.user !== uid || seen.current.has(n.id)) return
      seen.current.add(n.id)
      show(n, await downloadUrlOf(n))
      try {
        await api(`/api/notifications/${encodeURIComponent(n.id)}`, {
          method: 'PATCH',
          body: { showed: true },
        })
      } catch (error) {
        console.warn('Could not mark notification showed', n.id, error)
      }
    }
    const unsubscribe = subscribe('notification', (data) => void handle(data as Notification))
    api<Page<Notification>>('/api/notifications?showed=false&limit=50')
      .then((page) => page.items.forEach((n) => void handle(n)))
      .catch((error) => console.warn('Could not load notifications', error))
    return () => {
      active = false
      unsubscribe()
    }
  }, [uid, subscribe])
  return null
}
