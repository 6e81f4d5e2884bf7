import { lazy, Suspense } from 'react'
import { Outlet, useNavigation } from 'react-router'
import { useAuth } from '../../lib/auth.ts'
import { Footer } from './footer.tsx'
import { PwaBanner } from './pwa-banner.tsx'
import { ScrollManager } from './scroll-manager.tsx'
import { TopNav } from './top-nav.tsx'

// Signed-in only: its module loads after sign-in, not with the landing page.
const Notifications = lazy(() =>
  import('./notifications.tsx').then((m) => ({ default: m.Notifications })),
)

/** The frame of every page: top bar, main area, footer, notifications and the update banner. */
export function AppShell() {
  const navigation = useNavigation()
  const { user } = useAuth()
  return (
    <div className="flex min-h-screen flex-col bg-slate-50 text-slate-900">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-[70] focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <PwaBanner />
      <TopNav />
      {navigation.state === 'loading' && (
        <div
          className="fixed inset-x-0 top-16 z-40 h-0.5 animate-pulse bg-brand-500"
          aria-hidden="true"
        />
      )}
      <main id="main" className="flex flex-1 flex-col">
        <Outlet />
      </main>
      <Footer />
      <ScrollManager />
      {user && (
        <Suspense fallback={null}>
          <Notifications />
        </Suspense>
      )}
    </div>
  )
}
