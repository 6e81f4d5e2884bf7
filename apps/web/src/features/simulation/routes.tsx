// The /simulation children (specification "/simulation children"), each a lazy route module so
// the engine, the charts and the map load only when used. `handle.crumb` names the breadcrumb;
// lists are parents of their items so the trail reads e.g. "Courses › Course".
import { Navigate, useParams, type RouteObject } from 'react-router'

function ResultsRedirect() {
  const { type, id } = useParams()
  return <Navigate replace to={`/simulation/optimizations/${type}/${id}?showResults=1`} />
}

const optimizationPage = () =>
  import('./pages/optimization-page.tsx').then((m) => ({ Component: m.OptimizationPage }))
const resultPage = () =>
  import('./pages/result-page.tsx').then((m) => ({ Component: m.ResultPage }))
const inputPage = () =>
  import('./pages/result-input-page.tsx').then((m) => ({ Component: m.ResultInputPage }))
const riderPage = () => import('./pages/rider-page.tsx').then((m) => ({ Component: m.RiderPage }))

/** A result and, under it, the snapshot of its inputs. */
const resultRoutes = (type: 'pacing' | 'equipment'): RouteObject => ({
  path: `${type}/:simId/results/:id`,
  handle: { crumb: 'Result' },
  children: [
    { index: true, lazy: resultPage },
    { path: 'input', handle: { crumb: 'Inputs' }, lazy: inputPage },
  ],
})

export const simulationRoutes: RouteObject[] = [
  { index: true, element: <Navigate replace to="optimizations" /> },
  {
    path: 'optimizations',
    handle: { crumb: 'Optimizations' },
    children: [
      {
        index: true,
        lazy: () =>
          import('./pages/optimizations-page.tsx').then((m) => ({
            Component: m.OptimizationsPage,
          })),
      },
      { path: 'new', handle: { crumb: 'New optimization' }, lazy: optimizationPage },
      { path: ':type/:id/results', element: <ResultsRedirect /> },
      { path: 'pacing/:id', handle: { crumb: 'Pacing optimization' }, lazy: optimizationPage },
      {
        path: 'equipment/:id',
        handle: { crumb: 'Equipment optimization' },
        lazy: optimizationPage,
      },
      { path: ':id', handle: { crumb: 'Optimization' }, lazy: optimizationPage },
      resultRoutes('pacing'),
      resultRoutes('equipment'),
    ],
  },
  {
    path: 'courses',
    handle: { crumb: 'Courses' },
    children: [
      {
        index: true,
        lazy: () => import('./pages/courses-page.tsx').then((m) => ({ Component: m.CoursesPage })),
      },
      {
        path: ':id',
        handle: { crumb: 'Course' },
        lazy: () => import('./pages/course-page.tsx').then((m) => ({ Component: m.CoursePage })),
      },
    ],
  },
  {
    path: 'riders',
    handle: { crumb: 'Rider setups' },
    children: [
      {
        index: true,
        lazy: () => import('./pages/riders-page.tsx').then((m) => ({ Component: m.RidersPage })),
      },
      { path: 'new', handle: { crumb: 'New rider setup' }, lazy: riderPage },
      { path: ':id', handle: { crumb: 'Rider setup' }, lazy: riderPage },
    ],
  },
]
