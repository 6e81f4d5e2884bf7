import { expect, test, type Page } from '@playwright/test'
import { screenshotPath, startSignIn } from '../helpers/auth.ts'
import { expectAccessible, watchErrors } from './shell-checks.ts'

// The first hour of a new account (docs/web-app.md "Home"): the trial, the rider profile typed
// once, a rider setup that starts from it and asks only for what is missing, "You are ready to
// go", and the first pacing optimization running to its result, read on a phone at 390 px; a
// changed profile is offered to the setup made from it.

const UUID = '[0-9a-f-]{36}'

// The profile: 176 cm, 70 kg, CP 250 W, W′ 18 kJ.
const HEIGHT_M = 1.76
const MASS_KG = 70

/**
 * The CdA estimate from height and weight (docs/engine/science.md §7, scheibo/calc's published
 * coefficients): frontal area 0.0276·h^0.725·m^0.425 + 0.1647 with Cd 0.88 on the hoods, the
 * drops 10 % lower on a road bike.
 */
const hoods = 0.88 * (0.0276 * HEIGHT_M ** 0.725 * MASS_KG ** 0.425 + 0.1647)
const drops = 0.9 * hoods
/** The default max power: the one-minute power of the critical-power relation, CP + W′/60 s. */
const MAX_POWER = 250 + 18000 / 60

async function signUp(page: Page, email: string) {
  await page.goto('/')
  await startSignIn(page)
  await page.getByRole('link', { name: 'Create an account' }).click()
  await page.getByLabel('Name').fill('Fiona First')
  await page.getByLabel('E-mail').fill(email)
  await page.getByLabel('Password').fill('a-long-password')
  await page.getByRole('button', { name: 'Create account' }).click()
  await page.waitForSelector('html[data-auth="signed-in"]')
}

test('first hour: new account → trial → profile → setup from it → ready → first plan, read at 390 px', async ({
  page,
}) => {
  test.setTimeout(240_000)
  const errors = watchErrors(page)
  await page.setViewportSize({ width: 1366, height: 900 })
  await signUp(page, `first-hour-${Date.now()}@example.com`)

  // The trial.
  await expect(page.getByRole('heading', { name: 'Subscribe' })).toBeVisible()
  await page.getByRole('link', { name: 'Select a plan' }).click()
  await page.getByRole('button', { name: 'Start free trial' }).click()
  await expect(page.getByText(/Your free trial runs until/)).toBeVisible()

  // Get ready: the profile, typed once.
  await page.getByRole('link', { name: 'Get ready' }).click()
  await expect(page.getByTestId('step-setup')).toHaveAttribute('data-complete', 'false')
  await page.screenshot({ path: screenshotPath('first-hour-home-get-ready-1366'), fullPage: true })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.screenshot({ path: screenshotPath('first-hour-home-get-ready-390'), fullPage: true })
  await page.setViewportSize({ width: 1366, height: 900 })
  await page.getByRole('link', { name: 'Complete your profile' }).click()
  await page.getByLabel('Rider height (cm)').fill('176')
  await page.getByLabel('Rider weight (kg)').fill('70')
  await page.getByLabel('CP (W)').fill('250')
  await page.getByLabel('W′ (kJ)').fill('18')
  await page.getByRole('button', { name: 'Save profile' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible()

  // The new rider setup carries the profile's values, the CdA estimate and the default max
  // power; only the setup's name is asked for.
  await page.getByRole('link', { name: 'Veloptima home' }).first().click()
  await expect(page.getByTestId('step-profile')).toHaveAttribute('data-complete', 'true')
  await page.getByRole('link', { name: 'Create a rider setup' }).click()
  await expect(page).toHaveURL(/\/simulation\/riders\/new$/)
  await expect(page.getByLabel(/^Rider weight/)).toHaveValue('70')
  await expect(page.getByLabel(/^Rider height/)).toHaveValue('176')
  await expect(page.getByLabel(/^CP/)).toHaveValue('250')
  await expect(page.getByLabel(/^W′/)).toHaveValue('18')
  await expect(page.getByLabel(/^Max power/)).toHaveValue(String(MAX_POWER))
  await expect(page.getByLabel(/^Position 1 CdA/)).toHaveValue(drops.toFixed(3))
  await expect(page.getByLabel(/^Position 2 CdA/)).toHaveValue(hoods.toFixed(3))
  await expect(page.getByLabel(/^Position 1 CdA/)).toHaveAccessibleDescription(/^Estimate/)
  await expect(page.getByLabel(/^Max power/)).toHaveAccessibleDescription(
    /^Default: CP \+ W′\/60 s/,
  )
  const prefill = page.getByTestId('setup-prefill')
  await expect(prefill).toContainText(
    'From your rider profile: weight 70 kg, height 176 cm, CP 250 W, W′ 18 kJ.',
  )
  await expect(page.getByTestId('setup-missing')).toHaveText('Still needed: Setup name.')
  await expectAccessible(page)
  await page.screenshot({ path: screenshotPath('first-hour-setup-1366'), fullPage: true })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.screenshot({ path: screenshotPath('first-hour-setup-390'), fullPage: true })
  await page.setViewportSize({ width: 1366, height: 900 })

  // In imperial units the same values, the estimate and the default unchanged (70 kg = 154.3 lb).
  await page.getByText('Imperial', { exact: true }).first().click()
  await expect(page.getByLabel(/^Rider weight/)).toHaveValue('154.3')
  await expect(page.getByLabel(/^Max power/)).toHaveValue(String(MAX_POWER))
  await expect(page.getByLabel(/^Position 2 CdA/)).toHaveValue(hoods.toFixed(3))
  await page.getByText('Metric', { exact: true }).first().click()
  await expect(page.getByLabel(/^Rider weight/)).toHaveValue('70')

  await page.getByLabel('Setup name').fill('My road bike')
  await expect(page.getByTestId('setup-missing')).toHaveText(/^Nothing else is needed/)
  await page.getByRole('button', { name: 'Create rider setup' }).click()
  await page.waitForURL(new RegExp(`/simulation/riders/${UUID}$`))

  // Ready, because the setup has what a pacing plan needs.
  await page.goto('/')
  await expect(page.getByRole('heading', { name: 'You are ready to go' })).toBeVisible()
  await expectAccessible(page)
  await page.screenshot({ path: screenshotPath('first-hour-home-ready-1366'), fullPage: true })
  await page.setViewportSize({ width: 390, height: 844 })
  await page.screenshot({ path: screenshotPath('first-hour-home-ready-390'), fullPage: true })
  await page.setViewportSize({ width: 1366, height: 900 })

  // The first pacing optimization from the ready screen: a sample course and the new setup.
  await page.getByRole('link', { name: 'Create new' }).first().click()
  await expect(page).toHaveURL(/\/simulation\/optimizations\/new\?type=pacing$/)
  await page
    .getByLabel('Course', { exact: true })
    .selectOption({ label: 'Sample · Alpine climb 12 km at 7.5 % with hairpins' })
  await page.getByLabel('Rider setup').selectOption({ label: 'My road bike' })
  await page.getByLabel('Optimization name').fill('My first plan')
  await page.getByRole('button', { name: 'Create' }).click()
  await page.waitForURL(new RegExp(`/simulation/optimizations/pacing/${UUID}$`))
  await page.getByRole('button', { name: 'Run' }).click()
  await page.waitForURL(new RegExp(`/optimizations/pacing/${UUID}/results/${UUID}$`), {
    timeout: 120_000,
  })
  await expect(page.getByTestId('predicted-time')).toHaveText(/^(\d+:)?\d?\d:\d\d$/, {
    timeout: 60_000,
  })
  const plan = page.getByRole('table', { name: /Pacing plan/ })
  await expect(plan.locator('tbody tr')).not.toHaveCount(0)
  // Every target lies between 0 and the setup's max power.
  const powers = (await plan.locator('tbody tr').allInnerTexts()).map((row) =>
    Number(/(\d+) W/.exec(row)?.[1]),
  )
  expect(powers.every((p) => p > 0 && p <= MAX_POWER)).toBe(true)

  // On a phone: the plan's first card shows its target power inside the screen.
  await page.setViewportSize({ width: 390, height: 844 })
  const card = page.getByTestId('plan-card-power').first()
  await card.scrollIntoViewIfNeeded()
  await expect(card).toBeVisible()
  await expect(card).toHaveText(/^\d+ W$/)
  const box = (await card.boundingBox())!
  expect(box.x).toBeGreaterThanOrEqual(0)
  expect(box.x + box.width).toBeLessThanOrEqual(390)
  // Nothing scrolls sideways: the page is no wider than the phone.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
  await page.screenshot({ path: screenshotPath('first-hour-result-390'), fullPage: true })

  // A new weight and CP in the profile: the setup made from it is offered the new values (the
  // default max power follows: 260 + 18000/60 = 560 W), and changes only on confirm.
  await page.setViewportSize({ width: 1366, height: 900 })
  await page.goto('/account')
  await page.getByLabel('Rider weight (kg)').fill('72')
  await page.getByLabel('CP (W)').fill('260')
  await page.getByRole('button', { name: 'Save profile' }).click()
  const offer = page.getByTestId('setup-update-offer')
  await expect(offer).toContainText(
    'My road bike: Rider weight 70 kg → 72 kg, CP 250 W → 260 W, Max power (CP + W′/60 s) 550 W → 560 W',
  )
  await expectAccessible(page)
  await offer.screenshot({ path: screenshotPath('first-hour-profile-offer') })
  await page.getByRole('button', { name: 'Update 1 rider setup' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Updated 1 rider setup.' })).toBeVisible()
  await page.goto('/simulation/riders')
  await page.getByRole('link', { name: 'My road bike' }).click()
  await expect(page.getByLabel(/^Rider weight/)).toHaveValue('72')
  await expect(page.getByLabel(/^CP/)).toHaveValue('260')
  await expect(page.getByLabel(/^Max power/)).toHaveValue('560')
  expect(errors).toEqual([])
})
