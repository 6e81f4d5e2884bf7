// Sign-in helpers for end-to-end journeys, through the real embedded identity provider.
// The app marks its session state on <html data-auth="loading|signed-in|signed-out">.
import { fileURLToPath } from 'node:url'
import { expect, type Page } from '@playwright/test'

export const DEMO_PASSWORD = 'veloptima-demo'
export const DEMO = {
  rider: 'rider@example.com',
  coach: 'coach@example.com',
  newUser: 'new@example.com',
} as const

/** Waits until the app has settled into a session state. */
export async function authState(page: Page): Promise<'signed-in' | 'signed-out'> {
  await page.waitForSelector('html[data-auth="signed-in"], html[data-auth="signed-out"]', {
    timeout: 20_000,
  })
  return (await page.locator('html').getAttribute('data-auth')) as 'signed-in' | 'signed-out'
}

/** Clicks the top bar's "Sign in" (or the landing page's "Get started") and waits for the provider. */
export async function startSignIn(page: Page) {
  const signIn = page.getByRole('button', { name: 'Sign in', exact: true })
  const getStarted = page
    .getByRole('button', { name: 'Get started' })
    .or(page.getByRole('link', { name: 'Get started' }))
  await expect(signIn.or(getStarted).first()).toBeVisible()
  await ((await signIn.first().isVisible()) ? signIn.first() : getStarted.first()).click()
  await page.waitForURL(/\/interaction\//)
}

/** On the provider's page: fills the form and submits it. */
export async function submitCredentials(page: Page, email: string, password: string) {
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill(password)
  await page.getByRole('button', { name: 'Sign in' }).click()
}

/**
 * Signs in from the page the browser is on (the landing page when it is on none), and waits
 * until the app has its session. Ends back on the page it started from.
 */
export async function signIn(page: Page, email: string, password = DEMO_PASSWORD) {
  if (!page.url().startsWith('http')) await page.goto('/')
  if ((await authState(page)) === 'signed-in') await signOut(page)
  await startSignIn(page)
  await submitCredentials(page, email, password)
  await page.waitForSelector('html[data-auth="signed-in"]', { timeout: 20_000 })
}

/** Signs out through the user menu's "Sign out"; ends signed out on the site's root. */
export async function signOut(page: Page) {
  const item = page
    .getByRole('menuitem', { name: 'Sign out' })
    .or(page.getByRole('button', { name: 'Sign out' }))
  if (!(await item.first().isVisible())) {
    await page
      .getByRole('button', { name: /user menu/i })
      .first()
      .click()
  }
  await item.first().click()
  await page.waitForURL((url) => url.pathname === '/' && !url.search)
  await page.waitForSelector('html[data-auth="signed-out"]', { timeout: 20_000 })
}

/** Where a journey's screenshot goes: e2e/artifacts/screenshots/NAME.png (not committed). */
export const screenshotPath = (name: string) =>
  fileURLToPath(new URL(`../artifacts/screenshots/${name}.png`, import.meta.url))
