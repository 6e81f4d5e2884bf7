import { lazy, Suspense, useState } from 'react'
import { Link, useLocation } from 'react-router'
import { buttonClass } from '../../components/button.ts'
import { CloseIcon, MenuIcon } from '../../components/icons.tsx'
import { Logo } from '../../components/logo.tsx'
import { Spinner } from '../../components/spinner.tsx'
import { useAuth } from '../../lib/auth.ts'
import { Avatar } from './avatar.tsx'
import { topMenu } from './nav-items.ts'

// The menu (Headless UI) loads only for signed-in users: the landing page stays small.
const UserMenu = lazy(() => import('./user-menu.tsx').then((m) => ({ default: m.UserMenu })))

/** The top navigation bar (docs/specification.md §2): logo, entries by claim, user menu or Sign in. */
export function TopNav() {
  const auth = useAuth()
  const location = useLocation()
  const [open, setOpen] = useState(false)
  const items = topMenu(auth, location.pathname)
  const busy = auth.loggingIn || auth.isLoading
  const signIn = () => void auth.login(location.pathname + location.search + location.hash)
  const close = () => setOpen(false)

  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-screen-2xl items-center gap-6 px-4 sm:px-6">
        <Link to="/" className="rounded-md focus-visible:outline-2 focus-visible:outline-brand-600">
          <Logo />
          <span className="sr-only">Veloptima home</span>
        </Link>
        <nav aria-label="Main" className="hidden flex-1 items-center gap-1 md:flex">
          {items.map((item) => (
            <Link
              key={item.link}
              to={item.link}
              aria-current={item.active ? 'page' : undefined}
              className={`rounded-lg px-3 py-2 text-sm font-medium transition ${
                item.active
                  ? 'bg-brand-50 text-brand-700'
                  : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900'
              }`}
            >
              {item.text}
            </Link>
          ))}
        </nav>
        <div className="ml-auto flex items-center gap-3">
          {auth.user ? (
            <div className="hidden md:block">
              <Suspense fallback={<Avatar user={auth.user} className="h-9 w-9" />}>
                <UserMenu user={auth.user} onSignOut={() => void auth.logout()} />
              </Suspense>
            </div>
          ) : busy ? (
            <Spinner label="Signing in" />
          ) : (
            <button type="button" onClick={signIn} className={buttonClass.primary}>
              Sign in
            </button>
          )}
          {auth.user && (
            <button
              type="button"
              aria-expanded={open}
              aria-controls="mobile-menu"
              onClick={() => setOpen((o) => !o)}
              className="inline-flex items-center justify-center rounded-lg p-2 text-slate-600 hover:bg-slate-100 hover:text-slate-900 md:hidden"
            >
              <span className="sr-only">{open ? 'Close main menu' : 'Open main menu'}</span>
              {open ? <CloseIcon className="h-6 w-6" /> : <MenuIcon className="h-6 w-6" />}
            </button>
          )}
        </div>
      </div>
      {auth.user && open && (
        <div id="mobile-menu" className="border-t border-slate-200 md:hidden">
          <nav aria-label="Main (mobile)" className="space-y-1 px-4 py-3">
            {items.map((item) => (
              <Link
                key={item.link}
                to={item.link}
                onClick={close}
                aria-current={item.active ? 'page' : undefined}
                className={`block rounded-lg px-3 py-2 text-base font-medium ${
                  item.active ? 'bg-brand-50 text-brand-700' : 'text-slate-700 hover:bg-slate-50'
                }`}
              >
                {item.text}
              </Link>
            ))}
          </nav>
          <div className="border-t border-slate-200 px-4 py-4">
            <div className="flex items-center gap-3 px-3">
              <Avatar user={auth.user} className="h-10 w-10" />
              <div className="min-w-0">
                <p className="truncate text-base font-semibold text-slate-900">
                  {auth.user.displayName}
                </p>
                <p className="truncate text-sm text-slate-500">{auth.user.email}</p>
              </div>
            </div>
            <div className="mt-3 space-y-1">
              <Link
                to="/account"
                onClick={close}
                className="block rounded-lg px-3 py-2 text-base font-medium text-slate-700 hover:bg-slate-50"
              >
                Your account
              </Link>
              <button
                type="button"
                onClick={() => void auth.logout()}
                className="block w-full rounded-lg px-3 py-2 text-left text-base font-medium text-slate-700 hover:bg-slate-50"
              >
                Sign out
              </button>
            </div>
          </div>
        </div>
      )}
    </header>
  )
}
