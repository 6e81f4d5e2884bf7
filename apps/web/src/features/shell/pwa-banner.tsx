import { useRegisterSW } from 'virtual:pwa-register/react'

/**
 * "New version of the application available." with Update, when a new service worker
 * (/sw.js) is waiting: Update activates it and reloads the page.
 */
export function PwaBanner() {
  const {
    needRefresh: [needRefresh],
    updateServiceWorker,
  } = useRegisterSW({
    onRegisterError: (error) => console.warn('Service worker registration failed', error),
  })
  if (!needRefresh) return null
  return (
    <div
      role="alert"
      className="fixed inset-x-0 top-0 z-[60] flex flex-wrap items-center justify-center gap-3 bg-slate-900 px-4 py-2.5 text-sm text-white"
    >
      <span>New version of the application available.</span>
      <button
        type="button"
        onClick={() => void updateServiceWorker(true)}
        className="rounded-md bg-brand-700 px-3 py-1 font-semibold text-white hover:bg-brand-800"
      >
        Update
      </button>
    </div>
  )
}
