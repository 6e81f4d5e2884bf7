import { createBrowserRouter, type RouteObject } from 'react-router'
import { aeroRoutes } from '../features/aero/routes.tsx'
import { AppShell } from '../features/shell/app-shell.tsx'
import { HydrateFallback } from '../features/shell/misc-pages.tsx'
import { LegalPage, NotFoundPage, RouteErrorPage } from '../features/shell/misc-pages.tsx'
import { RequireAccess } from '../features/shell/require-access.tsx'
import { PlainPage } from '../features/shell/plain-page.tsx'
import { simulationRoutes } from '../features/simulation/routes.tsx'

/** A section with the side bar (its module, with Headless UI, loads with the section). */
const section = (name: 'simulation' | 'aero', claims: string[]) =>
  import('../features/shell/side-bar.tsx').then((m) => ({
    Component: () => (
      <RequireAccess claims={claims}>
        <m.SectionLayout section={name} />
      </RequireAccess>
    ),
  }))

/**
 * The route table of the specification §2. Page modules are lazy so the landing page loads only
 * the shell; `handle.crumb` flags the breadcrumb segments.
 */
export const routes: RouteObject[] = [
  {
    path: '/',
    element: <AppShell />,
    // Shown while the first lazy page module loads.
    hydrateFallbackElement: <HydrateFallback />,
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
          // Teams (issue 17): a team's members page and the page of an invitation link.
          {
            path: 'account/teams/:teamId',
            handle: { crumb: 'Team' },
            lazy: () =>
              import('../features/account/team-page.tsx').then((m) => ({
                Component: () => (
                  <RequireAccess>
                    <PlainPage>
                      <m.TeamPage />
                    </PlainPage>
                  </RequireAccess>
                ),
              })),
          },
          // Where Stripe's Checkout returns: waits for the webhook, then shows the plan.
          {
            path: 'account/billing/return',
            lazy: () =>
              import('../features/pricing/return-page.tsx').then((m) => ({
                Component: () => (
                  <RequireAccess>
                    <PlainPage>
                      <m.BillingReturnPage />
                    </PlainPage>
                  </RequireAccess>
                ),
              })),
          },
          {
            path: 'account/invitations/:token',
            lazy: () =>
              // The page explains the invitation to a signed-out visitor before sign-in.
              import('../features/account/invitation-page.tsx').then((m) => ({
                Component: () => (
                  <PlainPage>
                    <m.InvitationPage />
                  </PlainPage>
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
            lazy: () => section('simulation', ['create:simulations']),
            // Includes the redirects to optimizations and of optimizations/:type/:id/results.
            children: simulationRoutes,
          },
          {
            path: 'aero',
            handle: { crumb: 'Aero Optimization' },
            lazy: () => section('aero', ['access:aerooptimization']),
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
