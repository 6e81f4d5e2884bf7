import { resolve } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { dataDir, needs, repoRoot } from '../../scripts/test-data.ts'
import { DEMO, screenshotPath, signIn } from '../helpers/auth.ts'
import { pageErrors } from '../helpers/page-errors.ts'

// The aero journey: register a sensor, create a session, refuse bad files with a
// message naming the file (nothing stored), upload GoldenCheetah's helmet test (four FIT files,
// two helmets alternated), read each run's CdA with its interval, set a baseline and read ΔCdA,
// watts and seconds per 40 km; move the VE sliders.

// The real-world files this journey uploads (scripts/test-data.ts): without them it skips,
// naming them.
const real = needs(
  'courses/alpe-dhuez.gpx',
  'aero/helmet-test-2018-10-03-07-45-28.fit',
  'aero/helmet-test-2018-10-03-08-05-11.fit',
  'aero/helmet-test-2018-10-03-08-23-16.fit',
  'aero/helmet-test-2018-10-03-08-36-06.fit',
  'aero/open-air-helmet.tcx',
  'aero/velodrome-2015-a.tcx',
)
test.skip(real.skip, real.reason)
const data = resolve(dataDir ?? resolve(repoRoot, 'test-data'), 'aero')
const HELMET_FILES = [
  ['helmet-test-2018-10-03-07-45-28.fit', 'Helmet A'],
  ['helmet-test-2018-10-03-08-05-11.fit', 'Helmet B'],
  ['helmet-test-2018-10-03-08-23-16.fit', 'Helmet A'],
  ['helmet-test-2018-10-03-08-36-06.fit', 'Helmet B'],
] as const

/**
 * Signs the coach in, creates a session (v6 unless `format` says v5), runs `upload` on its page
 * and waits for the analysis; returns the page errors collected from the start.
 */
async function newSession(
  page: Page,
  o: { name: string; format?: 'v5'; location?: string },
  upload: () => Promise<unknown>,
): Promise<string[]> {
  const errors = pageErrors(page)
  await signIn(page, DEMO.coach)
  await page.goto('/aero/sessions')
  await page.getByRole('button', { name: 'New session' }).click()
  await page.getByLabel('Session name').fill(o.name)
  if (o.format) await page.getByLabel('Format').selectOption(o.format)
  if (o.location) await page.getByLabel('Location').fill(o.location)
  await page.getByRole('button', { name: 'Create session' }).click()
  await page.waitForURL(new RegExp(`/aero/sessions/${o.format ?? 'v6'}/[0-9a-f-]{36}$`))
  await upload()
  await expect(page.getByTestId('analysis-status')).toContainText('done', { timeout: 120_000 })
  return errors
}

test('aero: device, session, bad files refused, helmet test runs with CdA, baseline comparison', async ({
  page,
}) => {
  test.setTimeout(300_000)
  const errors = pageErrors(page)
  await signIn(page, DEMO.coach)

  // Register the sensor.
  await page.goto('/aero/devices')
  await expect(page.getByRole('heading', { name: 'Devices', level: 1 })).toBeVisible()
  await page.getByRole('button', { name: 'Register a device' }).click()
  await page.getByLabel('Serial number').fill('AS-2231')
  await page.getByLabel('Name', { exact: true }).fill('Aerosensor front')
  await page.getByLabel('Model').fill('Aerosensor v2')
  await page.getByLabel('Firmware').fill('2.4.1')
  await page.getByLabel('Calibration factor').fill('1.385')
  await page.getByRole('button', { name: 'Register', exact: true }).click()
  await expect(page.getByRole('link', { name: /Aerosensor front/ })).toBeVisible()
  await page.getByRole('link', { name: /Aerosensor front/ }).click()
  await expect(page.getByText('1.385', { exact: true })).toBeVisible()

  // A new v6 session.
  await page.goto('/aero/sessions')
  await page.getByRole('button', { name: 'New session' }).click()
  await page.getByLabel('Session name').fill('Helmet test, Oct 2018')
  await page.getByLabel('Location').fill('Out-and-back road')
  await page.getByRole('button', { name: 'Create session' }).click()
  await page.waitForURL(/\/aero\/sessions\/v6\/[0-9a-f-]{36}$/)
  await expect(page.getByRole('heading', { name: 'Helmet test, Oct 2018' })).toBeVisible()
  for (const anchor of ['devices', 'runs', 'cdam-data-blocks', 'run-data-blocks']) {
    await expect(page.locator(`section#${anchor}`)).toBeVisible()
  }

  // The device joins the session; its data and calibration are used.
  await page.getByLabel('Add a device').selectOption({ label: 'Aerosensor front (AS-2231)' })
  await page.getByRole('button', { name: 'Add to session' }).click()
  await expect(page.locator('#devices').getByText('Calibration factor 1.385')).toBeVisible()

  // The rider's system mass.
  await page.getByRole('button', { name: 'Edit inputs' }).click()
  await page.getByLabel('System mass (rider, bike, kit)').fill('85')
  await page.getByRole('button', { name: 'Save', exact: true }).click()
  await expect(page.getByText('System mass 85.0 kg')).toBeVisible()

  // Bad files: each refused with its name and the problem; nothing is added to the session.
  const files = page.getByLabel('Test data files')
  const noPower =
    'time,speed,altitude\n' +
    Array.from({ length: 120 }, (_, i) => `${i},32.5,${(100 + i * 0.05).toFixed(2)}`).join('\n')
  await files.setInputFiles({
    name: 'no-power.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(noPower),
  })
  await expect(page.getByRole('alert').filter({ hasText: 'no-power.csv' })).toContainText(/power/i)
  await files.setInputFiles({
    name: 'empty.fit',
    mimeType: 'application/octet-stream',
    buffer: Buffer.alloc(0),
  })
  await expect(page.getByRole('alert').filter({ hasText: 'empty.fit' })).toContainText(/empty/i)
  // a course (a route without times or power) is not a ride
  await files.setInputFiles(resolve(data, '../courses/alpe-dhuez.gpx'))
  await expect(page.getByRole('alert').filter({ hasText: 'alpe-dhuez.gpx' })).toBeVisible()
  await expect(page.getByRole('list', { name: 'Files of this session' })).toHaveCount(0)
  await expect(page.getByText('No runs yet')).toBeVisible()
  await page.screenshot({ path: screenshotPath('aero-bad-file'), fullPage: true })

  // The helmet test: four files, helmets A and B alternated.
  const label = page.getByLabel('Configuration of the runs in this file')
  for (const [name, helmet] of HELMET_FILES) {
    await label.fill(helmet)
    await files.setInputFiles(resolve(data, name))
    await expect(page.getByRole('status').filter({ hasText: `Read ${name}` })).toBeVisible({
      timeout: 30_000,
    })
  }
  await expect(
    page.getByRole('list', { name: 'Files of this session' }).getByRole('listitem'),
  ).toHaveCount(4)
  await expect(page.getByTestId('analysis-status')).toContainText('Analysis v4', {
    timeout: 120_000,
  })
  await expect(page.getByTestId('analysis-status')).toContainText('done', { timeout: 120_000 })
  // road files with GPS: the road VE model, said next to the status
  await expect(page.getByTestId('ve-model')).toContainText('VE model: road')
  // The "Aero analysis ready" popup links back to this session (/aero/sessions/v6/<id>).
  const ready = page
    .locator('[data-sonner-toast]')
    .filter({ hasText: 'Aero analysis ready' })
    .first()
  await expect(ready.getByRole('link', { name: 'Open session' })).toHaveAttribute(
    'href',
    new URL(page.url()).pathname,
  )
  expect(new URL(page.url()).pathname).toMatch(/^\/aero\/sessions\/v6\/[^/]+$/)

  const table = page.getByTestId('runs-table')
  await expect(table.getByRole('row')).not.toHaveCount(1)
  const rows = table.locator('tbody tr')
  const count = await rows.count()
  expect(count).toBeGreaterThanOrEqual(4)
  // every run has a CdA (0.1–0.8 m²) with its interval — or "no interval" and the reason, never a
  // zero-width one — and the method that gave it
  let withInterval = 0
  for (let i = 0; i < count; i++) {
    const cell = rows.nth(i).locator('td').nth(2)
    await expect(cell).toHaveText(
      /^0\.[1-7]\d{2}( ± 0\.\d{3}|no interval: .{20,})virtual elevation(left out \(samples\): .+)?$/,
    )
    const text = (await cell.textContent()) ?? ''
    if (text.includes('±')) {
      withInterval++
      expect(text).not.toContain('± 0.000')
    }
  }
  // A 2-minute out-and-back cut at its turn (the braking there is left out) often cannot give an
  // interval of its own: it says why, and the comparison's interval comes from the session fit.
  expect(withInterval).toBeGreaterThanOrEqual(1)
  await expect(page.getByTestId('cda-chart')).toBeVisible()
  await page.screenshot({ path: screenshotPath('aero-runs'), fullPage: true })

  // Helmet B as the baseline: a new version compares Helmet A against it.
  const bRow = rows.filter({ hasText: 'Helmet B' }).first()
  await bRow.getByRole('button', { name: 'Set baseline' }).click()
  await expect(page.getByTestId('analysis-status')).toContainText('Analysis v5', {
    timeout: 30_000,
  })
  await expect(page.getByTestId('analysis-status')).toContainText('done', { timeout: 120_000 })
  await expect(rows.filter({ hasText: 'Helmet B' }).first()).toContainText('Baseline')
  const aRow = rows.filter({ hasText: 'Helmet A' }).first()
  // ΔCdA with its interval, watts saved and seconds per 40 km
  await expect(aRow.locator('td').nth(4)).toHaveText(
    /^[+−±]\d\.\d{3}\[[+−±]\d\.\d{3}, [+−±]\d\.\d{3}\]$/,
    {
      timeout: 20_000,
    },
  )
  await expect(aRow.locator('td').nth(5)).toHaveText(/^[+−±]\d+\.\d$/)
  await expect(aRow.locator('td').nth(6)).toHaveText(/^[+−±]\d+\.\d$/)
  await expect(page.getByTestId('comparison-summary')).toContainText('Helmet B')
  // One row per configuration against the baseline: Helmet A's ΔCdA with its interval, W and s.
  const summary = page.getByTestId('configuration-summary')
  await expect(summary).toContainText('against the baseline (Helmet B)')
  const aSummary = summary.locator('tbody tr').filter({ hasText: 'Helmet A' })
  await expect(aSummary).toHaveCount(1)
  await expect(aSummary.locator('td').nth(3)).toHaveText(
    /^[+−±]\d\.\d{3} \[[+−±]\d\.\d{3}, [+−±]\d\.\d{3}\]$/,
  )
  await expect(aSummary.locator('td').nth(5)).toHaveText(/^[+−±]\d+\.\d$/)
  await expect(aSummary.locator('td').nth(6)).toHaveText(/^[+−±]\d+\.\d$/)
  await expect(aSummary.locator('td').nth(7)).toHaveText(/^(Faster|Slower|Within noise)$/)
  // ΔCdA from the session fitted as a whole, each run's CdA a diagnostic.
  await expect(page.getByTestId('basis')).toContainText(
    /^From the session fit: .*, the interval (from how the repeats scatter about it|a jackknife over the whole session)\./,
  )
  // The summary's ΔCdA is the one each Helmet A run shows (the same comparison).
  const runDelta = (await aRow.locator('td').nth(4).innerText()).split('\n')[0]!.trim()
  expect((await aSummary.locator('td').nth(3).innerText()).startsWith(runDelta)).toBe(true)
  // The test planner's answer for Helmet A: resolved, or how many more alternated runs of both
  // resolve 0.003 m² (the count is the two-sample formula's for the σ it states).
  const plan = page.getByTestId('plan-answer')
  await expect(plan).toContainText('resolving 0.003 m² with 80 % power')
  const answer = (await plan.locator('li').filter({ hasText: 'Helmet A' }).innerText()).trim()
  expect(answer).toMatch(
    /^Helmet A: (resolved: Helmet A is (\d\.\d{3} ± \d\.\d{3} m² (faster|slower)|within \d\.\d{3} m²)|\d+ more runs? of Helmet B and of Helmet A, alternated)/,
  )
  const sd = Number(/σ = (\d\.\d{3}) m²/.exec(await plan.innerText())![1])
  const each = Number(/: (\d+) each\./.exec(await plan.innerText())![1])
  const z = 1.959964 + 0.841621
  // σ is shown rounded to 0.001 m²: the count lies between the formula's at σ ± 0.0005
  expect(each).toBeGreaterThanOrEqual(Math.ceil((2 * z * z * (sd - 0.0005) ** 2) / 0.003 ** 2))
  expect(each).toBeLessThanOrEqual(Math.ceil((2 * z * z * (sd + 0.0005) ** 2) / 0.003 ** 2))
  await page.locator('#runs').screenshot({ path: screenshotPath('aero-baseline') })
  // On a phone the runs table scrolls sideways inside its own focusable region; the planner wraps.
  await page.setViewportSize({ width: 390, height: 844 })
  await expect(page.getByRole('region', { name: 'Runs (scrolls sideways)' })).toBeVisible()
  await plan.scrollIntoViewIfNeeded()
  await page.screenshot({ path: screenshotPath('aero-planner-390') })
  await page.setViewportSize({ width: 1366, height: 900 })

  // The add-run dialog: a run from a time range of one file, then one from a lap.
  await page.getByRole('button', { name: 'Add run' }).click()
  const dialog = page.getByRole('dialog', { name: 'Add run' })
  await dialog.getByLabel('Run name').fill('Manual range')
  await dialog.getByLabel('Configuration').fill('Helmet A')
  await dialog.getByLabel('File').selectOption({ label: HELMET_FILES[2][0] })
  await dialog.getByLabel('From (m:ss)').fill('0:30')
  await dialog.getByLabel('To (m:ss)').fill('3:30')
  await dialog.getByRole('button', { name: 'Add run' }).click()
  await expect(dialog).toBeHidden()
  await page.getByRole('button', { name: 'Add run' }).click()
  await dialog.getByLabel('Run name').fill('Manual lap')
  await dialog.getByLabel('Configuration').fill('Helmet B')
  await dialog.getByRole('radio', { name: 'Lap' }).check()
  await dialog.getByLabel('Which lap').selectOption({ index: 1 })
  await dialog.getByRole('button', { name: 'Add run' }).click()
  await expect(dialog).toBeHidden()
  await expect(page.getByTestId('analysis-status')).toContainText('Analysis v7', {
    timeout: 30_000,
  })
  await expect(page.getByTestId('analysis-status')).toContainText('done', { timeout: 120_000 })
  for (const name of ['Manual range', 'Manual lap']) {
    await expect(rows.filter({ hasText: name }).locator('td').nth(2)).toHaveText(
      /^0\.[1-7]\d{2} ± 0\.\d{3}virtual elevation(left out \(samples\): .+)?$/,
    )
  }

  // The VE chart of a run: the sliders redraw the trace (the RMSE changes with CdA).
  await page.locator('#run-data-blocks').scrollIntoViewIfNeeded()
  const chart = page.getByTestId('ve-chart')
  await expect(chart).toBeVisible()
  const rmse = page.getByTestId('ve-rmse')
  const before = await rmse.textContent()
  // The slider spans the fitted CdA ± 0.15 m²: move it 0.1 m² above the fit.
  const cdaSlider = chart.getByRole('slider', { name: 'CdA' })
  const target = (Number(await cdaSlider.inputValue()) + 0.1).toFixed(3)
  await cdaSlider.fill(target)
  await expect(page.getByTestId('ve-cda')).toHaveText(`${target} m²`)
  await expect(rmse).not.toHaveText(before ?? '')
  await expect(page.getByTestId('laps-map')).toBeVisible()
  await page.locator('#run-data-blocks').screenshot({ path: screenshotPath('aero-ve-chart') })
  expect(errors).toEqual([])
})

test('aero v5: a session in the earlier format reads a TCX test, runs and raw data', async ({
  page,
}) => {
  test.setTimeout(180_000)
  const errors = await newSession(
    page,
    { name: 'Open-air helmet (v5)', format: 'v5' },
    async () => {
      for (const anchor of ['devices', 'runs', 'data']) {
        await expect(page.locator(`section#${anchor}`)).toBeVisible()
      }
      await page.getByLabel('Test data files').setInputFiles(resolve(data, 'open-air-helmet.tcx'))
    },
  )
  const rows = page.getByTestId('runs-table').locator('tbody tr')
  await expect(rows.first().locator('td').nth(2)).toHaveText(/^-?\d\.\d{3} ± \d\.\d{3}/)
  await expect(page.locator('#data').getByTestId('ve-chart')).toBeVisible()
  await page.screenshot({ path: screenshotPath('aero-v5'), fullPage: true })
  expect(errors).toEqual([])
})

test('aero velodrome: the track model, its slider trace and the flat-track RMSE', async ({
  page,
}) => {
  test.setTimeout(180_000)
  const errors = await newSession(page, { name: 'Velodrome 2015', location: '250 m track' }, () =>
    page.getByLabel('Test data files').setInputFiles(resolve(data, 'velodrome-2015-a.tcx')),
  )
  // No GPS and no elevation: the chart measures the trace against the flat track the fit matched.
  await page.locator('#run-data-blocks').scrollIntoViewIfNeeded()
  const chart = page.getByTestId('ve-chart')
  await expect(chart).toBeVisible()
  const rmse = page.getByTestId('ve-rmse')
  await expect(rmse).toHaveText(/^RMSE against the flat track \d+\.\d\d m$/)
  const atFit = await rmse.textContent()
  // Full page: an element screenshot scrolls the chart under the sticky header.
  await page.screenshot({ path: screenshotPath('aero-velodrome-fit'), fullPage: true })
  const cdaSlider = chart.getByRole('slider', { name: 'CdA' })
  const target = (Number(await cdaSlider.inputValue()) + 0.1).toFixed(3)
  await cdaSlider.fill(target)
  await expect(page.getByTestId('ve-cda')).toHaveText(`${target} m²`)
  await expect(rmse).not.toHaveText(atFit ?? '')
  await page.screenshot({ path: screenshotPath('aero-velodrome-slider'), fullPage: true })
  expect(errors).toEqual([])
})
