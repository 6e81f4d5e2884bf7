import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { readActivity } from '@veloptima/formats'
import { gcJsonOf } from '../../apps/web/src/features/simulation/components/ride-calibration-fixtures.ts'
import { dataDir, needs, repoRoot } from '../../scripts/test-data.ts'
import { DEMO, screenshotPath, signIn } from '../helpers/auth.ts'
import { pageErrors } from '../helpers/page-errors.ts'

// "Calibrate from a ride" on the rider setup page: upload a real ride with power,
// the engine fits CdA and Crr in the browser, shows the intervals, what was left out, the replay
// and the residual chart, and the values go into the setup (both positions and the Crr by surface).
// The ride has GPS and times: the calibration uses the wind and air of its place and hours from
// the weather archive (here the Open-Meteo stand-in the Playwright config starts) and says so.

// Real-world files (scripts/test-data.ts): without one, its journey skips, naming it.
const dataPath = (f: string) => resolve(dataDir ?? resolve(repoRoot, 'test-data'), f)
const ride = dataPath('rides/edge810-vector-power.fit')
const UUID = '[0-9a-f-]{36}'

test('rider setup: calibrate CdA and Crr from a recorded ride and save them', async ({ page }) => {
  const real = needs('rides/edge810-vector-power.fit')
  test.skip(real.skip, real.reason)
  test.setTimeout(120_000)
  const errors = pageErrors(page)
  await openCalibration(page)
  await page.getByLabel('Ride file to calibrate from').setInputFiles(ride)
  const result = page.getByTestId('ride-calibration')
  await expect(result).toBeVisible({ timeout: 60_000 })
  // The CLI gives the same ride (76 + 8 kg) CdA 0.45 and a replay within 1 % (calibrate.test.ts).
  await expect(result).toContainText(/CdA 0\.\d{3} m²/)
  await expect(result).toContainText(
    /Replay with these values: [\d.]+ min against 77\.5 min ridden \(-?0\.\d %\)/,
  )
  await expect(result).toContainText(/left out: .*stopped/)
  // St. John's, Newfoundland, 16 August 2013 18:05–19:23 UTC (the file's own positions and times).
  await expect(page.getByTestId('ride-calibration-weather')).toContainText(
    'Weather: Open-Meteo archive, 47.63° N 52.82° W, 2013-08-16 18:00 – 20:00 UTC',
  )
  await expect(page.getByTestId('ride-calibration-weather')).toContainText(/km\/h at rider height/)
  await expect(page.getByRole('img', { name: /virtual elevation/ })).toBeVisible()
  const cda = (await result.innerText()).match(/CdA (0\.\d{3}) m²/)![1]!
  await page
    .getByText('Calibrate CdA and Crr from a ride')
    .locator('..')
    .screenshot({ path: screenshotPath('simulation-ride-calibration') })
  await page.getByRole('button', { name: 'Use this CdA (both positions) and Crr' }).click()
  await expect(page.getByLabel(/^Position 1 CdA/)).toHaveValue(cda)
  await expect(page.getByLabel(/^Position 2 CdA/)).toHaveValue(cda)
  await expect(page.getByLabel('Tyres')).toHaveValue('custom')
  await expect(page.getByLabel('Crr on normal roads')).toHaveValue(/^0\.00\d\d$/)
  await page.getByLabel(/^CP/).fill('280')
  await page.getByLabel(/^W′/).fill('20')
  await page.getByLabel(/^Max power/).fill('650')
  await page.getByRole('button', { name: 'Create rider setup' }).click()
  await page.waitForURL(new RegExp(`/simulation/riders/${UUID}$`))
  await expect(page.getByLabel(/^Position 1 CdA/)).toHaveValue(cda)
  expect(errors).toEqual([])
})

/** A new rider setup with the masses entered, the calibration panel open. */
async function openCalibration(page: Page) {
  await signIn(page, DEMO.rider)
  await page.goto('/simulation/riders/new')
  await page.getByLabel('Setup name').fill('Calibrated')
  await page.getByLabel(/^Rider weight/).fill('74.5')
  await page.getByLabel(/^Rider height/).fill('180')
  await page.getByLabel(/^Bike mass/).fill('8')
  await page.getByLabel(/^Kit and bottles mass/).fill('1.5')
  await page.getByText('Calibrate CdA and Crr from a ride').click()
  // The panel lists what it reads.
  await expect(
    page.getByText(/^Accepted files: FIT, TCX, GPX with power, GoldenCheetah JSON, CSV/),
  ).toBeVisible()
}

/** A GoldenCheetah JSON ride made from the real Edge 810 ride (no such file in the data set). */
function gcJsonRide(): string {
  const fit = 'rides/edge810-vector-power.fit'
  const file = join(mkdtempSync(join(tmpdir(), 'veloptima-gc-')), 'edge810-goldencheetah.json')
  writeFileSync(file, gcJsonOf(readActivity(new Uint8Array(readFileSync(dataPath(fit))), fit)))
  return file
}

// Every activity format the product reads, from real files; what each one is calibrated on.
const FORMATS: { name: string; file: string; path?: () => string; says: RegExp }[] = [
  {
    name: 'TCX from a velodrome (no GPS, no elevation): the track model',
    file: 'aero/velodrome-2015-a.tcx',
    says: /calibrated as a velodrome ride \(a flat 250 m track/,
  },
  {
    name: 'TCX of a road ride with GPS and altitude: its own course',
    file: 'aero/open-air-helmet.tcx',
    says: /Replay with these values: [\d.]+ min against [\d.]+ min ridden/,
  },
  {
    name: 'GPX with power: its own course',
    file: 'courses/stuttgart-recorded-missing-ele.gpx',
    says: /Replay with these values: [\d.]+ min against [\d.]+ min ridden/,
  },
  {
    name: 'GoldenCheetah JSON: its own course',
    file: 'rides/edge810-vector-power.fit',
    path: gcJsonRide,
    says: /Replay with these values: [\d.]+ min against 77\.5 min ridden/,
  },
  {
    name: 'CSV with elevation, no GPS: the recorded elevation',
    file: 'aero/airspeed-bom.csv',
    says: /no GPS positions: calibrated on its recorded elevation/,
  },
  {
    name: 'iBike CSV: the recorded elevation',
    file: 'aero/ibike-windspeed.csv',
    says: /no GPS positions: calibrated on its recorded elevation/,
  },
]

for (const format of FORMATS) {
  test(`calibration from ${format.name}`, async ({ page }) => {
    const real = needs(format.file)
    test.skip(real.skip, real.reason)
    test.setTimeout(120_000)
    const errors = pageErrors(page)
    await openCalibration(page)
    await page
      .getByLabel('Ride file to calibrate from')
      .setInputFiles(format.path ? format.path() : dataPath(format.file))
    const result = page.getByTestId('ride-calibration')
    await expect(result).toBeVisible({ timeout: 60_000 })
    await expect(page.getByRole('alert')).toHaveCount(0)
    await expect(result).toContainText(/CdA 0\.\d{3} m²/)
    await expect(result).toContainText(format.says)
    const cda = (await result.innerText()).match(/CdA (0\.\d{3}) m²/)![1]!
    if (format.file.startsWith('aero/velodrome')) {
      for (const width of [1366, 390]) {
        await page.setViewportSize({ width, height: 900 })
        await page
          .getByText('Calibrate CdA and Crr from a ride')
          .locator('..')
          .screenshot({ path: screenshotPath(`simulation-ride-calibration-velodrome-${width}`) })
      }
    }
    await page.getByRole('button', { name: 'Use this CdA (both positions) and Crr' }).click()
    await expect(page.getByLabel(/^Position 1 CdA/)).toHaveValue(cda)
    expect(errors).toEqual([])
  })
}

test('a ride the calibration cannot use: the reason in an alert, in the words of calibration', async ({
  page,
}) => {
  const file = join(mkdtempSync(join(tmpdir(), 'veloptima-nopower-')), 'trainer.csv')
  writeFileSync(file, 'time,speed\n0,10\n1,10.2\n2,10.1\n3,10\n')
  await openCalibration(page)
  await page.getByLabel('Ride file to calibrate from').setInputFiles(file)
  const alert = page.getByRole('alert')
  await expect(alert).toContainText(/trainer\.csv: .*no power data.*calibration needs power/)
  await expect(alert).not.toContainText('aero analysis')
  await page.setViewportSize({ width: 390, height: 844 })
  await page
    .getByText('Calibrate CdA and Crr from a ride')
    .locator('..')
    .screenshot({ path: screenshotPath('simulation-ride-calibration-refused-390') })
})
