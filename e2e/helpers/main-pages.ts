// The product's main pages with an example item each (a course, a rider setup, a pacing
// optimization with a finished result, an aero session), made through the API as the signed-in
// user, for the journeys that visit every page (e2e/tests/phone.spec.ts, e2e/tests/a11y.spec.ts).
import { expect, type Locator, type Page } from '@playwright/test'
import { captureToken } from '../tests/shell-checks.ts'
import { DEMO, signIn } from './auth.ts'
import { roadSetupBody } from './rider-setup.ts'

export interface MainPage {
  name: string
  path: string
  /** What shows once the page has loaded its data. */
  ready: (page: Page) => Locator
}

const h1 = (page: Page) => page.locator('main h1').first()

/** The pages a signed-out visitor reaches (the sign-in page is the provider's, reached by a click). */
export const SIGNED_OUT_PAGES: MainPage[] = [
  { name: 'landing', path: '/', ready: (p) => p.getByRole('button', { name: 'Get started' }) },
  { name: 'pricing', path: '/pricing', ready: h1 },
  { name: 'terms', path: '/terms', ready: h1 },
  { name: 'privacy', path: '/privacy', ready: h1 },
  { name: 'signed-out gate', path: '/simulation/courses', ready: h1 },
]

/** The pages a signed-in user reaches, by name (signInWithExamples gives their paths). */
export const SIGNED_IN_PAGES = [
  'home',
  'pricing',
  'account',
  'tools',
  'courses',
  'course',
  'rider setups',
  'rider setup',
  'new rider setup',
  'optimizations',
  'optimization',
  'new optimization',
  'result',
  'result inputs',
  'aero sessions',
  'aero session',
  'aero devices',
  'aero planner',
  'team',
  'invitation',
] as const
export type SignedInPage = (typeof SIGNED_IN_PAGES)[number]

/**
 * A rolling 5 km course as a GPX file (made here: 51 points about 100 m apart going north on a
 * gentle arc, the elevation a sine of ±40 m), so that the course has positions to draw on its map.
 */
const rollingGpx = () =>
  `<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" creator="e2e" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Rolling loop</name><trkseg>${Array.from(
    { length: 51 },
    (_, i) =>
      `<trkpt lat="${(45 + i * 0.0009).toFixed(6)}" lon="${(6 + 0.003 * Math.sin((i * Math.PI) / 50)).toFixed(6)}"><ele>${(300 + 40 * Math.sin(i / 6)).toFixed(1)}</ele></trkpt>`,
  ).join('')}</trkseg></trk></gpx>`

export interface Examples {
  pages: Record<SignedInPage, MainPage>
  /** Runs the example optimization again (its notice "Optimization ready" follows). */
  runAgain: () => Promise<void>
}

/**
 * Signs the coach in (who may use every section), makes one item of each kind through the API,
 * runs the optimization to its result, and returns every main page a signed-in user reaches.
 */
export async function signInWithExamples(page: Page): Promise<Examples> {
  const token = captureToken(page)
  await page.goto('/')
  await signIn(page, DEMO.coach)
  await expect(page.getByRole('heading', { name: /Get ready|You are ready to go/ })).toBeVisible()
  const headers = () => ({ authorization: `Bearer ${token()}` })
  const post = async <T = { id: string }>(path: string, data: unknown): Promise<T> => {
    const r = await page.request.post(path, { headers: headers(), data })
    expect(r.status(), `${path}: ${await r.text()}`).toBeLessThan(300)
    return (await r.json()) as T
  }
  const imported = await page.request.post('/api/courses/import', {
    headers: headers(),
    multipart: {
      file: {
        name: 'rolling-loop.gpx',
        mimeType: 'application/gpx+xml',
        buffer: Buffer.from(rollingGpx()),
      },
    },
  })
  expect(imported.status(), await imported.text()).toBeLessThan(300)
  const course = (await imported.json()) as { id: string; name: string }
  const setup = await post('/api/rider-setups', { ...roadSetupBody('Road bike'), max_power: 900 })
  const optimization = await post('/api/optimizations', {
    type: 'pacing',
    name: 'Loop race plan',
    course_id: course.id,
    rider_setup_id: setup.id,
    inputs: { constraint: { type: 'w_prime_balance' } },
  })
  const run = await post<{ job_id: string; result_id: string }>(
    `/api/optimizations/${optimization.id}/run`,
    {},
  )
  await expect
    .poll(
      async () => {
        const r = await page.request.get(`/api/jobs/${run.job_id}`, { headers: headers() })
        return ((await r.json()) as { state: string }).state
      },
      { timeout: 90_000 },
    )
    .toBe('succeeded')
  const session = await post('/api/aero-sessions', {
    name: 'Velodrome test',
    format: 'v6',
    started_at: '2026-03-14T09:30:00Z',
    location: 'Grenchen',
    notes: null,
    devices: [],
    environment: {},
    source_file_id: null,
  })
  // A team of the coach's and an invitation to it (its link: the server writes no e-mail here).
  const team = await post('/api/teams', { name: 'Page Check Team' })
  const invited = await post<{ link: string | null }>(`/api/teams/${team.id}/invitations`, {
    email: 'invitee@example.com',
    role: 'member',
  })
  expect(invited.link, 'the invitation link (no e-mail is sent in the tests)').toBeTruthy()
  const result = `/simulation/optimizations/pacing/${optimization.id}/results/${run.result_id}`
  const pages: MainPage[] = [
    { name: 'home', path: '/', ready: (p) => p.getByRole('heading', { name: /Get ready|ready/ }) },
    { name: 'pricing', path: '/pricing', ready: h1 },
    { name: 'account', path: '/account', ready: h1 },
    { name: 'tools', path: '/tools', ready: h1 },
    {
      name: 'courses',
      path: '/simulation/courses',
      ready: (p) => p.getByRole('link', { name: course.name }),
    },
    {
      name: 'course',
      path: `/simulation/courses/${course.id}`,
      ready: (p) => p.getByTestId('route-map').locator('path.leaflet-interactive').first(),
    },
    {
      name: 'rider setups',
      path: '/simulation/riders',
      ready: (p) => p.getByRole('link', { name: 'Road bike' }),
    },
    {
      name: 'rider setup',
      path: `/simulation/riders/${setup.id}`,
      ready: (p) => p.getByLabel('Setup name'),
    },
    {
      name: 'optimizations',
      path: '/simulation/optimizations',
      ready: (p) => p.getByRole('link', { name: 'Loop race plan' }),
    },
    {
      name: 'optimization',
      path: `/simulation/optimizations/pacing/${optimization.id}`,
      ready: (p) => p.getByLabel('Optimization name'),
    },
    { name: 'result', path: result, ready: (p) => p.getByTestId('predicted-time') },
    {
      name: 'result inputs',
      path: `${result}/input`,
      ready: (p) => p.getByTestId('snapshot-setup'),
    },
    {
      name: 'aero sessions',
      path: '/aero/sessions',
      ready: (p) => p.getByRole('link', { name: 'Velodrome test' }),
    },
    {
      name: 'aero session',
      path: `/aero/sessions/v6/${session.id}`,
      ready: (p) => p.getByRole('heading', { name: 'Velodrome test', level: 1 }),
    },
    { name: 'aero devices', path: '/aero/devices', ready: h1 },
    {
      name: 'aero planner',
      path: '/aero/planner',
      ready: (p) => p.getByTestId('planner-runs'),
    },
    {
      name: 'new rider setup',
      path: '/simulation/riders/new',
      ready: (p) => p.getByLabel('Setup name'),
    },
    {
      name: 'new optimization',
      path: '/simulation/optimizations/new',
      ready: (p) => p.getByLabel('Optimization name'),
    },
    {
      name: 'team',
      path: `/account/teams/${team.id}`,
      ready: (p) => p.getByRole('heading', { name: 'Page Check Team', level: 1 }),
    },
    // The coach opens a link made for someone else: the page says whom it is for.
    { name: 'invitation', path: new URL(invited.link!).pathname, ready: h1 },
  ]
  return {
    pages: Object.fromEntries(pages.map((p) => [p.name, p])) as Record<SignedInPage, MainPage>,
    runAgain: async () => void (await post(`/api/optimizations/${optimization.id}/run`, {})),
  }
}
