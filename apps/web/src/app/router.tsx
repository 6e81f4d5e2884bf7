import { lazy, type ComponentType } from 'react'
import { createBrowserRouter, type RouteObject } from 'react-router'
import { aeroRoutes } from '../features/aero/routes.tsx'
import { HomePage } from '../features/home/home-page.tsx'
import { AppShell } from '../features/shell/app-shell.tsx'
import { HydrateFallback } from '../features/shell/misc-pages.tsx'
import { LegalPage, NotFoundPage, RouteErrorPage } from '../features/shell/misc-pages.tsx'
import { PlainPage } from '../features/shell/plain-page.tsx'
import { simulationRoutes } from '../features/simulation/routes.tsx'
import { loadQueryLayer } from './query-layer-store.ts'

/** A signed-in visitor's home page, loaded with the data layer it queries through. */
const SignedInHome = lazy(() =>
  Promise.all([import('../features/home/signed-in-home.tsx'), loadQueryLayer()]).then(([m]) => ({
    default: m.SignedInHome,
  })),
)

/** The access gate, loaded with the pages it guards rather than with the landing page. */
const requireAccess = () =>
  import('../features/shell/require-access.tsx').then((m) => m.RequireAccess)

/**
 * A page in the plain frame behind the access gate: its module and the gate load together,
 * `page` picks the page's component from the module.
 */
const gatedPlainPage =
  <M,>(
    load: () => Promise<M>,
    page: (m: M) => ComponentType,
    frame: { unitToggle?: boolean } = {},
  ) =>
  () =>
    Promise.all([load(), requireAccess()]).then(([m, RequireAccess]) => {
      const Page = page(m)
      return {
        Component: () => (
          <RequireAccess>
            <PlainPage {...frame}>
              <Page />
            </PlainPage>
          </RequireAccess>
        ),
      }
    })

/** A section with the side bar (its module, with Headless UI, loads with the section). */
const section = (name: 'simulation' | 'aero', claims: string[]) =>
  Promise.all([import('../features/shell/side-bar.tsx'), requireAccess()]).then(
    ([m, RequireAccess]) => ({
      Component: () => (
        <RequireAccess claims={claims}>
          <m.SectionLayout section={name} />
        </RequireAccess>
      ),
    }),
  )

/**
 * The route table of docs/specification.md §2. Page modules other than the landing page's are lazy so
 * the first page loads only the shell and the home page; `handle.crumb` flags the breadcrumb segments.
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
          // The landing page is in the first chunk: one request fewer before it paints.
          { index: true, element: <HomePage signedIn={<SignedInHome />} /> },
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
            lazy: gatedPlainPage(
              () => import('../features/account/account-page.tsx'),
              (m) => m.AccountPage,
              { unitToggle: true },
            ),
          },
          // Teams (docs/teams.md): a team's members page and the page of an invitation link.
          {
            path: 'account/teams/:teamId',
            handle: { crumb: 'Team' },
            lazy: gatedPlainPage(
              () => import('../features/account/team-page.tsx'),
              (m) => m.TeamPage,
            ),
          },
          // Where Stripe's Checkout returns: waits for the webhook, then shows the plan.
          {
            path: 'account/billing/return',
            lazy: gatedPlainPage(
              () => import('../features/pricing/return-page.tsx'),
              (m) => m.BillingReturnPage,
            ),
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
            lazy: gatedPlainPage(
              () => import('../features/tools/components/tools-page.tsx'),
              (m) => m.ToolsPage,
            ),
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

/**
 * Every lazy page waits for the data layer (TanStack Query's client, query-layer-store.ts) as
 * well as for its own module: pages query the API from their first render. The landing page is
 * not lazy and does not query: a signed-out visitor never loads the layer.
 */
export function withQueryLayer(table: RouteObject[]): RouteObject[] {
  return table.map((route) => {
    const { lazy, children } = route
    const next = { ...route } as RouteObject
    if (typeof lazy === 'function') {
      next.lazy = () => Promise.all([lazy(), loadQueryLayer()]).then(([r]) => r)
    }
    if (children) next.children = withQueryLayer(children)
    return next
  })
}

export const router = createBrowserRouter(withQueryLayer(routes))
