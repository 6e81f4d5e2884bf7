import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect, test } from '@playwright/test'
import {
  authState,
  DEMO,
  DEMO_PASSWORD,
  screenshotPath,
  signIn,
  signOut,
  startSignIn,
  submitCredentials,
} from '../helpers/auth.ts'

// The sign-in journeys of docs/specification.md §4 against the embedded identity provider.

/** `npm run admin -- ARGS` against the server under test (it finds it through DATA_DIR). */
function admin(...args: string[]): string {
  return execFileSync('npm', ['run', '--silent', 'admin', '--', ...args], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR },
    encoding: 'utf8',
  })
}

test('Get started on the landing page signs in and returns to it', async ({ page }) => {
  await page.goto('/')
  expect(await authState(page)).toBe('signed-out')
  await page.getByRole('button', { name: 'Get started' }).click()
  await page.waitForURL(/\/interaction\//)
  await expect(page.getByRole('heading', { name: 'Sign in to Veloptima' })).toBeVisible()
  await page.screenshot({ path: screenshotPath('auth-login-page'), fullPage: true })
  await submitCredentials(page, DEMO.rider, DEMO_PASSWORD)
  await page.waitForSelector('html[data-auth="signed-in"]')
  expect(new URL(page.url()).pathname).toBe('/')
  expect(new URL(page.url()).search).toBe('')
  // The landing hero gives way to the signed-in home; the top bar shows the user menu.
  await expect(page.getByRole('button', { name: /user menu/i }).first()).toBeVisible()
  await page.screenshot({ path: screenshotPath('auth-signed-in-home'), fullPage: true })
})

test('a sign-in started on another page returns to that page', async ({ page }) => {
  await page.goto('/pricing')
  expect(await authState(page)).toBe('signed-out')
  await startSignIn(page)
  await submitCredentials(page, DEMO.rider, DEMO_PASSWORD)
  await page.waitForSelector('html[data-auth="signed-in"]')
  expect(new URL(page.url()).pathname).toBe('/pricing')
})

test('a reload stays signed in', async ({ page }) => {
  await signIn(page, DEMO.coach)
  await page.reload()
  expect(await authState(page)).toBe('signed-in')
})

test('with the token cache gone, an active provider session signs in silently', async ({
  page,
}) => {
  await signIn(page, DEMO.rider)
  // §4: not authenticated locally, so the start checks the provider session (hidden frame).
  await page.evaluate(() => localStorage.clear())
  await page.reload()
  expect(await authState(page)).toBe('signed-in')
})

test('the session token is renewed 5 minutes before it expires (after 55 of 60 minutes)', async ({
  page,
}) => {
  await page.clock.install()
  await signIn(page, DEMO.rider)
  const exchanges: string[] = []
  page.on('request', (r) => {
    if (r.url().endsWith('/api/auth/custom-token')) exchanges.push(r.method())
  })
  await page.clock.fastForward('54:00')
  await page.waitForTimeout(500)
  expect(exchanges).toEqual([])
  const renewed = page.waitForResponse((r) => r.url().endsWith('/api/auth/custom-token'))
  await page.clock.fastForward('01:30')
  expect((await renewed).status()).toBe(200)
  expect(exchanges).toEqual(['POST'])
  expect(await authState(page)).toBe('signed-in')
})

test('a failed renewal is retried after 30 s, then 60 s, then 2 minutes, staying signed in', async ({
  page,
}) => {
  await page.clock.install()
  await signIn(page, DEMO.rider)
  let attempts = 0
  // The network to the API is down for a while (§9: backoff from 30 s, doubling).
  await page.route('**/api/auth/custom-token', (route) => {
    attempts++
    return route.abort('internetdisconnected')
  })
  const settle = () => page.waitForTimeout(300)
  await page.clock.fastForward('55:01')
  await expect.poll(() => attempts).toBe(1)
  await page.clock.fastForward('00:28')
  await settle()
  expect(attempts).toBe(1)
  await page.clock.fastForward('00:03')
  await expect.poll(() => attempts).toBe(2)
  await page.clock.fastForward('00:57')
  await settle()
  expect(attempts).toBe(2)
  await page.clock.fastForward('00:04')
  await expect.poll(() => attempts).toBe(3)
  await page.unroute('**/api/auth/custom-token')
  const renewed = page.waitForResponse((r) => r.url().endsWith('/api/auth/custom-token'))
  await page.clock.fastForward('02:01')
  expect((await renewed).status()).toBe(200)
  expect(await authState(page)).toBe('signed-in')
})

test('a claim granted by an administrator shows in the menu after a reload', async ({ page }) => {
  await signIn(page, DEMO.newUser)
  const simulation = page.getByRole('link', { name: 'Performance Simulation' })
  await expect(page.getByRole('link', { name: 'Tools' }).first()).toBeVisible()
  await expect(simulation).toHaveCount(0)
  admin('grant', DEMO.newUser, 'create:simulations')
  try {
    // The session is re-established on reload (§4), with the claims computed anew.
    await page.reload()
    await expect(simulation.first()).toBeVisible()
  } finally {
    admin('revoke', DEMO.newUser, 'create:simulations')
  }
})

test('a user disabled by an administrator is signed out at the next renewal', async ({ page }) => {
  await page.clock.install()
  await signIn(page, DEMO.rider)
  admin('disable', DEMO.rider)
  try {
    await page.clock.fastForward('55:01')
    // §8: user-disabled signs out of the app and the provider, back to the origin.
    await page.waitForSelector('html[data-auth="signed-out"]')
    await expect(page).toHaveURL((url) => url.pathname === '/' && !url.search)
    await startSignIn(page)
    await expect(page.getByLabel('Password')).toBeVisible()
  } finally {
    admin('enable', DEMO.rider)
  }
})

test('sign-out ends the app session and the provider session', async ({ page }) => {
  await signIn(page, DEMO.rider)
  await signOut(page)
  expect(await authState(page)).toBe('signed-out')
  // The SDK's cache is gone and the provider asks for the password again.
  const cached = await page.evaluate(() =>
    Object.keys(localStorage).filter((k) => k.startsWith('@@auth0spajs@@')),
  )
  expect(cached).toEqual([])
  await page.reload()
  expect(await authState(page)).toBe('signed-out')
  await startSignIn(page)
  await expect(page.getByLabel('Password')).toBeVisible()
})

test('a wrong password shows an error on the sign-in page', async ({ page }) => {
  await page.goto('/')
  await startSignIn(page)
  await submitCredentials(page, DEMO.rider, 'not-the-password')
  await expect(page.getByRole('alert')).toHaveText('Wrong e-mail or password.')
  await page.screenshot({ path: screenshotPath('auth-wrong-password') })
  // The right password still works afterwards.
  await page.getByLabel('Password').fill(DEMO_PASSWORD)
  await page.getByRole('button', { name: 'Sign in' }).click()
  await page.waitForSelector('html[data-auth="signed-in"]')
})

test('a new account signs up and arrives signed in', async ({ page }) => {
  const email = `rider-${Date.now()}@example.com`
  await page.goto('/')
  await startSignIn(page)
  await page.getByRole('link', { name: 'Create an account' }).click()
  await page.getByLabel('Name').fill('Eddy Test')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill('a-long-password')
  await page.screenshot({ path: screenshotPath('auth-sign-up') })
  await page.getByRole('button', { name: 'Create account' }).click()
  await page.waitForSelector('html[data-auth="signed-in"]')
  expect(new URL(page.url()).pathname).toBe('/')
  // The same e-mail cannot sign up twice.
  await signOut(page)
  await startSignIn(page)
  await page.getByRole('link', { name: 'Create an account' }).click()
  await page.getByLabel('Name').fill('Someone Else')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill('another-long-password')
  await page.getByRole('button', { name: 'Create account' }).click()
  await expect(page.getByRole('alert')).toContainText('already exists')
})

test('a failed sign-in callback shows the login error notification', async ({ page }) => {
  await page.goto('/?error=access_denied&error_description=Denied&state=not-ours')
  await expect(page.getByText('Error during login')).toBeVisible()
  // The query is cleared and the app lands on the error path (the root).
  await expect(page).toHaveURL((url) => url.pathname === '/' && url.search === '')
  expect(await authState(page)).toBe('signed-out')
  // The next attempt (which first clears the failed state) signs in normally.
  await startSignIn(page)
  await submitCredentials(page, DEMO.rider, DEMO_PASSWORD)
  await page.waitForSelector('html[data-auth="signed-in"]')
})
