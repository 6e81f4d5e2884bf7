import { resolve } from 'node:path'
import { expect, test } from '@playwright/test'
import { dataDir, needs, repoRoot } from '../../scripts/test-data.ts'
import { DEMO, screenshotPath, signIn } from '../helpers/auth.ts'

// "Calibrate from a ride" on the rider setup page: upload a real ride with power,
// the engine fits CdA and Crr in the browser, shows the intervals, what was left out, the replay
// and the residual chart, and the values go into the setup (both positions and the Crr by surface).
// The ride has GPS and times: the calibration uses the wind and air of its place and hours from
// the weather archive (here the Open-Meteo stand-in the Playwright config starts) and says so.

// A real-world ride (scripts/test-data.ts): without it the journey skips, naming it.
const real = needs('rides/edge810-vector-power.fit')
test.skip(real.skip, real.reason)
const ride = resolve(dataDir ?? resolve(repoRoot, 'test-data'), 'rides/edge810-vector-power.fit')
const UUID = '[0-9a-f-]{36}'

test('rider setup: calibrate CdA and Crr from a recorded ride and save them', async ({ page }) => {
  test.setTimeout(120_000)
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(String(e)))
  await signIn(page, DEMO.rider)
  await page.goto('/simulation/riders/new')
  await page.getByLabel('Setup name').fill('Calibrated')
  await page.getByLabel(/^Rider weight/).fill('74.5')
  await page.getByLabel(/^Rider height/).fill('180')
  await page.getByLabel(/^Bike mass/).fill('8')
  await page.getByLabel(/^Kit and bottles mass/).fill('1.5')
  await page.getByText('Calibrate CdA and Crr from a ride').click()
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
