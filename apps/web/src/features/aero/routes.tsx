// The /aero children (specification "/aero children"). Pages are lazy route modules.
import { Navigate, type RouteObject } from 'react-router'

const pages = () => import('./pages.tsx')

/** An aero page's route: named `crumb` in the breadcrumbs, its `page` loaded when first opened. */
function lazyPage(crumb: string, page: keyof Awaited<ReturnType<typeof pages>>) {
  return {
    handle: { crumb },
    lazy: () => pages().then((m) => ({ Component: m[page] })),
  } satisfies RouteObject
}

export const aeroRoutes: RouteObject[] = [
  { index: true, element: <Navigate replace to="sessions" /> },
  { path: 'sessions', ...lazyPage('Sessions', 'SessionsPage') },
  { path: 'sessions/v5/:id', ...lazyPage('Session', 'SessionV5Page') },
  { path: 'sessions/v6/:id', ...lazyPage('Session', 'SessionV6Page') },
  { path: 'devices', ...lazyPage('Devices', 'DevicesPage') },
  {
    path: 'planner',
    handle: { crumb: 'Plan a test' },
    lazy: () => import('./planner-page.tsx').then((m) => ({ Component: m.PlannerPage })),
  },
  { path: 'devices/:id', ...lazyPage('Device', 'DevicePage') },
]
