// Playwright routes the worker's own script fetch (so a second release can be served), but while
// routes are set it bypasses service workers for pages: the page is not controlled, a new worker
// activates on its own, and what Update does in a controlled page (skip waiting, reload) cannot
// be observed here. This test covers the detection of a new worker and the banner.
import { expect, test } from '@playwright/test'
import { screenshotPath } from '../helpers/auth.ts'
import { watchErrors } from './shell-checks.ts'

// The PWA update flow (docs/specification.md §2 "Other behaviour", §7 /sw.js): when a new service
// worker is waiting, the banner "New version of the application available." offers Update.

test('a new service worker brings the banner with its Update action', async ({ context, page }) => {
  const errors = watchErrors(page)
  let release = 1
  // The server's /sw.js with one line per release: a byte-different script is what makes the
  // browser install a new worker.
  await context.route('**/sw.js', async (route) => {
    const response = await route.fetch()
    const body = await response.text()
    await route.fulfill({ response, body: `${body}\n// release ${release}\n` })
  })
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Get started' })).toBeVisible()
  await page.waitForFunction(async () => {
    const r = await navigator.serviceWorker.getRegistration('/')
    return r?.active?.state === 'activated'
  })
  await expect(page.getByText('New version of the application available.')).toHaveCount(0)

  release = 2
  // update() rejects with InvalidStateError while the registration is between workers (seen once
  // on CI right after activation): ask again until the browser takes the request.
  await expect
    .poll(() =>
      page.evaluate(async () => {
        try {
          await (await navigator.serviceWorker.getRegistration('/'))?.update()
          return true
        } catch {
          return false
        }
      }),
    )
    .toBe(true)
  const banner = page
    .getByRole('alert')
    .filter({ hasText: 'New version of the application available.' })
  await expect(banner).toBeVisible({ timeout: 20_000 })
  await page.screenshot({ path: screenshotPath('shell-update-banner') })

  await expect(banner.getByRole('button', { name: 'Update' })).toBeEnabled()
  expect(errors).toEqual([])
})
