import AxeBuilder from '@axe-core/playwright'
import { expect, test, type BrowserContext, type Page } from '@playwright/test'
import { needs } from '../../scripts/test-data.ts'
import { DEMO, signIn, startSignIn } from '../helpers/auth.ts'
import {
  SIGNED_IN_PAGES,
  SIGNED_OUT_PAGES,
  signInWithExamples,
  type MainPage,
  type SignedInPage,
} from '../helpers/main-pages.ts'

// Accessibility as a test (docs/web-app.md, "Accessibility"): axe-core's WCAG 2.0 and 2.1 A and AA
// rules on every main page, signed out and signed in, at 1366 px and at 390 px. A violation of
// impact "serious" or "critical" fails the test and is printed with the elements it was found on.

const WIDTHS = [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
]

/** The serious and critical violations on the page, one line per element. */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze()
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map(
        (n) =>
          `${v.id} (${v.impact}) at ${n.target.join(' ')}: ${n.failureSummary?.replace(/\s+/g, ' ') ?? v.help}`,
      ),
    )
}

/** Opens the page at both widths and expects no serious or critical violation. */
async function expectNoSeriousViolation(page: Page, p: MainPage) {
  const found: string[] = []
  for (const viewport of WIDTHS) {
    await page.setViewportSize(viewport)
    await page.goto(p.path)
    await expect(p.ready(page).first()).toBeVisible({ timeout: 20_000 })
    // Lazy modules, fonts and charts settle before the rules look at the colours.
    await page.waitForLoadState('networkidle')
    for (const line of await seriousViolations(page)) found.push(`${viewport.width} px: ${line}`)
  }
  expect(found, `${p.name}:\n${found.join('\n')}`).toEqual([])
}

test.describe('signed out', () => {
  for (const p of SIGNED_OUT_PAGES) {
    test(`${p.name}: no serious or critical violation at 1366 and 390 px`, async ({ page }) => {
      await expectNoSeriousViolation(page, p)
    })
  }

  test('the sign-in page: no serious or critical violation at 1366 and 390 px', async ({
    page,
  }) => {
    const found: string[] = []
    for (const viewport of WIDTHS) {
      await page.setViewportSize(viewport)
      await page.goto('/')
      await startSignIn(page)
      await expect(page.getByLabel('E-mail')).toBeVisible()
      for (const line of await seriousViolations(page)) found.push(`${viewport.width} px: ${line}`)
    }
    expect(found, found.join('\n')).toEqual([])
  })
})

test.describe('signed in', () => {
  // One signed-in page and one set of examples for all the cases (made again only when a failed
  // case restarts the worker).
  let context: BrowserContext
  let page: Page
  let pages: Record<SignedInPage, MainPage>

  test.beforeAll(async ({ browser }) => {
    test.setTimeout(150_000)
    // AxeBuilder needs a page of a context made with browser.newContext().
    context = await browser.newContext()
    page = await context.newPage()
    pages = (await signInWithExamples(page)).pages
  })
  test.afterAll(async () => {
    await context.close()
  })

  for (const name of SIGNED_IN_PAGES) {
    test(`${name}: no serious or critical violation at 1366 and 390 px`, async () => {
      await expectNoSeriousViolation(page, pages[name])
    })
  }
})

// An aero session with data: the runs table, the charts and the laps map (the helmet test's first
// two files, real-world files of scripts/test-data.ts; without them the case skips, naming them).
const helmet = needs(
  'aero/helmet-test-2018-10-03-07-45-28.fit',
  'aero/helmet-test-2018-10-03-08-05-11.fit',
)

test.describe('signed in, an aero session with data', () => {
  test.skip(helmet.skip, helmet.reason)

  test('aero session with runs: no serious or critical violation at 1366 and 390 px', async ({
    page,
  }) => {
    test.setTimeout(240_000)
    await page.goto('/')
    await signIn(page, DEMO.coach)
    await page.goto('/aero/sessions')
    await page.getByRole('button', { name: 'New session' }).click()
    await page.getByLabel('Session name').fill('Helmet test')
    await page.getByRole('button', { name: 'Create session' }).click()
    await page.waitForURL(/\/aero\/sessions\/v6\/[0-9a-f-]{36}$/)
    const files = page.getByLabel('Test data files')
    for (const [name, config] of [
      ['helmet-test-2018-10-03-07-45-28.fit', 'Helmet A'],
      ['helmet-test-2018-10-03-08-05-11.fit', 'Helmet B'],
    ] as const) {
      await page.getByLabel('Configuration of the runs in this file').fill(config)
      await files.setInputFiles(helmet.path(`aero/${name}`))
      await expect(page.getByRole('status').filter({ hasText: `Read ${name}` })).toBeVisible({
        timeout: 30_000,
      })
    }
    await expect(page.getByTestId('analysis-status')).toContainText('done', { timeout: 120_000 })
    await expectNoSeriousViolation(page, {
      name: 'aero session with runs',
      path: new URL(page.url()).pathname,
      ready: (p) => p.getByTestId('runs-table').locator('tbody tr'),
    })
  })
})
