import { Dialog, DialogBackdrop, DialogPanel } from '@headlessui/react'
import { useState } from 'react'
import { NavLink, Outlet } from 'react-router'
import { Breadcrumbs } from '../../components/breadcrumbs.tsx'
import { ChevronLeft, ChevronRight, CloseIcon, MenuIcon } from '../../components/icons.tsx'
import { UnitToggle } from '../../components/unit-toggle.tsx'
import { FeedbackLink } from './feedback.tsx'
import { sideMenu, type SideGroup } from './nav-items.ts'
import { SupportLink } from './support-link.tsx'

const COLLAPSED_KEY = 'veloptima.sidebar.collapsed'

function initials(text: string) {
  return text
    .split(' ')
    .map((w) => w[0])
    .join('')
    .slice(0, 2)
}

function SideContent({
  groups,
  collapsed,
  onNavigate,
}: {
  groups: SideGroup[]
  collapsed: boolean
  onNavigate?: () => void
}) {
  const footerLink = `flex items-center gap-3 rounded-lg px-3 py-2 text-sm text-slate-600 hover:bg-slate-100 hover:text-slate-900 ${
    collapsed ? '[&>span]:sr-only justify-center' : ''
  }`
  return (
    <div className="flex h-full flex-col gap-6 px-3 py-6">
      <nav aria-label="Section" className="space-y-6">
        {groups.map((g) => (
          <div key={g.title}>
            <h2
              className={`px-3 text-xs font-semibold tracking-wide text-slate-500 uppercase ${collapsed ? 'sr-only' : ''}`}
            >
              {g.title}
            </h2>
            <ul className="mt-2 space-y-1">
              {g.items.map((item) => (
                <li key={item.link}>
                  <NavLink
                    to={item.link}
                    onClick={onNavigate}
                    title={collapsed ? item.text : undefined}
                    className={({ isActive }) =>
                      `flex items-center gap-3 rounded-lg px-3 py-2 text-sm font-medium transition ${
                        isActive
                          ? 'bg-brand-50 text-brand-700'
                          : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900'
                      } ${collapsed ? 'justify-center' : ''}`
                    }
                  >
                    {collapsed ? (
                      <>
                        <span aria-hidden="true" className="text-xs font-bold">
                          {initials(item.text)}
                        </span>
                        <span className="sr-only">{item.text}</span>
                      </>
                    ) : (
                      item.text
                    )}
                  </NavLink>
                </li>
              ))}
            </ul>
          </div>
        ))}
      </nav>
      {!collapsed && (
        <section aria-label="Quick settings" className="rounded-xl border border-slate-200 p-3">
          <h2 className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">
            Quick settings
          </h2>
          <UnitToggle />
        </section>
      )}
      <div className="mt-auto space-y-1">
        <FeedbackLink className={`w-full ${footerLink}`} />
        <SupportLink className={footerLink} />
      </div>
    </div>
  )
}

/**
 * A section with the collapsible side bar (15rem, 20rem on 2xl, 5rem collapsed), a slide-over
 * drawer on small screens, breadcrumbs and the page.
 */
export function SectionLayout({ section }: { section: 'simulation' | 'aero' }) {
  const groups = sideMenu(section)
  const [collapsed, setCollapsed] = useState(() => {
    try {
      return localStorage.getItem(COLLAPSED_KEY) === '1'
    } catch {
      return false
    }
  })
  const [drawer, setDrawer] = useState(false)
  const toggle = () => {
    setCollapsed((c) => {
      try {
        localStorage.setItem(COLLAPSED_KEY, c ? '0' : '1')
      } catch {
        // Not persisted in private mode.
      }
      return !c
    })
  }

  return (
    <div className="flex flex-1">
      <aside
        data-testid="side-bar"
        data-collapsed={collapsed}
        className={`sticky top-16 hidden h-[calc(100vh-4rem)] shrink-0 flex-col border-r border-slate-200 bg-white transition-[width] lg:flex ${
          collapsed ? 'w-20' : 'w-60 2xl:w-80'
        }`}
      >
        <div className="min-h-0 flex-1 overflow-y-auto">
          <SideContent groups={groups} collapsed={collapsed} />
        </div>
        <button
          type="button"
          onClick={toggle}
          aria-expanded={!collapsed}
          className="flex items-center justify-center gap-2 border-t border-slate-200 py-3 text-sm text-slate-500 hover:bg-slate-50 hover:text-slate-900"
        >
          {collapsed ? <ChevronRight /> : <ChevronLeft />}
          <span className={collapsed ? 'sr-only' : ''}>
            {collapsed ? 'Expand side bar' : 'Collapse side bar'}
          </span>
        </button>
      </aside>

      <Dialog open={drawer} onClose={setDrawer} className="relative z-50 lg:hidden">
        <DialogBackdrop
          transition
          className="fixed inset-0 bg-slate-900/40 transition-opacity duration-300 data-closed:opacity-0"
        />
        <div className="fixed inset-0 flex">
          <DialogPanel
            transition
            className="relative flex w-72 max-w-[85%] flex-col bg-white shadow-xl transition duration-300 data-closed:-translate-x-full"
          >
            <div className="flex items-center justify-between border-b border-slate-200 px-4 py-3">
              <span className="text-sm font-semibold text-slate-900">Menu</span>
              <button
                type="button"
                onClick={() => setDrawer(false)}
                className="rounded-md p-1 text-slate-500 hover:bg-slate-100"
              >
                <CloseIcon />
                <span className="sr-only">Close side menu</span>
              </button>
            </div>
            <div className="min-h-0 flex-1 overflow-y-auto">
              <SideContent groups={groups} collapsed={false} onNavigate={() => setDrawer(false)} />
            </div>
          </DialogPanel>
        </div>
      </Dialog>

      <div className="min-w-0 flex-1">
        <div className="mx-auto max-w-7xl px-4 py-6 sm:px-6 lg:px-8">
          <div className="mb-2 lg:hidden">
            <button
              type="button"
              onClick={() => setDrawer(true)}
              className="inline-flex items-center gap-2 rounded-lg px-2 py-1.5 text-sm font-medium text-slate-700 ring-1 ring-slate-200 hover:bg-slate-50"
            >
              <MenuIcon className="h-4 w-4" />
              Open side menu
            </button>
          </div>
          <Breadcrumbs />
          <Outlet />
        </div>
      </div>
    </div>
  )
}
