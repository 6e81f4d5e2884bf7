import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { syntheticSession } from '../../packages/engine/src/aero/synthetic-ride.ts'
import { DEMO, screenshotPath, signIn } from '../helpers/auth.ts'
import { pageErrors } from '../helpers/page-errors.ts'

// The samples the virtual-elevation fit leaves out, on the run's VE chart: a field test ridden
// out and back, braking to 3 m/s before each turn (the engine's synthetic session,
// packages/engine/src/aero/synthetic-ride.ts, written here as a CSV: no shared data needed), is
// uploaded; the chart shades the braking at the turns and the line under it names it with its
// seconds (docs/engine/aero.md, "Samples, not runs, are left out"); the crosswind the
// out-and-back cannot see is named, and separated once the wind is stated.

/** The synthetic session as a head unit's CSV export (1 Hz, SI units named in the header). */
function fieldTestCsv(): string {
  const { samples: s } = syntheticSession(7, -0.005).ride
  const lines = ['time,speed (m/s),power (W),altitude (m),lat,lon']
  for (let i = 0; i < s.t.length; i++) {
    lines.push(
      [
        s.t[i]!.toFixed(1),
        s.speed[i]!.toFixed(3),
        s.power[i]!.toFixed(1),
        s.altitude![i]!.toFixed(2),
        s.lat![i]!.toFixed(7),
        s.lon![i]!.toFixed(7),
      ].join(','),
    )
  }
  return lines.join('\n')
}

/** Pixels of the chart's canvas in this colour (±24 per channel), along the plot's foot. */
async function pixelsOf(page: Page, rgb: [number, number, number]): Promise<number> {
  return page.getByTestId('ve-chart').evaluate((figure, [r, g, b]) => {
    const canvas = figure.querySelector('canvas')
    const ctx = canvas?.getContext('2d')
    if (!canvas || !ctx) return 0
    const { data } = ctx.getImageData(0, 0, canvas.width, canvas.height)
    let n = 0
    for (let i = 0; i < data.length; i += 4) {
      const near =
        Math.abs(data[i]! - r!) <= 24 &&
        Math.abs(data[i + 1]! - g!) <= 24 &&
        Math.abs(data[i + 2]! - b!) <= 24
      if (near && data[i + 3]! > 200) n++
    }
    return n
  }, rgb)
}

test('aero: the VE chart shows the braking the fit left out, with its seconds', async ({
  page,
}) => {
  test.setTimeout(240_000)
  const errors = pageErrors(page)
  await page.setViewportSize({ width: 1366, height: 900 })
  await signIn(page, DEMO.coach)
  await page.goto('/aero/sessions')
  await page.getByRole('button', { name: 'New session' }).click()
  await page.getByLabel('Session name').fill('Out-and-back with turns')
  await page.getByRole('button', { name: 'Create session' }).click()
  await page.waitForURL(/\/aero\/sessions\/v6\/[0-9a-f-]{36}$/)

  await page.getByLabel('Configuration of the runs in this file').fill('Baseline')
  await page.getByLabel('Test data files').setInputFiles({
    name: 'out-and-back.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from(fieldTestCsv()),
  })
  await expect(page.getByRole('status').filter({ hasText: 'Read out-and-back.csv' })).toBeVisible({
    timeout: 30_000,
  })
  await expect(page.getByTestId('analysis-status')).toContainText('done', { timeout: 120_000 })

  // The first run's chart: the line under it names the braking with its seconds (more than 0),
  // and nothing stopped (the rider never stops).
  await page.locator('#run-data-blocks').scrollIntoViewIfNeeded()
  const chart = page.getByTestId('ve-chart')
  await expect(chart).toBeVisible()
  const line = page.getByTestId('ve-left-out')
  await expect(line).toContainText(/^Left out of the fit:/)
  const text = (await line.textContent()) ?? ''
  const braking = /(?:(\d+) min )?(\d+) s braking/.exec(text)
  expect(braking, text).not.toBeNull()
  const seconds = Number(braking![1] ?? 0) * 60 + Number(braking![2])
  expect(seconds).toBeGreaterThan(0)
  expect(text).not.toContain('stopped')
  // The bands are drawn in braking's colour (#dc2626) along the plot's foot.
  await expect.poll(() => pixelsOf(page, [0xdc, 0x26, 0x26])).toBeGreaterThan(20)

  // The chart and its line meet WCAG 2.1 AA.
  const { violations } = await new AxeBuilder({ page })
    .include('[data-testid="ve-chart"]')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
    .analyze()
  expect(violations.map((v) => `${v.id}: ${v.help}`)).toEqual([])

  // The chart in the middle of the window (clear of the sticky header and the popups).
  const shoot = async (name: string) => {
    await chart.evaluate((el) => el.scrollIntoView({ block: 'center' }))
    await page.screenshot({ path: screenshotPath(name) })
  }
  await shoot('aero-excluded-1366')
  await page.setViewportSize({ width: 390, height: 844 })
  await expect(line).toBeVisible()
  await shoot('aero-excluded-390')

  // An out-and-back cannot see the crosswind, whose drag reads as Crr: the analysis says so. With
  // the wind stated (here the session's true wind, as a forecast would give it) it is separated.
  await page.setViewportSize({ width: 1366, height: 900 })
  const warnings = page.getByTestId('analysis-warnings')
  await expect(warnings).toContainText('out-and-back cannot see')
  const { wind } = syntheticSession(7, -0.005)
  await page.getByRole('button', { name: 'Edit inputs' }).click()
  await page.getByLabel('System mass (rider, bike, kit)').fill('80')
  await page.getByLabel('Wind speed (stated)').fill((wind.speedMps * 3.6).toFixed(1))
  await page.getByLabel('Wind from').fill(wind.fromDeg.toFixed(0))
  await page.getByRole('button', { name: 'Save and analyse again' }).click()
  await expect(page.getByTestId('analysis-status')).toContainText(
    'Analysis v2 (New settings) done',
    {
      timeout: 120_000,
    },
  )
  await expect(page.getByText(/· wind [\d.]+ km\/h from \d+°/)).toBeVisible()
  await expect(page.getByTestId('analysis-status')).not.toContainText('out-and-back cannot see')
  expect(errors).toEqual([])
})
