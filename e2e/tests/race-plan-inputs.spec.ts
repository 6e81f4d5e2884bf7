import { readFileSync } from 'node:fs'
import { expect, test, type Page } from '@playwright/test'
import { DEMO, screenshotPath, signIn } from '../helpers/auth.ts'
import { pageErrors } from '../helpers/page-errors.ts'
import { startOptimization } from '../helpers/optimization.ts'
import { captureToken } from './shell-checks.ts'

// The race plan's inputs as a rider types them: the rider setup's durability (% of CP and W′ lost
// per 1,000 kJ) and heat acclimatisation; a pacing optimization's goal (a target time), the heat
// and altitude effects on CP, the gut tolerance and the pacing rules (an easy start, coasting, a
// descent power cap). A bad entry is refused naming the field and the value; everything saved is
// there again after a reload. Desktop and phone widths.

const UUID = '[0-9a-f-]{36}'

/** A 12 km course north (121 points 100 m apart), rolling ±25 m, as a GPX file. */
const rollingGpx = () =>
  `<?xml version="1.0" encoding="UTF-8"?><gpx version="1.1" creator="e2e" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Race plan loop</name><trkseg>${Array.from(
    { length: 121 },
    (_, i) =>
      `<trkpt lat="${(45 + i * 0.0009).toFixed(6)}" lon="6.000000"><ele>${(200 + 25 * Math.sin(i / 12)).toFixed(1)}</ele></trkpt>`,
  ).join('')}</trkseg></trk></gpx>`

/** Signs the rider in and imports the course through the API; resolves to the course's id. */
async function prepare(page: Page): Promise<string> {
  const token = captureToken(page)
  await signIn(page, DEMO.rider)
  await expect(page.getByRole('heading', { name: /Get ready|You are ready to go/ })).toBeVisible()
  const imported = await page.request.post('/api/courses/import', {
    headers: { authorization: `Bearer ${token()}` },
    multipart: {
      file: {
        name: 'race-plan-loop.gpx',
        mimeType: 'application/gpx+xml',
        buffer: Buffer.from(rollingGpx()),
      },
    },
  })
  expect(imported.status(), await imported.text()).toBeLessThan(300)
  return ((await imported.json()) as { id: string }).id
}

/** The rider form with durability and heat acclimatisation; resolves on the new setup's page. */
async function createDurableSetup(page: Page, name: string) {
  await page.goto('/simulation/riders/new')
  await page.getByLabel('Setup name').fill(name)
  await page.getByLabel(/^Rider weight/).fill('72')
  await page.getByLabel(/^Rider height/).fill('180')
  await page.getByRole('button', { name: 'Estimate CdA from height and weight' }).click()
  await page.getByLabel(/^CP/).fill('280')
  await page.getByLabel(/^W′/).fill('20')
  await page.getByLabel(/^Max power/).fill('650')
  const durability = page.getByLabel(/^Durability \(% per 1,000 kJ\)/)
  await expect(page.getByText('trained riders 2–5 %, amateurs about 10 %')).toBeVisible()
  // Refused, naming the field, the range and the value typed.
  await durability.fill('60')
  await page.getByRole('button', { name: 'Create rider setup' }).click()
  await expect(
    page.getByText('Durability must be between 0 and 50 % per 1,000 kJ (got 60).').first(),
  ).toBeVisible()
  await durability.fill('6')
  await page.getByLabel('Heat-acclimatised').check()
  await page.getByRole('button', { name: 'Create rider setup' }).click()
  await page.waitForURL(new RegExp(`/simulation/riders/${UUID}$`))
}

test('race-plan inputs: durability, heat, an easy start and a target time are kept', async ({
  page,
}) => {
  test.setTimeout(180_000)
  const errors = pageErrors(page)
  const courseId = await prepare(page)

  await createDurableSetup(page, 'Durable TT bike')
  await page.reload()
  await expect(page.getByLabel(/^Durability/)).toHaveValue('6')
  await expect(page.getByLabel('Heat-acclimatised')).toBeChecked()
  await page.getByLabel(/^Durability/).scrollIntoViewIfNeeded()
  await page.screenshot({ path: screenshotPath('race-plan-inputs-rider'), fullPage: true })

  await startOptimization(page, 'pacing', courseId, 'Durable TT bike', 'Hot race')
  await page.getByLabel('Goal').selectOption('target_time')
  const target = page.getByLabel(/^Target time/)
  await target.fill('25 min')
  await page.getByLabel('Heat lowers CP').check()
  await page.getByLabel('Gut tolerance').selectOption('90')
  await page.getByLabel(/^Easy start \(min\)/).fill('10')
  await page.getByLabel(/^Easy start ceiling/).fill('85')
  await page.getByLabel(/^Coast on descents steeper than/).fill('6')
  await page.getByLabel('Coast into braking points').check()
  await page.getByLabel(/^Cap power on descents steeper than/).fill('4')
  await page.getByLabel(/^Descent power cap/).fill('150')
  await page.getByRole('button', { name: 'Create' }).click()
  await expect(
    page.getByText('Target time: enter a time as h:mm:ss, e.g. 2:30:00 (got “25 min”).').first(),
  ).toBeVisible()
  await target.fill('0:25:00')
  await page.getByRole('button', { name: 'Create' }).click()
  await page.waitForURL(new RegExp(`/simulation/optimizations/pacing/${UUID}$`))

  await page.reload()
  await expect(page.getByLabel('Goal')).toHaveValue('target_time')
  await expect(page.getByLabel(/^Target time/)).toHaveValue('0:25:00')
  await expect(page.getByLabel('Heat lowers CP')).toBeChecked()
  await expect(page.getByLabel('Altitude lowers CP')).not.toBeChecked()
  await expect(page.getByLabel('Gut tolerance')).toHaveValue('90')
  await expect(page.getByLabel(/^Easy start \(min\)/)).toHaveValue('10')
  await expect(page.getByLabel(/^Easy start ceiling/)).toHaveValue('85')
  await expect(page.getByLabel(/^Coast on descents steeper than/)).toHaveValue('6')
  await expect(page.getByLabel('Coast into braking points')).toBeChecked()
  await expect(page.getByLabel(/^Cap power on descents steeper than/)).toHaveValue('4')
  await expect(page.getByLabel(/^Descent power cap/)).toHaveValue('150')
  await page.getByRole('heading', { name: 'Race plan' }).scrollIntoViewIfNeeded()
  await page.screenshot({ path: screenshotPath('race-plan-inputs-optimization'), fullPage: true })

  await page.setViewportSize({ width: 390, height: 844 })
  const card = page.locator('section', { has: page.getByRole('heading', { name: 'Race plan' }) })
  await card.scrollIntoViewIfNeeded()
  await card.screenshot({ path: screenshotPath('race-plan-inputs-phone') })
  expect(errors).toEqual([])
})

test('a race plan typed in the form runs: the target met, then the fastest plan with its costs and fuel (in the preview and the run) and every file', async ({
  page,
}) => {
  test.setTimeout(300_000)
  const errors = pageErrors(page)
  await page.setViewportSize({ width: 1280, height: 900 })
  const courseId = await prepare(page)
  await createDurableSetup(page, 'Durable road bike')

  await startOptimization(page, 'pacing', courseId, 'Durable road bike', 'Hot race, run')
  await page.getByLabel('Goal').selectOption('target_time')
  await page.getByLabel(/^Target time/).fill('0:30:00')
  await page.getByLabel('Heat lowers CP').check()
  await page.getByLabel('Gut tolerance').selectOption('90')
  await page.getByLabel(/^Easy start \(min\)/).fill('5')
  await page.getByLabel(/^Easy start ceiling/).fill('75')
  await page.getByLabel(/^Coast on descents steeper than/).fill('2')
  // a feed zone: km 6–7 at most 200 W
  await page.getByRole('button', { name: 'Add a rule stretch' }).click()
  await page.getByLabel(/^Rule stretch 1 start/).fill('6')
  await page.getByLabel(/^Rule stretch 1 end/).fill('7')
  await page.getByLabel('Rule stretch 1 rule').selectOption('power')
  await page.getByLabel(/^Rule stretch 1 value/).fill('200')
  await page.getByLabel(/^Rule stretch 1 name/).fill('Feed zone')
  await page.getByRole('button', { name: 'Create' }).click()
  await page.waitForURL(new RegExp(`/simulation/optimizations/pacing/${UUID}$`))
  const optimizationUrl = page.url()
  await expect(page.getByLabel(/^Rule stretch 1 value/)).toHaveValue('200')

  // 12 km in 30 minutes: met with the least effort (within the engine’s 0.5 %, 9 s).
  await page.getByRole('button', { name: 'Run' }).click()
  await page.waitForURL(new RegExp(`/results/${UUID}$`), { timeout: 120_000 })
  await expect(page.getByTestId('target-time')).toHaveText(
    /^Target 30:00: finishes in (29:5\d|30:0\d) at NP \d+ W\./,
    { timeout: 60_000 },
  )
  await expect(page.getByTestId('fuel-card')).toBeVisible()

  // The fastest plan of the same race: what heat, durability and each rule cost, the rows the
  // rules hold, the fuel plan, and every file.
  await page.goto(optimizationUrl)
  await page.getByLabel('Goal').selectOption('fastest')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByLabel('Goal')).toHaveValue('fastest')
  // The preview's refined plan shows the same as the run will: what heat costs (its last answer,
  // after the plan itself), and the fuel.
  const preview = page.getByTestId('preview')
  // the plan is on screen while its four costs (four more optimizations) are computed
  await expect(preview.getByTestId('preview-status')).toContainText(
    'working out what each effect and rule costs it',
    { timeout: 120_000 },
  )
  await expect(preview.getByTestId('finish-cp')).toBeVisible()
  await preview.getByTestId('preview-status').scrollIntoViewIfNeeded()
  await page.screenshot({ path: screenshotPath('race-plan-preview-before-costs') })
  await expect(preview).toHaveAttribute('data-stage', 'costs', { timeout: 120_000 })
  await expect(preview.getByTestId('plan-costs')).toContainText('heat +')
  await expect(preview.getByTestId('finish-cp')).toHaveText(/^At the finish your CP is \d+ W/)
  await expect(preview.getByTestId('fuel-carbohydrate')).toContainText(
    'your gut takes up to 90 g/h',
  )
  await preview.getByTestId('plan-costs').scrollIntoViewIfNeeded()
  await page.screenshot({ path: screenshotPath('race-plan-preview-costs') })
  await page.getByRole('button', { name: 'Run' }).click()
  await page.waitForURL(new RegExp(`/results/${UUID}$`), { timeout: 120_000 })
  const costs = page.getByTestId('plan-costs')
  await expect(costs).toContainText('heat +', { timeout: 60_000 })
  await expect(costs).toContainText('durability +')
  await expect(costs).toContainText('easy start')
  await expect(costs).toContainText('coasting')
  await expect(page.getByTestId('finish-cp')).toHaveText(/^At the finish your CP is \d+ W/)
  await expect(page.getByTestId('fuel-card').getByTestId('fuel-carbohydrate')).toContainText(
    'your gut takes up to 90 g/h',
  )
  await page.getByTestId('plan-sections').locator('summary').click()
  await expect(page.getByRole('cell', { name: 'Held 200 W' }).first()).toBeVisible()
  for (const label of [
    'Download FIT course',
    'Download GPX',
    'Download CSV',
    'Download ERG',
    'Download MRC',
    'Download Zwift workout',
    'Download FIT workout',
  ]) {
    const event = page.waitForEvent('download')
    await page.getByRole('button', { name: label, exact: true }).click()
    const file = await event
    const bytes = readFileSync((await file.path())!)
    expect(bytes.length, label).toBeGreaterThan(100)
  }
  await page.screenshot({ path: screenshotPath('race-plan-typed-result'), fullPage: true })
  expect(errors).toEqual([])
})
