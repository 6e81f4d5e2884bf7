// The /simulation children (specification "/simulation children"), each a lazy route module so
// the engine, the charts and the map load only when used. `handle.crumb` names the breadcrumb.
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

export const simulationRoutes: RouteObject[] = [
  { index: true, element: <Navigate replace to="optimizations" /> },
  {
    path: 'optimizations',
    handle: { crumb: 'Optimizations' },
    lazy: () =>
      import('./pages/optimizations-page.tsx').then((m) => ({ Component: m.OptimizationsPage })),
  },
  { path: 'optimizations/new', handle: { crumb: 'New optimization' }, lazy: optimizationPage },
  { path: 'optimizations/:type/:id/results', element: <ResultsRedirect /> },
  {
    path: 'optimizations/pacing/:id',
    handle: { crumb: 'Pacing optimization' },
    lazy: optimizationPage,
  },
  {
    path: 'optimizations/equipment/:id',
    handle: { crumb: 'Equipment optimization' },
    lazy: optimizationPage,
  },
  { path: 'optimizations/:id', handle: { crumb: 'Optimization' }, lazy: optimizationPage },
  {
    path: 'optimizations/pacing/:simId/results/:id',
    handle: { crumb: 'Result' },
    lazy: resultPage,
  },
  {
    path: 'optimizations/equipment/:simId/results/:id',
    handle: { crumb: 'Result' },
    lazy: resultPage,
  },
  {
    path: 'optimizations/pacing/:simId/results/:id/input',
    handle: { crumb: 'Inputs' },
    lazy: inputPage,
  },
  {
    path: 'optimizations/equipment/:simId/results/:id/input',
    handle: { crumb: 'Inputs' },
    lazy: inputPage,
  },
  {
    path: 'courses',
    handle: { crumb: 'Courses' },
    lazy: () => import('./pages/courses-page.tsx').then((m) => ({ Component: m.CoursesPage })),
  },
  {
    path: 'courses/:id',
    handle: { crumb: 'Course' },
    lazy: () => import('./pages/course-page.tsx').then((m) => ({ Component: m.CoursePage })),
  },
  {
    path: 'riders',
    handle: { crumb: 'Rider setups' },
    lazy: () => import('./pages/riders-page.tsx').then((m) => ({ Component: m.RidersPage })),
  },
  {
    path: 'riders/new',
    handle: { crumb: 'New rider setup' },
    lazy: () => import('./pages/rider-page.tsx').then((m) => ({ Component: m.RiderPage })),
  },
  {
    path: 'riders/:id',
    handle: { crumb: 'Rider setup' },
    lazy: () => import('./pages/rider-page.tsx').then((m) => ({ Component: m.RiderPage })),
  },
]
