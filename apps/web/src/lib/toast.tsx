// Notices (sonner), loaded on the first notice rather than with the first page: sonner is
// about 9 KB of gzip, and most visits of the landing page show none. `toast` takes the same
// arguments as sonner's; the call waits for the module and for its <Toaster> to be mounted
// (a notice published before the Toaster subscribes would be lost), then shows the notice.
import {
  lazy,
  Suspense,
  useEffect,
  useSyncExternalStore,
  type ComponentProps,
  type ReactNode,
} from 'react'
import type * as SonnerModule from 'sonner'
import type { ExternalToast, Toaster as SonnerToaster } from 'sonner'

type Sonner = typeof SonnerModule
type Kind = 'default' | 'success' | 'error' | 'info' | 'warning'

let loading: Promise<Sonner> | undefined
const loadSonner = () => (loading ??= import('sonner'))

let markMounted: () => void = () => undefined
const mounted = new Promise<void>((resolve) => (markMounted = resolve))
/** Whether a notice was asked for: <ToastHost> mounts the Toaster from then on. */
let wanted = false
const listeners = new Set<() => void>()
const subscribe = (listener: () => void) => {
  listeners.add(listener)
  return () => void listeners.delete(listener)
}

function show(kind: Kind, message: ReactNode, data?: ExternalToast) {
  if (!wanted) {
    wanted = true
    for (const listener of listeners) listener()
  }
  void mounted
    .then(loadSonner)
    .then(({ toast: t }) => (kind === 'default' ? t(message, data) : t[kind](message, data)))
}

export const toast = Object.assign(
  (message: ReactNode, data?: ExternalToast) => show('default', message, data),
  {
    success: (message: ReactNode, data?: ExternalToast) => show('success', message, data),
    error: (message: ReactNode, data?: ExternalToast) => show('error', message, data),
    info: (message: ReactNode, data?: ExternalToast) => show('info', message, data),
    warning: (message: ReactNode, data?: ExternalToast) => show('warning', message, data),
  },
)

type ToasterProps = ComponentProps<typeof SonnerToaster>

/**
 * Keeps `--toast-space` on <html> at the height the notices take at the bottom of the window
 * (0 without any): the page's end gets that much room below it (index.css), so that whatever a
 * notice announces can always be scrolled above it rather than sit under it.
 */
function followToastSpace(): () => void {
  let frame = 0
  const measure = () => {
    frame = 0
    let space = 0
    for (const t of Array.from(document.querySelectorAll('[data-sonner-toast]'))) {
      if (t.getAttribute('data-removed') === 'true') continue
      const top = t.getBoundingClientRect().top
      if (top < window.innerHeight) space = Math.max(space, window.innerHeight - top)
    }
    document.documentElement.style.setProperty('--toast-space', `${Math.ceil(space)}px`)
  }
  const schedule = () => {
    if (!frame) frame = requestAnimationFrame(measure)
  }
  const observer = new MutationObserver(schedule)
  observer.observe(document.body, {
    subtree: true,
    childList: true,
    attributeFilter: ['data-mounted', 'data-removed', 'data-expanded', 'data-visible'],
  })
  window.addEventListener('resize', schedule)
  document.addEventListener('transitionend', schedule, true)
  schedule()
  return () => {
    observer.disconnect()
    window.removeEventListener('resize', schedule)
    document.removeEventListener('transitionend', schedule, true)
    cancelAnimationFrame(frame)
    document.documentElement.style.removeProperty('--toast-space')
  }
}

const LazyToaster = lazy(async () => {
  const { Toaster } = await loadSonner()
  return {
    default: function MountedToaster(props: ToasterProps) {
      useEffect(() => markMounted(), [])
      useEffect(followToastSpace, [])
      return <Toaster {...props} />
    },
  }
})

/** Where notices appear: renders sonner's Toaster once the first notice is asked for. */
export function ToastHost(props: ToasterProps) {
  const needed = useSyncExternalStore(
    subscribe,
    () => wanted,
    () => false,
  )
  return needed ? (
    <Suspense fallback={null}>
      <LazyToaster {...props} />
    </Suspense>
  ) : null
}
