import { expect, test, type Page } from '@playwright/test'
import { DEMO, screenshotPath, signIn } from '../helpers/auth.ts'

// The web shell (issue 7): home states, navigation by claim, redirects, breadcrumbs, layout.

/** Collects console errors and page errors of a page (Lighthouse-style check). */
function watchErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()))
  page.on('pageerror', (e) => errors.push(String(e)))
  return errors
}

test('signed out: landing hero, Learn more → pricing, gated pages ask to sign in', async ({
  page,
}) => {
  const errors = watchErrors(page)
  await page.goto('/')
  await expect(
    page.getByRole('heading', { name: 'Use your energy more wisely and become faster.' }),
  ).toBeVisible()
  await expect(page.getByRole('button', { name: 'Get started' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible()
  await expect(page.getByText('Performance. Perfected.').last()).toBeVisible()
  await page.screenshot({ path: screenshotPath('shell-landing'), fullPage: true })

  await page.getByRole('link', { name: /Learn more/ }).click()
  await expect(page).toHaveURL(/\/pricing$/)
  await expect(page.getByRole('heading', { name: 'Plans for riders and teams' })).toBeVisible()
  await expect(page.getByRole('button', { name: 'Start free trial' })).toBeVisible()
  await page.screenshot({ path: screenshotPath('shell-pricing'), fullPage: true })

  await page.goto('/simulation/courses')
  await expect(page.getByRole('heading', { name: 'Sign in to continue' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Courses' })).toHaveCount(0)
  expect(errors).toEqual([])
})

test('rider: Tools and Performance Simulation, no Aero; redirects and breadcrumbs', async ({
  page,
}) => {
  const errors = watchErrors(page)
  await signIn(page, DEMO.rider)
  const main = page.getByRole('navigation', { name: 'Main', exact: true })
  await expect(main.getByRole('link', { name: 'Tools' })).toBeVisible()
  await expect(main.getByRole('link', { name: 'Performance Simulation' })).toBeVisible()
  await expect(main.getByRole('link', { name: 'Aero Optimization' })).toHaveCount(0)

  await page.goto('/simulation')
  await expect(page).toHaveURL(/\/simulation\/optimizations$/)
  await expect(main.getByRole('link', { name: 'Performance Simulation' })).toHaveAttribute(
    'aria-current',
    'page',
  )
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' })
  await expect(crumbs.getByRole('link', { name: 'Home' })).toBeVisible()
  await expect(crumbs.getByRole('link', { name: 'Performance Simulation' })).toBeVisible()
  await expect(crumbs.getByText('Optimizations')).toHaveAttribute('aria-current', 'page')
  await page.screenshot({ path: screenshotPath('shell-simulation'), fullPage: true })

  await page.goto('/aero')
  await expect(
    page.getByRole('heading', { name: 'Your plan does not include this yet' }),
  ).toBeVisible()
  await expect(page.getByRole('link', { name: 'See plans' })).toHaveAttribute('href', '/pricing')
  expect(errors).toEqual([])
})
