import { expect, test, type Locator, type Page } from '@playwright/test'
import { DEMO, screenshotPath, signIn } from '../helpers/auth.ts'
import {
  recommendTyrePressure,
  recommendWheels,
  type TyrePressureInput,
  type WheelsInput,
} from '../../packages/engine/src/index.ts'
import { pageErrors } from '../helpers/page-errors.ts'

// The /tools journey: both calculators in metric, then in imperial, against the engine.

const PA_PER_PSI = 6894.757293168
const bar = (pa: number) => `${(pa / 1e5).toFixed(2)} bar`
const psi = (pa: number) => `${(pa / PA_PER_PSI).toFixed(1)} psi`
const LB = 0.45359237
const MPH = 0.44704

async function fill(region: Locator, label: string, value: string) {
  const input = region.getByLabel(label)
  await input.fill(value)
}

function duration(seconds: number): string {
  const s = Math.round(Math.abs(seconds))
  const sign = seconds < 0 ? '−' : ''
  return s < 60 ? `${sign}${s} s` : `${sign}${Math.floor(s / 60)} min ${s % 60} s`
}

/**
 * Switches the account's units with the shell's unit toggle (Quick settings on /account), which
 * saves use_imperial_units on the user.
 */
async function setUnits(page: Page, system: 'metric' | 'imperial') {
  // The toggle follows the user's document once it has loaded: wait for it before clicking.
  const userDoc = page.waitForResponse(
    (r) => /\/api\/users\/[^/]+$/.test(r.url()) && r.request().method() === 'GET',
  )
  await page.goto('/account')
  expect((await userDoc).ok()).toBe(true)
  const name = system === 'metric' ? 'Metric' : 'Imperial'
  const radio = page.getByRole('radio', { name }).first()
  await expect(radio).toBeAttached()
  if (!(await radio.isChecked())) {
    const saved = page.waitForResponse(
      (r) => r.url().includes('/api/users/') && r.request().method() === 'PATCH',
    )
    await page.locator('label', { has: radio }).click()
    expect((await saved).ok()).toBe(true)
  }
  await expect(radio).toBeChecked()
}

async function openTools(page: Page) {
  await page.goto('/tools')
  await expect(page.getByRole('heading', { name: 'Tools', level: 1 })).toBeVisible()
}

test('both calculators in metric and imperial agree with the engine', async ({ page }) => {
  const errors = pageErrors(page)
  await signIn(page, DEMO.rider)
  await setUnits(page, 'metric')
  await openTools(page)

  // Tyre pressure, metric: 80 kg rider, 9 kg bike, 28 mm labelled on a 23 mm hookless rim.
  const tyre = page.getByRole('region', { name: 'Tyre pressure' })
  await fill(tyre, 'Rider mass', '80')
  await fill(tyre, 'Bike and kit', '9')
  await fill(tyre, 'Tyre width', '28')
  await fill(tyre, 'Rim internal width', '23')
  await tyre.getByLabel('Tyre and rim').selectOption('hookless')
  await tyre.getByLabel('Surface').selectOption('normal')
  const tyreInput: TyrePressureInput = {
    riderMassKg: 80,
    bikeMassKg: 9,
    tyreWidthMm: 28,
    widthKind: 'labelled',
    rimInternalWidthMm: 23,
    tyreType: 'hookless',
    surface: 'normal',
    wet: false,
    bikeType: 'road',
  }
  const t = recommendTyrePressure(tyreInput)
  await expect(tyre.getByTestId('tyre-front')).toHaveText(bar(t.front.pressurePa))
  await expect(tyre.getByTestId('tyre-rear')).toHaveText(bar(t.rear.pressurePa))
  // Live: a heavier rider raises the rear until the hookless cap bites, with a warning.
  await fill(tyre, 'Rider mass', '100')
  const heavy = recommendTyrePressure({ ...tyreInput, riderMassKg: 100 })
  expect(heavy.rear.limitedBy).toBe('hookless-cap')
  await expect(tyre.getByTestId('tyre-rear')).toHaveText('5.00 bar')
  await expect(tyre.getByRole('list', { name: 'Warnings' })).toContainText(
    'Rear: the model asks for',
  )
  await expect(tyre.getByRole('img', { name: /Pressure against system mass/ })).toBeVisible()
  await fill(tyre, 'Rider mass', '80')

  // Wheels, metric: a light rider in strong wind with low handling confidence.
  const wheels = page.getByRole('region', { name: 'Wheel depth' })
  await fill(wheels, 'Rider mass', '55')
  await fill(wheels, 'Bike and kit', '7.5')
  await fill(wheels, 'Expected wind', '35')
  await wheels.getByLabel('Handling confidence').selectOption('low')
  const windy: WheelsInput = {
    riderMassKg: 55,
    bikeMassKg: 7.5,
    windSpeedMps: 35 / 3.6,
    handling: 'low',
    terrain: 'flat',
    allowDisc: true,
  }
  const w = recommendWheels(windy)
  const wheelName = (id: string) => (id === 'disc' ? 'Disc' : `${id} mm`)
  await expect(wheels.getByTestId('wheels-front')).toHaveText(wheelName(w.front.wheel))
  await expect(wheels.getByTestId('wheels-rear')).toHaveText(wheelName(w.rear.wheel))
  await expect(wheels.getByTestId('wheels-gain')).toHaveText(duration(w.timeGainedS))
  // Calm air: the front gets deeper (stronger wind → shallower front for a light rider).
  await fill(wheels, 'Expected wind', '5')
  const calm = recommendWheels({ ...windy, windSpeedMps: 5 / 3.6 })
  expect(Number.parseInt(calm.front.wheel)).toBeGreaterThan(Number.parseInt(w.front.wheel))
  await expect(wheels.getByTestId('wheels-front')).toHaveText(wheelName(calm.front.wheel))
  await fill(wheels, 'Expected wind', '35')

  // One of the user's courses (every account sees the sample courses) replaces the terrain.
  const picker = wheels.getByLabel('Or one of your courses')
  await expect(picker).toBeVisible()
  const sample = picker.locator('option', { hasText: 'Flat 40 km time trial' })
  await picker.selectOption({ value: (await sample.getAttribute('value'))! })
  const explanation = wheels.getByTestId('wheels-explanation')
  await expect(explanation).toContainText('Flat 40 km time trial')
  await expect(explanation).toContainText(/\(40\.\d km\)/)
  await expect(wheels.getByTestId('wheels-gain')).toHaveText(/^\d+ (min \d+ )?s$/)
  await page.screenshot({ path: screenshotPath('tools-metric'), fullPage: true })
  await picker.selectOption('')

  // Imperial: the same setups, shown in lb, mph and psi.
  await setUnits(page, 'imperial')
  await openTools(page)
  const tyreI = page.getByRole('region', { name: 'Tyre pressure' })
  const wheelsI = page.getByRole('region', { name: 'Wheel depth' })
  await fill(tyreI, 'Rider mass', '176')
  await fill(tyreI, 'Bike and kit', '20')
  await fill(tyreI, 'Tyre width', '28')
  await fill(tyreI, 'Rim internal width', '23')
  await tyreI.getByLabel('Tyre and rim').selectOption('hookless')
  await tyreI.getByLabel('Surface').selectOption('normal')
  const ti = recommendTyrePressure({ ...tyreInput, riderMassKg: 176 * LB, bikeMassKg: 20 * LB })
  await expect(tyreI.getByTestId('tyre-front')).toHaveText(psi(ti.front.pressurePa))
  await expect(tyreI.getByTestId('tyre-rear')).toHaveText(psi(ti.rear.pressurePa))
  await expect(tyreI.getByText(/lb on the bike/)).toBeVisible()
  // The hookless limit is near for this rider: said in psi and lb, not bar and kg.
  const warningsI = tyreI.getByRole('list', { name: 'Warnings' })
  await expect(warningsI).toContainText(/72\.5 psi hookless limit at a rider mass of [\d.]+ lb/)
  await expect(warningsI).not.toContainText('kg')
  await fill(wheelsI, 'Rider mass', '121')
  await fill(wheelsI, 'Bike and kit', '16.5')
  await fill(wheelsI, 'Expected wind', '22')
  await wheelsI.getByLabel('Handling confidence').selectOption('low')
  const wi = recommendWheels({
    ...windy,
    riderMassKg: 121 * LB,
    bikeMassKg: 16.5 * LB,
    windSpeedMps: 22 * MPH,
  })
  await expect(wheelsI.getByTestId('wheels-front')).toHaveText(wheelName(wi.front.wheel))
  await expect(wheelsI.getByTestId('wheels-gain')).toHaveText(duration(wi.timeGainedS))
  await expect(wheelsI.getByTestId('wheels-explanation')).toContainText('mph')
  await page.screenshot({ path: screenshotPath('tools-imperial'), fullPage: true })

  await page.setViewportSize({ width: 390, height: 844 })
  await page.screenshot({ path: screenshotPath('tools-mobile'), fullPage: true })
  await setUnits(page, 'metric')
  expect(errors).toEqual([])
})

test('bad input is named, not a crash', async ({ page }) => {
  await signIn(page, DEMO.rider)
  await openTools(page)
  const tyre = page.getByRole('region', { name: 'Tyre pressure' })
  await fill(tyre, 'Rider mass', 'abc')
  await expect(tyre.getByText('Enter a number.')).toBeVisible()
  await expect(tyre.getByRole('alert')).toContainText('Fill in the highlighted fields')
  await fill(tyre, 'Rider mass', '900')
  await expect(tyre.getByRole('alert')).toContainText('Rider mass is outside the range')
})
