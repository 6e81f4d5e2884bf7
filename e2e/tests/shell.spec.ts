import { gzipSync } from 'node:zlib'
import { expect, test, type Page } from '@playwright/test'
import { DEMO, screenshotPath, signIn } from '../helpers/auth.ts'
import {
  captureToken,
  expectAccessible,
  expectLandingCopy,
  SHELL_PARTS,
  watchErrors,
} from './shell-checks.ts'
import { roadSetupBody } from '../helpers/rider-setup.ts'

// The web shell (docs/specification.md §1, §2, §6, §9): home states, navigation by claim,
// redirects, breadcrumbs, layout on desktop and at 390 px, notifications, accessibility.

/** The gzip size of the scripts a page loaded (the figure reported in docs/benchmarks.md). */
async function landingJsGzip(page: Page, paths: string[]): Promise<number> {
  let total = 0
  for (const path of paths) {
    const body = await (await page.request.get(path)).body()
    total += gzipSync(body, { level: 9 }).length
  }
  return total
}

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main', exact: true })
const crumbs = (page: Page) => page.getByRole('navigation', { name: 'Breadcrumb' })

test('signed out: landing hero, Learn more → pricing, gated pages ask to sign in', async ({
  page,
}) => {
  const errors = watchErrors(page)
  const scripts: string[] = []
  page.on('response', (r) => {
    if (r.request().resourceType() === 'script') scripts.push(new URL(r.url()).pathname)
  })
  await page.goto('/')
  await expectLandingCopy(page)
  await expect(page.getByRole('button', { name: 'Get started' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible()
  await expect(mainNav(page).getByRole('link')).toHaveCount(0)
  // Footer: tagline, and the legal links open in a new tab.
  const footer = page.getByRole('contentinfo')
  await expect(footer.getByText('Performance. Perfected.')).toBeVisible()
  await expect(footer.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute(
    'target',
    '_blank',
  )
  await expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute(
    'target',
    '_blank',
  )
  await expect(footer.getByRole('link', { name: /Support/ })).toHaveAttribute('href', /^https?:/)
  await expectAccessible(page)
  await page.screenshot({ path: screenshotPath('shell-landing'), fullPage: true })
  // Code splitting: the landing page loads the shell and the home module, not the areas'.
  const gzipped = await landingJsGzip(page, scripts)
  console.log(`Landing page JavaScript: ${scripts.length} files, ${gzipped} bytes gzip`)
  for (const area of [
    'pricing-page',
    'tools-page',
    'course-page',
    'pages-',
    'user-menu',
    'side-bar',
  ]) {
    expect(scripts.filter((s) => s.includes(area))).toEqual([])
  }

  await page.getByRole('link', { name: /Learn more/ }).click()
  await expect(page).toHaveURL(/\/pricing$/)
  await expect(page.getByRole('heading', { name: 'Plans for riders and teams' })).toBeVisible()
  for (const plan of ['Individual', 'Team', 'Aero add-on']) {
    await expect(page.getByRole('heading', { name: plan, exact: true })).toBeVisible()
  }
  await expect(page.getByRole('button', { name: 'Start free trial' })).toBeVisible()
  await expect(
    page.getByText(
      'Online payment is not available on this server; your administrator can grant a plan.',
    ),
  ).toBeVisible()
  await expectAccessible(page)
  await page.screenshot({ path: screenshotPath('shell-pricing'), fullPage: true })

  // Gated routes show why and the way forward instead of their content.
  for (const path of ['/simulation/courses', '/aero/devices', '/tools', '/account']) {
    await page.goto(path)
    await expect(page.getByRole('heading', { name: 'Sign in to continue' })).toBeVisible()
    await expect(page.getByRole('main').getByRole('button', { name: 'Sign in' })).toBeVisible()
  }
  await expect(page.getByRole('link', { name: 'Courses' })).toHaveCount(0)
  expect(errors).toEqual([])
})

test('rider: menu by claim, redirects, breadcrumbs, side bar, no Aero or Feedback', async ({
  page,
}) => {
  const errors = watchErrors(page)
  await signIn(page, DEMO.rider)
  await expect(page.getByRole('heading', { name: /Get ready|You are ready to go/ })).toBeVisible()
  await expect(mainNav(page).getByRole('link', { name: 'Tools' })).toBeVisible()
  await expect(mainNav(page).getByRole('link', { name: 'Performance Simulation' })).toBeVisible()
  await expect(mainNav(page).getByRole('link', { name: 'Aero Optimization' })).toHaveCount(0)
  await expect(page.getByRole('button', { name: 'Feedback' })).toHaveCount(0)

  // User menu: name, e-mail, default photo, Your account.
  await page.getByRole('button', { name: /user menu/i }).click()
  const menu = page.getByRole('menu')
  await expect(menu.getByText('Demo Rider')).toBeVisible()
  await expect(menu.getByText('rider@example.com')).toBeVisible()
  await expect(page.locator('img[src="/assets/dummyProfileImage.png"]').first()).toBeVisible()
  await menu.getByRole('menuitem', { name: 'Your account' }).click()
  await expect(page).toHaveURL(/\/account$/)
  await expect(crumbs(page).getByText('Your account')).toHaveAttribute('aria-current', 'page')
  await expect(page.getByRole('radio', { name: 'Imperial' })).toBeAttached()
  await expect(page.getByTestId('side-bar')).toHaveCount(0)

  // /simulation → optimizations; the entry is active; breadcrumbs with the home icon.
  await page.goto('/simulation')
  await expect(page).toHaveURL(/\/simulation\/optimizations$/)
  await expect(mainNav(page).getByRole('link', { name: 'Performance Simulation' })).toHaveAttribute(
    'aria-current',
    'page',
  )
  await expect(mainNav(page).getByRole('link', { name: 'Tools' })).not.toHaveAttribute(
    'aria-current',
    'page',
  )
  await expect(crumbs(page).getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/')
  await expect(crumbs(page).getByRole('link', { name: 'Performance Simulation' })).toBeVisible()
  await expect(crumbs(page).getByText('Optimizations')).toHaveAttribute('aria-current', 'page')

  // Side menu groups, quick settings, collapsing to 5 rem and back to 15 rem.
  const side = page.getByTestId('side-bar')
  await expect(side.getByRole('heading', { name: 'Performance' })).toBeVisible()
  await expect(side.getByRole('heading', { name: 'Your collections' })).toBeVisible()
  await expect(side.getByRole('link', { name: 'Optimizations' })).toHaveAttribute(
    'href',
    '/simulation/optimizations',
  )
  await expect(side.getByRole('link', { name: 'Courses' })).toBeVisible()
  await expect(side.getByRole('link', { name: 'Rider Setups' })).toBeVisible()
  await expect(side.getByRole('region', { name: 'Quick settings' })).toBeVisible()
  expect((await side.boundingBox())?.width).toBe(240)
  // The page content is the simulation area's; the contrast check covers the shell's parts.
  await expectAccessible(page, SHELL_PARTS)
  await page.screenshot({ path: screenshotPath('shell-simulation'), fullPage: true })
  await side.getByRole('button', { name: 'Collapse side bar' }).click()
  await expect.poll(async () => (await side.boundingBox())?.width).toBe(80)
  await page.screenshot({ path: screenshotPath('shell-simulation-collapsed') })
  await side.getByRole('button', { name: 'Expand side bar' }).click()
  await expect.poll(async () => (await side.boundingBox())?.width).toBe(240)

  // Side menu navigation and its breadcrumb.
  await side.getByRole('link', { name: 'Courses' }).click()
  await expect(page).toHaveURL(/\/simulation\/courses$/)
  await expect(crumbs(page).getByText('Courses')).toHaveAttribute('aria-current', 'page')

  // No aero claim: the area explains and links to the plans.
  await page.goto('/aero')
  await expect(
    page.getByRole('heading', { name: 'Your plan does not include this yet' }),
  ).toBeVisible()
  await expect(page.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/pricing')
  expect(errors).toEqual([])

  // optimizations/:type/:id/results → the edit route with showResults=1 (last: the made-up
  // id answers 404 on the edit page, which the console reports).
  const id = '00000000-0000-4000-8000-000000000001'
  await page.goto(`/simulation/optimizations/pacing/${id}/results`)
  await expect(page).toHaveURL(`/simulation/optimizations/pacing/${id}?showResults=1`)
})

test('coach: Aero Optimization with sessions and devices, Feedback form', async ({ page }) => {
  const errors = watchErrors(page)
  await signIn(page, DEMO.coach)
  await expect(mainNav(page).getByRole('link', { name: 'Aero Optimization' })).toBeVisible()
  await mainNav(page).getByRole('link', { name: 'Aero Optimization' }).click()
  await expect(page).toHaveURL(/\/aero\/sessions$/)
  await expect(mainNav(page).getByRole('link', { name: 'Aero Optimization' })).toHaveAttribute(
    'aria-current',
    'page',
  )
  const side = page.getByTestId('side-bar')
  await expect(side.getByRole('link', { name: 'Sessions' })).toBeVisible()
  await expect(side.getByRole('link', { name: 'Devices' })).toBeVisible()
  await expect(crumbs(page).getByText('Sessions')).toHaveAttribute('aria-current', 'page')
  await expect(page.getByRole('heading', { name: 'Sessions', level: 1 })).toBeVisible()
  await page.screenshot({ path: screenshotPath('shell-aero-sessions'), fullPage: true })
  await side.getByRole('link', { name: 'Devices' }).click()
  await expect(page.getByRole('heading', { name: 'Devices', level: 1 })).toBeVisible()

  // The coach has use:multipleRiderProfiles: the checklist has no rider profile step.
  await page.goto('/')
  await expect(page.getByRole('heading', { name: /Get ready|You are ready to go/ })).toBeVisible()
  await expect(page.getByTestId('step-profile')).toHaveCount(0)

  // Account: the coach's team can be picked as the current team (saved on the user).
  await page.goto('/account')
  const team = page.getByLabel('Work in')
  await team.selectOption({ label: 'Veloptima Demo Team (owner)' })
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible()
  await page.reload()
  await expect(page.getByLabel('Work in')).toHaveValue(/[0-9a-f-]{36}/)
  await page.getByLabel('Work in').selectOption({ label: 'Only my own items' })
  await expect(page.getByLabel('Work in')).toHaveValue('')

  // Feedback (access:betaFeedback): without a survey URL the built-in form stores the answer.
  await page.getByRole('button', { name: 'Feedback' }).first().click()
  const popup = page.getByTestId('feedback-popup')
  await expect(popup).toBeVisible()
  expect((await popup.boundingBox())?.width).toBe(400)
  await popup.getByRole('button', { name: '4 out of 5' }).click()
  await popup.getByLabel('Your feedback').fill('The shell feels fast.')
  await expectAccessible(page)
  await page.screenshot({ path: screenshotPath('shell-feedback') })
  await popup.getByRole('button', { name: 'Send feedback' }).click()
  await expect(popup.getByText('Thank you — your feedback has reached the team.')).toBeVisible()
  expect(errors).toEqual([])
})

test('new user: pricing → free trial → Get ready → profile → rider setup → ready', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const errors = watchErrors(page)
  await signIn(page, DEMO.newUser)
  // Subscribe step.
  await expect(page.getByRole('heading', { name: 'Subscribe' })).toBeVisible()
  await expect(mainNav(page).getByRole('link')).toHaveText(['Tools'])
  await page.screenshot({ path: screenshotPath('shell-home-subscribe'), fullPage: true })
  await page.getByRole('link', { name: 'Select a plan' }).click()
  await expect(page).toHaveURL(/\/pricing$/)

  // The trial, once: the offer disappears and the claim arrives.
  await page.getByRole('button', { name: 'Start free trial' }).click()
  await expect(page.getByText(/Your free trial runs until/)).toBeVisible()
  await expect(page.getByRole('button', { name: 'Start free trial' })).toHaveCount(0)
  await expect(mainNav(page).getByRole('link', { name: 'Performance Simulation' })).toBeVisible()

  // Get ready: Subscription done; profile and setup to do.
  await page.getByRole('link', { name: 'Get ready' }).click()
  await expect(page.getByRole('heading', { name: 'Get ready' })).toBeVisible()
  await expect(page.getByTestId('step-subscription')).toHaveAttribute('data-complete', 'true')
  await expect(page.getByTestId('step-profile')).toHaveAttribute('data-complete', 'false')
  await expect(page.getByTestId('step-setup')).toHaveAttribute('data-complete', 'false')
  await expectAccessible(page)
  await page.screenshot({ path: screenshotPath('shell-home-get-ready'), fullPage: true })

  // Rider profile in the account page, validated in the chosen units.
  await page.getByRole('link', { name: 'Complete your profile' }).click()
  await expect(page).toHaveURL(/\/account$/)
  await page.getByLabel('Rider height (cm)').fill('300')
  await page.getByLabel('Rider weight (kg)').fill('72')
  await page.getByRole('button', { name: 'Save profile' }).click()
  await expect(
    page.getByText('Rider height must be between 100 and 250 cm (got 300 cm).'),
  ).toBeVisible()
  await page.getByLabel('Rider height (cm)').fill('180')
  await page.getByLabel('CP (W)').fill('260')
  await page.getByLabel('W′ (kJ)').fill('18')
  await page.getByRole('button', { name: 'Save profile' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible()
  await expect(page.getByTestId('trial-status')).toContainText('Running until')
  // Imperial: the same profile shown in inches and pounds (180 cm = 70.9 in, 72 kg = 158.7 lb).
  await page.getByText('Imperial', { exact: true }).first().click()
  await expect(page.getByLabel('Rider height (in)')).toHaveValue('70.9')
  await expect(page.getByLabel('Rider weight (lb)')).toHaveValue('158.7')
  await expectAccessible(page)
  await page.screenshot({ path: screenshotPath('shell-account'), fullPage: true })
  await page.getByText('Metric', { exact: true }).first().click()
  await expect(page.getByLabel('Rider height (cm)')).toHaveValue('180')

  // Back home: profile complete, rider setup to do; its link leads to the new setup form.
  await page.getByRole('link', { name: 'Veloptima home' }).first().click()
  await expect(page.getByTestId('step-profile')).toHaveAttribute('data-complete', 'true')
  await page.getByRole('link', { name: 'Create a rider setup' }).click()
  await expect(page).toHaveURL(/\/simulation\/riders\/new$/)
  await page.getByLabel('Setup name').fill('My road bike')
  await page.getByLabel(/^Rider weight/).fill('72')
  await page.getByLabel(/^Rider height/).fill('180')
  await page.getByLabel(/^Bike mass/).fill('8')
  await page.getByRole('button', { name: 'Estimate CdA from height and weight' }).click()
  await page.getByRole('button', { name: 'Create rider setup' }).click()
  await page.waitForURL(/\/simulation\/riders\/[0-9a-f-]{36}$/)

  // Ready: three cards with their exact links.
  await page.goto('/')
  await expect(page.getByRole('heading', { name: 'You are ready to go' })).toBeVisible()
  const hrefs = await page
    .getByRole('main')
    .getByRole('listitem')
    .getByRole('link')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href')))
  expect(hrefs).toEqual([
    '/simulation/optimizations/new?type=pacing',
    '/simulation/optimizations?type=pacing',
    '/simulation/optimizations/new?type=equipment',
    '/simulation/optimizations?type=equipment',
    '/tools',
  ])
  await expectAccessible(page)
  await page.screenshot({ path: screenshotPath('shell-home-ready'), fullPage: true })
  expect(errors).toEqual([])
})

/** A rolling 5 km course of 50 segments (as the API's run tests build theirs). */
function rollingSegments() {
  let altitude = 300
  return Array.from({ length: 50 }, (_, i) => {
    const grade = 0.01 + 0.04 * Math.sin(i / 6)
    const segment = {
      start: i * 100,
      end: (i + 1) * 100,
      grade,
      heading: (i * 5) % 360,
      radius: null,
      altitude,
    }
    altitude += grade * 100
    return segment
  })
}

test('a finished run notifies live: a popup at the bottom right with a download link, marked showed', async ({
  page,
}) => {
  test.setTimeout(120_000)
  const errors = watchErrors(page)
  const token = captureToken(page)
  await signIn(page, DEMO.rider)
  await expect(page.getByRole('heading', { name: /Get ready|You are ready to go/ })).toBeVisible()
  const headers = () => ({ authorization: `Bearer ${token()}` })
  const post = async (path: string, data: unknown) => {
    const r = await page.request.post(path, { headers: headers(), data })
    expect(r.status(), `${path}: ${await r.text()}`).toBeLessThan(300)
    return (await r.json()) as { id: string }
  }
  // A course, a setup and a pacing optimization made through the API; the run's job writes the
  // notification "Optimization ready" with its export file as download_blob.
  const course = await post('/api/courses', {
    name: 'Shell notification loop',
    segments: rollingSegments(),
    source_format: 'json',
  })
  const setup = await post('/api/rider-setups', roadSetupBody('Shell notification setup'))
  const optimization = await post('/api/optimizations', {
    type: 'pacing',
    name: 'Shell notification run',
    course_id: course.id,
    rider_setup_id: setup.id,
    inputs: { constraint: { type: 'w_prime_balance' } },
  })
  await post(`/api/optimizations/${optimization.id}/run`, {})

  const toast = page
    .locator('[data-sonner-toast]')
    .filter({ hasText: 'Optimization ready' })
    .filter({ hasText: 'Shell notification run' })
  await expect(toast).toBeVisible({ timeout: 60_000 })
  const download = toast.getByRole('link', { name: 'Download' })
  await expect(download).toHaveAttribute('href', /\/api\/files\/download\?/)
  // Bottom right of the window.
  const box = (await toast.boundingBox())!
  const viewport = page.viewportSize()!
  expect(box.x + box.width).toBeGreaterThan(viewport.width * 0.75)
  expect(box.y).toBeGreaterThan(viewport.height / 2)
  await page.screenshot({ path: screenshotPath('shell-notification') })
  // The link serves the exported file.
  const file = await page.request.get((await download.getAttribute('href'))!)
  expect(file.status()).toBe(200)
  expect((await file.body()).length).toBeGreaterThan(0)

  // Marked showed, so it does not come back; and it never closes by itself.
  await expect
    .poll(async () => {
      const r = await page.request.get('/api/notifications?showed=false', { headers: headers() })
      const body = (await r.json()) as { items: { title: string; text: string }[] }
      return body.items.filter((n) => n.text.includes('Shell notification run')).length
    })
    .toBe(0)
  await page.waitForTimeout(4000)
  await expect(toast).toBeVisible()
  await page.reload()
  await expect(page.getByRole('heading', { name: /Get ready|You are ready to go/ })).toBeVisible()
  await page.waitForTimeout(1500)
  await expect(
    page.locator('[data-sonner-toast]').filter({ hasText: 'Shell notification run' }),
  ).toHaveCount(0)
  expect(errors).toEqual([])
})

test('aero session: anchors scroll 70 px below the top, add-run dialog; units follow the user', async ({
  page,
}) => {
  const errors = watchErrors(page)
  const token = captureToken(page)
  await signIn(page, DEMO.coach)
  await expect(page.getByRole('heading', { name: /Get ready|You are ready to go/ })).toBeVisible()
  const created = await page.request.post('/api/aero-sessions', {
    headers: { authorization: `Bearer ${token()}` },
    data: {
      name: 'Velodrome test',
      format: 'v6',
      started_at: null,
      location: 'Grenchen',
      notes: null,
      devices: [],
      environment: {},
      source_file_id: null,
    },
  })
  expect(created.status(), await created.text()).toBe(201)
  const { id } = (await created.json()) as { id: string }

  await page.setViewportSize({ width: 1280, height: 500 })
  await page.goto(`/aero/sessions/v6/${id}#runs`)
  await expect(page.getByRole('heading', { name: 'Velodrome test', level: 1 })).toBeVisible()
  const offset = () =>
    page.evaluate(() => document.getElementById('runs')!.getBoundingClientRect().top)
  await expect.poll(offset).toBeCloseTo(70, 0)
  for (const anchor of ['Devices', 'Runs', 'CdA·m data blocks', 'Run data blocks']) {
    await expect(
      page
        .getByRole('navigation', { name: 'Session sections' })
        .getByRole('link', { name: anchor }),
    ).toBeVisible()
  }
  // Another route scrolls to the top.
  await page.getByTestId('side-bar').getByRole('link', { name: 'Devices' }).click()
  await expect(page.getByRole('heading', { name: 'Devices', level: 1 })).toBeVisible()
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0)
  await page.goBack()

  // The add-run dialog opens; a run is a time range or a lap of uploaded data, so without data it
  // says so and cannot add one (e2e/tests/aero.spec.ts adds runs to a session with files).
  await page.getByRole('button', { name: 'Add run' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add run' })
  await expect(dialog.getByText('Upload the test data first')).toBeVisible()
  await dialog.getByLabel('Run name').fill('Baseline, hoods')
  await dialog.getByLabel('Configuration').fill('road helmet')
  await dialog.getByLabel('Baseline run').check()
  await expect(dialog.getByRole('button', { name: 'Add run' })).toBeDisabled()
  await page.screenshot({ path: screenshotPath('shell-aero-session'), fullPage: true })
  await dialog.getByRole('button', { name: 'Cancel' }).click()
  await expect(dialog).toHaveCount(0)

  // Quick settings: imperial is saved for the user and comes back after a reload.
  const side = page.getByTestId('side-bar')
  await side.getByText('Imperial', { exact: true }).click()
  await expect(side.getByRole('radio', { name: 'Imperial' })).toBeChecked()
  await page.reload()
  await expect(page.getByTestId('side-bar').getByRole('radio', { name: 'Imperial' })).toBeChecked()
  await page.getByTestId('side-bar').getByText('Metric', { exact: true }).click()
  await expect(page.getByTestId('side-bar').getByRole('radio', { name: 'Metric' })).toBeChecked()
  expect(errors).toEqual([])
})
