// The /aero children (specification "/aero children"). Pages are lazy route modules.
import { Navigate, type RouteObject } from 'react-router'

const pages = () => import('./pages.tsx')

export const aeroRoutes: RouteObject[] = [
  { index: true, element: <Navigate replace to="sessions" /> },
  {
    path: 'sessions',
    handle: { crumb: 'Sessions' },
    lazy: () => pages().then((m) => ({ Component: m.SessionsPage })),
  },
  {
    path: 'sessions/v5/:id',
    handle: { crumb: 'Session' },
    lazy: () => pages().then((m) => ({ Component: m.SessionV5Page })),
  },
  {
    path: 'sessions/v6/:id',
    handle: { crumb: 'Session' },
    lazy: () => pages().then((m) => ({ Component: m.SessionV6Page })),
  },
  {
    path: 'devices',
    handle: { crumb: 'Devices' },
    lazy: () => pages().then((m) => ({ Component: m.DevicesPage })),
  },
  {
    path: 'devices/:id',
    handle: { crumb: 'Device' },
    lazy: () => pages().then((m) => ({ Component: m.DevicePage })),
  },
]
