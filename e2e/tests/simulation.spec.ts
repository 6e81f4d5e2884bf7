import { readFileSync } from 'node:fs'
import { Decoder, Stream } from '@garmin/fitsdk'
import { expect, test, type Page } from '@playwright/test'
import { DEMO, screenshotPath, signIn } from '../helpers/auth.ts'
import { needsCourses, uploadCourse } from '../helpers/courses.ts'
import { pageErrors } from '../helpers/page-errors.ts'
import { startOptimization } from '../helpers/optimization.ts'

// The simulation journey: upload a real course, create a rider setup, run a pacing
// optimization, read the result, get the notification, export the plan as a FIT course and
// decode it with Garmin's SDK; bad inputs each give a message naming the problem.

// The real-world files this journey uploads (scripts/test-data.ts): without them it skips,
// naming them.
needsCourses('alpe-dhuez.gpx', 'tt-beton-classic.gpx')
const UUID = '[0-9a-f-]{36}'

/** The session token the app sends with its API calls (to check the API's side). */
function captureToken(page: Page): () => string | undefined {
  let token: string | undefined
  page.on('request', (r) => {
    const h = r.headers().authorization
    if (r.url().includes('/api/') && h?.startsWith('Bearer ')) token = h.slice(7)
  })
  return () => token
}

test('pacing: course, rider setup, run, result, notification and FIT export', async ({
  page,
  browser,
}) => {
  test.setTimeout(180_000)
  const errors = pageErrors(page)
  const token = captureToken(page)
  await signIn(page, DEMO.rider)

  // A file that is not a course: the message names the file and the problem; nothing is added.
  await page.goto('/simulation/courses')
  await page.getByLabel('Course file').setInputFiles({
    name: 'shopping-list.gpx',
    mimeType: 'application/gpx+xml',
    buffer: Buffer.from('milk, eggs, inner tubes\n'),
  })
  const refusal = page.getByRole('alert').filter({ hasText: 'shopping-list.gpx' })
  await expect(refusal).toBeVisible()
  await expect(page).toHaveURL(/\/simulation\/courses$/)
  await expect(page.getByRole('link', { name: 'shopping-list' })).toHaveCount(0)

  // The real course: statistics, the profile coloured by grade and the route outline.
  const courseId = await uploadCourse(page, 'alpe-dhuez.gpx')
  await expect(page.getByText('Distance')).toBeVisible()
  await expect(page.getByText(/^13\.\d\d km$/)).toBeVisible()
  await expect(page.getByRole('img', { name: /^Elevation profile/ })).toBeVisible()
  // The route line and its start and finish markers.
  await expect(page.getByTestId('route-map').locator('path.leaflet-interactive')).toHaveCount(3)
  await page.getByLabel('Name').fill("Alpe d'Huez – race")
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible()
  // The first 2 km on rough road (segments keep their surface; the simulations read it).
  await page.getByLabel(/^Stretch from/).fill('0')
  await page.getByLabel(/^Stretch to/).fill('2')
  await page.getByRole('button', { name: 'Apply' }).click()
  await expect(
    page.getByRole('status').filter({ hasText: /\d+ segments set to rough/ }),
  ).toBeVisible()
  await expect(page.getByTestId('surface-lengths')).toContainText(/rough 2(\.0\d?)? km/)
  await page.screenshot({ path: screenshotPath('simulation-course'), fullPage: true })

  // Rider setup: a negative mass is refused with a message naming the field.
  await page.goto('/simulation/riders/new')
  await page.getByLabel('Setup name').fill('Race bike')
  await page.getByLabel(/^Rider weight/).fill('72')
  await page.getByLabel(/^Rider height/).fill('180')
  await page.getByLabel(/^Bike mass/).fill('-3')
  await page.getByRole('button', { name: 'Create rider setup' }).click()
  await expect(page.getByText('Bike mass cannot be negative (got -3 kg).').first()).toBeVisible()
  await expect(page).toHaveURL(/\/riders\/new$/)
  await page.getByLabel(/^Bike mass/).fill('7.8')
  await page.getByRole('button', { name: 'Estimate CdA from height and weight' }).click()
  await expect(page.getByLabel(/^Position 1 CdA/)).toHaveValue(/^0\.3\d\d$/)
  // CP and W′ from two all-out efforts (Monod & Scherrer 1965): a rider with CP 280 W and W′ 20 kJ
  // holds 280 + 20000/180 = 391.1 W for 3 min and 280 + 20000/720 = 307.8 W for 12 min.
  await page.getByText('Don’t know your CP and W′? Estimate them').click()
  await page.getByLabel(/^Effort 1 power/).fill('391.1')
  await page.getByLabel(/^Effort 2 power/).fill('307.8')
  await expect(page.getByTestId('cp-fit')).toHaveText('CP 280 W, W′ 20.0 kJ')
  await page
    .getByText('Don’t know your CP and W′? Estimate them')
    .locator('..')
    .screenshot({ path: screenshotPath('simulation-cp-estimate') })
  await page.getByRole('button', { name: 'Use CP and W′' }).click()
  await expect(page.getByLabel(/^CP/)).toHaveValue('280')
  await expect(page.getByLabel(/^W′/)).toHaveValue('20.0')
  await page.getByLabel(/^Max power/).fill('650')
  await page.getByRole('button', { name: 'Create rider setup' }).click()
  await page.waitForURL(new RegExp(`/simulation/riders/${UUID}$`))
  const setupUrl = page.url()
  await page.screenshot({ path: screenshotPath('simulation-rider-setup'), fullPage: true })

  // A pacing optimization with the instant preview, then the saved run.
  await startOptimization(
    page,
    'pacing',
    { label: "Alpe d'Huez – race" },
    'Race bike',
    'Alpe race plan',
  )
  await expect(page.getByTestId('preview').getByTestId('predicted-time')).toHaveText(
    /^(\d+:)?\d?\d:\d\d$/,
    { timeout: 20_000 },
  )
  await page.screenshot({ path: screenshotPath('simulation-preview'), fullPage: true })
  await page.getByRole('button', { name: 'Create' }).click()
  await page.waitForURL(new RegExp(`/simulation/optimizations/pacing/${UUID}$`))
  await page.getByRole('button', { name: 'Run' }).click()
  await page.waitForURL(new RegExp(`/optimizations/pacing/${UUID}/results/${UUID}$`), {
    timeout: 60_000,
  })

  // The result: time, time saved, the plan, the charts along the distance.
  await expect(page.getByTestId('predicted-time')).toHaveText(/^(\d+:)?\d?\d:\d\d$/, {
    timeout: 30_000,
  })
  await expect(page.getByTestId('time-saved')).toHaveText(/^−?\d+ (s|min \d\d s)$/)
  await expect(
    page.getByRole('table', { name: /Pacing plan/ }).locator('tbody tr'),
  ).not.toHaveCount(0)
  await expect(page.getByTestId('plan-charts').locator('canvas')).toHaveCount(4)
  await expect(page.getByText('Optimization ready').first()).toBeVisible({ timeout: 20_000 })
  await page.screenshot({ path: screenshotPath('simulation-result'), fullPage: true })

  // The notification "Optimization ready" with the run's export.
  await expect
    .poll(
      async () => {
        const r = await page.request.get('/api/notifications', {
          headers: { authorization: `Bearer ${token()}` },
        })
        const body = (await r.json()) as {
          items: { title: string; download_blob: string | null }[]
        }
        return body.items.find((n) => n.title === 'Optimization ready')?.download_blob ?? null
      },
      { timeout: 20_000 },
    )
    .toMatch(new RegExp(UUID))

  // FIT course export, decoded by Garmin's SDK.
  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download FIT course' }).click()
  const fit = new Uint8Array(readFileSync(await (await download).path()))
  const decoder = new Decoder(Stream.fromByteArray(fit))
  expect(decoder.isFIT()).toBe(true)
  expect(decoder.checkIntegrity()).toBe(true)
  const { messages, errors: fitErrors } = new Decoder(Stream.fromByteArray(fit)).read()
  expect(fitErrors).toEqual([])
  expect(messages.fileIdMesgs?.[0]?.type).toBe('course')
  expect(messages.recordMesgs?.length).toBeGreaterThan(100)
  expect(messages.recordMesgs?.every((r) => typeof r.power === 'number' && r.power > 0)).toBe(true)
  expect(messages.coursePointMesgs?.length).toBeGreaterThan(0)

  // The input view keeps the snapshot even after the setup changes.
  const resultUrl = page.url()
  await page.goto(setupUrl)
  await page.getByLabel(/^Rider weight/).fill('80')
  await page.getByRole('button', { name: 'Save' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible()
  await page.goto(`${resultUrl}/input`)
  await expect(page.getByTestId('snapshot-setup')).toContainText('72.0 kg')
  await page.screenshot({ path: screenshotPath('simulation-result-input'), fullPage: true })

  // An infeasible limit: the preview says why, in words.
  await page.goto(resultUrl.replace(/\/results\/.*$/, ''))
  await page.getByLabel('Constraint').selectOption({ label: 'Average power' })
  await page.getByLabel(/^Power/).fill('35')
  await expect(page.getByRole('alert').filter({ hasText: 'cannot be ridden' })).toBeVisible({
    timeout: 20_000,
  })
  await page.screenshot({ path: screenshotPath('simulation-infeasible') })

  // Someone else's course id in the URL: a clear message, not their course.
  const other = await browser.newContext()
  const coachPage = await other.newPage()
  await signIn(coachPage, DEMO.coach)
  const coachCourse = await uploadCourse(coachPage, 'tt-beton-classic.gpx')
  await other.close()
  expect(coachCourse).not.toBe(courseId)
  await page.goto(`/simulation/courses/${coachCourse}`)
  await expect(page.getByRole('alert')).toContainText('This course cannot be shown.')
  await expect(page.getByText('tt-beton-classic')).toHaveCount(0)
  await page.screenshot({ path: screenshotPath('simulation-not-yours') })

  expect(errors).toEqual([])
})

test('equipment: two wheel options ranked with Δ time, result and FIT export', async ({ page }) => {
  test.setTimeout(180_000)
  const errors = pageErrors(page)
  await signIn(page, DEMO.rider)
  await uploadCourse(page, 'tt-beton-classic.gpx')
  // Trim to the first 15 km: the statistics follow.
  await page.getByLabel(/^Trim start/).fill('0')
  await page.getByLabel(/^Trim end/).fill('15')
  page.once('dialog', (d) => void d.accept())
  await page.getByRole('button', { name: 'Trim', exact: true }).click()
  await expect(
    page.getByRole('status').filter({ hasText: /Trimmed to 1[45](\.\d+)? km/ }),
  ).toBeVisible()
  await expect(page.getByText(/^1[45]\.\d\d km$/)).toBeVisible()
  // Read the name only now that the course page has loaded (right after the upload the list
  // page's heading can still be showing: fixture of a flaky CI run that waited on "Courses").
  const course = await page.getByRole('heading', { level: 1 }).textContent()

  await page.goto('/simulation/riders/new')
  await page.getByLabel('Setup name').fill('TT bike')
  await page.getByLabel('Bike type').selectOption({ label: 'Time trial' })
  await page.getByLabel(/^Rider weight/).fill('75')
  await page.getByLabel(/^Rider height/).fill('183')
  await page.getByRole('button', { name: 'Estimate CdA from height and weight' }).click()
  await expect(page.getByLabel(/^Position 1 CdA/)).toHaveValue(/^0\.2\d\d$/)
  await page.getByLabel(/^CP/).fill('320')
  await page.getByLabel(/^W′/).fill('22')
  await page.getByLabel(/^Max power/).fill('800')
  await page.getByRole('button', { name: 'Create rider setup' }).click()
  await page.waitForURL(new RegExp(`/simulation/riders/${UUID}$`))

  // In imperial units the same setup reads in pounds and mph (75 kg = 165.3 lb), and back.
  // Quick settings' unit switch (clicked by its visible label).
  await page.getByText('Imperial', { exact: true }).click()
  await expect(page.getByLabel(/^Rider weight/)).toHaveValue('165.3')
  await expect(page.getByText('Position 1 from (mph)')).toBeVisible()
  await page.screenshot({ path: screenshotPath('simulation-rider-imperial'), fullPage: true })
  await page.getByText('Metric', { exact: true }).click()
  await expect(page.getByLabel(/^Rider weight/)).toHaveValue('75')

  await startOptimization(page, 'equipment', { label: course! }, 'TT bike', 'TT wheels')
  // The default group: shallow alloy wheels (baseline) against deep carbon wheels.
  await expect(page.getByLabel('Option 1 (baseline)')).toHaveValue('Shallow alloy')
  await expect(page.getByLabel('Option 2', { exact: true })).toHaveValue('Deep carbon')
  const previewRanking = page.getByTestId('preview').getByTestId('equipment-ranking')
  await expect(previewRanking).toBeVisible({ timeout: 30_000 })
  // A third option from the wheel presets (drag by yaw, mass against a 30 mm wheel: 0.86 − 0.65
  // kg, decision 0004): the preview ranks three; then it is removed again.
  await page.getByRole('button', { name: 'Add option', exact: true }).click()
  await page.getByLabel('Option 3', { exact: true }).fill('Deep front')
  await page.getByLabel('Option 3 drag').selectOption({ label: 'Front 80 mm (by yaw)' })
  await expect(page.getByLabel(/^Option 3 Δ mass/)).toHaveValue('0.21')
  await expect(page.getByLabel(/^Option 3 Δ CdA/)).toHaveCount(0)
  await expect(previewRanking.locator('tbody tr')).toHaveCount(3, { timeout: 30_000 })
  await expect(previewRanking).toContainText('Wheels: Deep front')
  await page
    .locator('section')
    .filter({ has: page.getByRole('heading', { name: 'Equipment options' }) })
    .screenshot({ path: screenshotPath('simulation-equipment-options') })
  await page.getByRole('button', { name: 'Remove option 3' }).click()
  await expect(previewRanking.locator('tbody tr')).toHaveCount(2, { timeout: 30_000 })
  // Any option can be the baseline (it moves first); and back.
  await page.getByRole('button', { name: 'Make option 2 the baseline' }).click()
  await expect(page.getByLabel('Option 1 (baseline)')).toHaveValue('Deep carbon')
  await page.getByRole('button', { name: 'Make option 2 the baseline' }).click()
  await expect(page.getByLabel('Option 1 (baseline)')).toHaveValue('Shallow alloy')
  await page.getByRole('button', { name: 'Create' }).click()
  await page.waitForURL(new RegExp(`/simulation/optimizations/equipment/${UUID}$`))
  await page.getByRole('button', { name: 'Run' }).click()
  await page.waitForURL(new RegExp(`/optimizations/equipment/${UUID}/results/${UUID}$`), {
    timeout: 90_000,
  })

  // the last section ends at the course's 14–15 km (the sections are a detail under the targets)
  await page.getByText(/^Every section/).click()
  await expect(
    page.getByRole('table', { name: 'Pacing plan by section' }).locator('tbody tr').last(),
  ).toContainText(/– 1[45]\.\d\d/)
  // On a flat time trial 0.012 m² less drag beats 0.3 kg more mass: deep wheels rank first.
  const ranking = page.getByTestId('equipment-ranking')
  await expect(ranking.locator('tbody tr')).toHaveCount(2)
  await expect(ranking.locator('tbody tr').first()).toContainText('Wheels: Deep carbon')
  await expect(ranking.locator('tbody tr').first()).toContainText(/−\d+ (s|min \d\d s)/)
  await expect(ranking.locator('tbody tr').nth(1)).toContainText('(baseline)')
  await expect(
    page.getByRole('figure', { name: /Δ time against the baseline/ }).locator('canvas'),
  ).toHaveCount(1)
  await expect(page.getByTestId('plan-charts').locator('canvas')).toHaveCount(4)
  await page.screenshot({ path: screenshotPath('simulation-equipment-result'), fullPage: true })

  const download = page.waitForEvent('download')
  await page.getByRole('button', { name: 'Download FIT course' }).click()
  const fit = new Uint8Array(readFileSync(await (await download).path()))
  const { messages, errors: fitErrors } = new Decoder(Stream.fromByteArray(fit)).read()
  expect(fitErrors).toEqual([])
  expect(messages.fileIdMesgs?.[0]?.type).toBe('course')
  expect(messages.recordMesgs?.length).toBeGreaterThan(100)
  // optimizations/:type/:id/results opens the latest result; the trail names the way back.
  const resultUrl = page.url()
  const simId = /equipment\/([^/]+)\/results/.exec(resultUrl)![1]
  await page.goto(`/simulation/optimizations/equipment/${simId}/results`)
  await page.waitForURL(resultUrl)
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Optimizations')
  await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText('Result')
  // The list filtered by type (test 1 made a pacing optimization for the same rider).
  await page.goto('/simulation/optimizations?type=equipment')
  await expect(page.getByRole('heading', { name: 'Equipment optimizations' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'TT wheels' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Alpe race plan' })).toHaveCount(0)
  await page.goto('/simulation/optimizations?type=pacing')
  await expect(page.getByRole('link', { name: 'TT wheels' })).toHaveCount(0)
  expect(errors).toEqual([])
})
