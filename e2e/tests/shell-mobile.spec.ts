import { expect, test, type Page } from '@playwright/test'
import { DEMO, screenshotPath, signIn } from '../helpers/auth.ts'
import { watchErrors } from './shell-checks.ts'

// The web shell at 390 px (docs/specification.md §2): the landing page fits the screen, the top
// menu becomes a toggle panel and the side menu a slide-over drawer (split from shell.spec.ts).

const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main', exact: true })

test('signed out at 390 px: the landing page fits the screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 })
  await page.goto('/')
  await expect(page.getByRole('button', { name: 'Get started' })).toBeVisible()
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
  expect(overflow).toBeLessThanOrEqual(0)
  await page.screenshot({ path: screenshotPath('shell-landing-390'), fullPage: true })
})

test('390 px: toggle panel for the top menu, slide-over drawer for the side menu', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 })
  const errors = watchErrors(page)
  await signIn(page, DEMO.coach)
  await page.goto('/simulation/courses')
  await expect(page.getByTestId('side-bar')).toBeHidden()
  await expect(mainNav(page)).toBeHidden()
  await page.getByRole('button', { name: 'Open main menu' }).click()
  const panel = page.getByRole('navigation', { name: 'Main (mobile)' })
  for (const entry of ['Tools', 'Performance Simulation', 'Aero Optimization']) {
    await expect(panel.getByRole('link', { name: entry })).toBeVisible()
  }
  await expect(panel.getByRole('link', { name: 'Performance Simulation' })).toHaveAttribute(
    'aria-current',
    'page',
  )
  await expect(page.getByRole('button', { name: 'Sign out' })).toBeVisible()
  await page.screenshot({ path: screenshotPath('shell-mobile-menu') })
  await page.getByRole('button', { name: 'Close main menu' }).click()

  await page.getByRole('button', { name: 'Open side menu' }).click()
  const drawer = page.getByRole('dialog')
  await expect(drawer.getByRole('link', { name: 'Rider Setups' })).toBeVisible()
  await expect(drawer.getByRole('region', { name: 'Quick settings' })).toBeVisible()
  // The slide-over has finished sliding in.
  await expect.poll(async () => (await drawer.boundingBox())?.x).toBe(0)
  await page.screenshot({ path: screenshotPath('shell-mobile-drawer') })
  await drawer.getByRole('link', { name: 'Rider Setups' }).click()
  await expect(page).toHaveURL(/\/simulation\/riders$/)
  await expect(page.getByRole('dialog')).toHaveCount(0)
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  )
  expect(overflow).toBeLessThanOrEqual(0)
  await page.screenshot({ path: screenshotPath('shell-mobile-riders'), fullPage: true })
  expect(errors).toEqual([])
})
