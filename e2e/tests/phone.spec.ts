import { expect, test, type Page } from '@playwright/test'
import { screenshotPath, startSignIn } from '../helpers/auth.ts'
import { SIGNED_OUT_PAGES, signInWithExamples } from '../helpers/main-pages.ts'
import { pageErrors } from '../helpers/page-errors.ts'

// The product on a phone, 390 px wide (docs/web-app.md, "On a phone"): no page is wider than the
// screen, the result shows every target power without scrolling sideways (a card per target),
// the charts along the course keep a plot at least 160 px tall, and a notice never covers what
// it announces nor the end of the page.

const PHONE = { width: 390, height: 844 }

/** How far the document is wider than the window (0 when it fits), and what reaches beyond it. */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth
    const beyond = Array.from(document.querySelectorAll('body *'))
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .slice(0, 5)
      .map((el) => `<${el.tagName.toLowerCase()} class="${String(el.className).slice(0, 60)}">`)
    return { by: document.documentElement.scrollWidth - width, beyond: beyond.join(' ') }
  })
}

const boxesMeet = (
  a: { x: number; y: number; width: number; height: number },
  b: { x: number; y: number; width: number; height: number },
) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height

test('signed out at 390 px: every page fits the screen', async ({ page }) => {
  await page.setViewportSize(PHONE)
  for (const p of SIGNED_OUT_PAGES) {
    await page.goto(p.path)
    await expect(p.ready(page).first()).toBeVisible()
    const { by, beyond } = await overflow(page)
    expect(by, `${p.name} is ${by} px wider than the screen: ${beyond}`).toBeLessThanOrEqual(0)
  }
  await page.goto('/')
  await startSignIn(page)
  await expect(page.getByLabel('E-mail')).toBeVisible()
  const { by, beyond } = await overflow(page)
  expect(by, `the sign-in page is ${by} px wider than the screen: ${beyond}`).toBeLessThanOrEqual(0)
})

test('signed in at 390 px: every page fits, the result shows each target power on screen', async ({
  page,
}) => {
  test.setTimeout(180_000)
  // Uncaught errors only: the map asks a tile server the test machine may not reach.
  const errors = pageErrors(page)
  await page.setViewportSize(PHONE)
  const { pages, runAgain } = await signInWithExamples(page)
  for (const p of Object.values(pages)) {
    await page.goto(p.path)
    await expect(p.ready(page).first()).toBeVisible({ timeout: 20_000 })
    const { by, beyond } = await overflow(page)
    expect(by, `${p.name} is ${by} px wider than the screen: ${beyond}`).toBeLessThanOrEqual(0)
  }

  // The result: a card per target, its power inside the screen's width.
  await page.goto(pages.result.path)
  await expect(page.getByTestId('predicted-time')).toBeVisible()
  const powers = page.getByTestId('plan-card-power')
  await expect(powers.first()).toBeVisible()
  expect(await powers.count()).toBeGreaterThan(1)
  for (const power of await powers.all()) {
    await expect(power).toHaveText(/^\d+ W$/)
    const box = (await power.boundingBox())!
    expect(box.x).toBeGreaterThanOrEqual(0)
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width)
  }
  await expect(page.getByRole('table', { name: /Pacing plan/ })).toBeHidden()
  // The charts: a plot area (uPlot's .u-over) at least 160 px tall, each.
  const plots = page.getByTestId('plan-charts').locator('.u-over')
  await expect(plots).toHaveCount(4)
  for (const plot of await plots.all()) {
    expect((await plot.boundingBox())!.height).toBeGreaterThanOrEqual(160)
  }
  await page.screenshot({ path: screenshotPath('phone-result'), fullPage: true })
  await page
    .getByTestId('plan-card')
    .first()
    .screenshot({ path: screenshotPath('phone-plan-card') })

  // A notice: the run's "Optimization ready" shows on the result page. It covers neither the
  // result's heading nor, scrolled to the end of the page, any link or button.
  await runAgain()
  const notice = page.locator('[data-sonner-toast]').filter({ hasText: 'Optimization ready' })
  await expect(notice).toBeVisible({ timeout: 60_000 })
  await expect(notice.getByRole('link', { name: 'Download' })).toBeVisible()
  const heading = (await page.locator('main h1').boundingBox())!
  expect(boxesMeet((await notice.boundingBox())!, heading)).toBe(false)
  // Once it has slid in, the page keeps room for it below its end.
  await expect
    .poll(async () => {
      const top = (await notice.boundingBox())!.y
      const room = await page.evaluate(() => getComputedStyle(document.body).paddingBottom)
      return parseFloat(room) >= PHONE.height - top - 1
    })
    .toBe(true)
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight))
  await expect
    .poll(() => page.evaluate(() => window.scrollY + window.innerHeight))
    .toBe(await page.evaluate(() => document.documentElement.scrollHeight))
  const box = (await notice.boundingBox())!
  const covered: string[] = []
  const controls = page.locator('main, footer').locator('a[href], button')
  for (const control of await controls.all()) {
    const b = await control.boundingBox()
    if (b && (await control.isVisible()) && boxesMeet(box, b)) {
      covered.push((await control.innerText()).trim())
    }
  }
  expect(covered, 'controls under the notice at the end of the page').toEqual([])
  await page.screenshot({ path: screenshotPath('phone-notice') })
  // It closes on request, and the room kept for it goes with it.
  await notice.getByRole('button', { name: /close/i }).click()
  await expect(notice).toHaveCount(0)
  await expect
    .poll(() => page.evaluate(() => getComputedStyle(document.body).paddingBottom))
    .toBe('0px')
  expect(errors).toEqual([])
})
