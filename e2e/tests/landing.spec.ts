import { expect, test } from '@playwright/test'
import { screenshotPath } from '../helpers/auth.ts'

test('a signed-out visitor sees the landing page of the specification', async ({ page }) => {
  const errors: string[] = []
  page.on('console', (msg) => msg.type() === 'error' && errors.push(msg.text()))
  await page.goto('/')
  await expect(
    page.getByRole('heading', { name: 'Use your energy more wisely and become faster.' }),
  ).toBeVisible()
  await expect(
    page.getByText(
      'Optimize your pacing strategy and equipment choice to enhance your performance on the bike.',
    ),
  ).toBeVisible()
  await page.screenshot({ path: screenshotPath('landing'), fullPage: true })
  expect(errors).toEqual([])
})

test('the API answers liveness and readiness', async ({ request }) => {
  expect((await request.get('/api/health')).status()).toBe(200)
  const ready = await request.get('/api/ready')
  expect(ready.status()).toBe(200)
  expect(await ready.json()).toMatchObject({ status: 'ready', database: { migrated: true } })
})
