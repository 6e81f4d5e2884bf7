// The /aero children (specification "/aero children"). Pages are lazy route modules.
import { Navigate, type RouteObject } from 'react-router'

const pages = () => import('./pages.tsx')

/** A page of the aero area at `path`, named `crumb` in the breadcrumbs, loaded when first opened. */
function lazyPage(path: string, crumb: string, page: keyof Awaited<ReturnType<typeof pages>>) {
  return {
    path,
    handle: { crumb },
    lazy: () => pages().then((m) => ({ Component: m[page] })),
  } satisfies RouteObject
}

export const aeroRoutes: RouteObject[] = [
  { index: true, element: <Navigate replace to="sessions" /> },
  lazyPage('sessions', 'Sessions', 'SessionsPage'),
  lazyPage('sessions/v5/:id', 'Session', 'SessionV5Page'),
  lazyPage('sessions/v6/:id', 'Session', 'SessionV6Page'),
  lazyPage('devices', 'Devices', 'DevicesPage'),
  lazyPage('devices/:id', 'Device', 'DevicePage'),
]
