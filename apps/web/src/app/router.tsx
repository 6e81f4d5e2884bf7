import { createBrowserRouter, type RouteObject } from 'react-router'
import { aeroRoutes } from '../features/aero/routes.tsx'
import { AppShell } from '../features/shell/app-shell.tsx'
import { LegalPage, NotFoundPage, RouteErrorPage } from '../features/shell/misc-pages.tsx'
import { RequireAccess } from '../features/shell/require-access.tsx'
import { PlainPage, SectionLayout } from '../features/shell/side-bar.tsx'
import { simulationRoutes } from '../features/simulation/routes.tsx'

/**
 * The route table of the specification §2. Page modules are lazy so the landing page loads only
 * the shell; `handle.crumb` flags the breadcrumb segments.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <AppShell />,
    errorElement: <RouteErrorPage />,
    children: [
      {
        errorElement: <RouteErrorPage />,
        children: [
          {
            index: true,
            lazy: () =>
              import('../features/home/home-page.tsx').then((m) => ({ Component: m.HomePage })),
          },
          {
            path: 'pricing',
            lazy: () =>
              import('../features/pricing/pricing-page.tsx').then((m) => ({
                Component: m.PricingPage,
              })),
          },
          {
            path: 'account',
            handle: { crumb: 'Your account' },
            lazy: () =>
              import('../features/account/account-page.tsx').then((m) => ({
                Component: () => (
                  <RequireAccess>
                    <PlainPage unitToggle>
                      <m.AccountPage />
                    </PlainPage>
                  </RequireAccess>
                ),
              })),
          },
          {
            path: 'tools',
            handle: { crumb: 'Tools' },
            lazy: () =>
              import('../features/tools/components/tools-page.tsx').then((m) => ({
                Component: () => (
                  <RequireAccess>
                    <PlainPage>
                      <m.ToolsPage />
                    </PlainPage>
                  </RequireAccess>
                ),
              })),
          },
          {
            path: 'simulation',
            handle: { crumb: 'Performance Simulation' },
            element: (
              <RequireAccess claims={['create:simulations']}>
                <SectionLayout section="simulation" />
              </RequireAccess>
            ),
            // Includes the redirects to optimizations and of optimizations/:type/:id/results.
            children: simulationRoutes,
          },
          {
            path: 'aero',
            handle: { crumb: 'Aero Optimization' },
            element: (
              <RequireAccess claims={['access:aerooptimization']}>
                <SectionLayout section="aero" />
              </RequireAccess>
            ),
            children: aeroRoutes,
          },
          { path: 'terms', element: <LegalPage kind="terms" /> },
          { path: 'privacy', element: <LegalPage kind="privacy" /> },
          { path: '*', element: <NotFoundPage /> },
        ],
      },
    ],
  },
]

export const router = createBrowserRouter(routes)
