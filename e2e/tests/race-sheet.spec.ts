import { expect, test, type Page } from '@playwright/test'
import { DEMO, screenshotPath, signIn } from '../helpers/auth.ts'
import { createRiderSetup } from '../helpers/rider-setup.ts'
import { chooseCourseFile, needsCourses } from '../helpers/courses.ts'
import { pageErrors } from '../helpers/page-errors.ts'
import { startOptimization } from '../helpers/optimization.ts'

// The plan as a race sheet: a stored result of a real course shows one row per target (power,
// share of CP, where it applies, time in it) with every section one click away, and prints as one
// A4 or Letter page holding the course, the rider, the finish time, the targets and a profile.

needsCourses('crank-the-kanc.gpx')
const UUID = '[0-9a-f-]{36}'

/** Pages in a PDF written by Chromium: its page objects (`/Type /Page`, not `/Pages`). */
const pdfPages = (pdf: Buffer) => pdf.toString('latin1').match(/\/Type\s*\/Page(?![s\w])/g)?.length

async function storedResult(page: Page): Promise<void> {
  await page.goto('/simulation/courses')
  const courseId = await chooseCourseFile(page, 'crank-the-kanc.gpx')

  await createRiderSetup(page, { name: 'Sheet bike' })

  await startOptimization(page, 'pacing', courseId, 'Sheet bike', 'Sheet plan')
  await expect(page.getByLabel('Number of targets')).toHaveValue('12')
  await page.getByRole('button', { name: 'Create' }).click()
  await page.waitForURL(new RegExp(`/simulation/optimizations/pacing/${UUID}$`))
  await page.getByRole('button', { name: 'Run' }).click()
  await page.waitForURL(new RegExp(`/optimizations/pacing/${UUID}/results/${UUID}$`), {
    timeout: 60_000,
  })
}

test('race sheet: targets first, sections as a detail, one printed page', async ({ page }) => {
  test.setTimeout(240_000)
  const errors = pageErrors(page)
  await page.setViewportSize({ width: 1280, height: 900 })
  await signIn(page, DEMO.rider)
  await storedResult(page)
  await expect(page.getByTestId('predicted-time')).toHaveText(/^(\d+:)?\d?\d:\d\d$/, {
    timeout: 60_000,
  })

  // One row per target: key, power with its share of CP 280 W, km ranges, time, terrain.
  const targets = page.getByRole('table', { name: 'Pacing plan by target' })
  const rows = targets.locator('tbody tr')
  await expect(rows).not.toHaveCount(0)
  const count = await rows.count()
  expect(count).toBeGreaterThan(2)
  expect(count).toBeLessThanOrEqual(12)
  for (const [k, row] of (await rows.all()).entries()) {
    const text = await row.innerText()
    const [, power, share] = /(\d+) W\s+(\d+) % CP/.exec(text) ?? []
    expect(text.startsWith(String.fromCharCode(65 + k)), text).toBe(true)
    // both are rounded from the same exact power: the share to 0.5 %, and the shown power to
    // 0.5 W, which is 0.18 % of CP 280 W more
    expect(Math.abs(Number(share) - (Number(power) / 280) * 100)).toBeLessThanOrEqual(
      0.5 + 50 / 280 + 1e-9,
    )
    expect(text).toMatch(/\d+\.\d–\d+\.\d/)
  }
  // Every section is a detail: hidden until its summary is clicked.
  const sectionTable = page.getByRole('table', { name: 'Pacing plan by section' })
  await expect(sectionTable).toBeHidden()
  await page.screenshot({ path: screenshotPath('race-sheet-result'), fullPage: true })
  await page.getByText(/^Every section \(\d+\)/).click()
  await expect(sectionTable).toBeVisible()
  expect(await sectionTable.locator('tbody tr').count()).toBeGreaterThanOrEqual(count)
  await page.screenshot({ path: screenshotPath('race-sheet-result-detail'), fullPage: true })
  await page.getByText(/^Every section \(\d+\)/).click()
  await expect(sectionTable).toBeHidden()
  await targets.screenshot({ path: screenshotPath('race-sheet-targets') })

  // On a phone: a card per target, nothing wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 })
  await expect(page.getByTestId('plan-card-power')).toHaveCount(count)
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  expect(width).toBeLessThanOrEqual(390)
  await page.screenshot({ path: screenshotPath('race-sheet-result-phone'), fullPage: true })
  await page
    .getByRole('list', { name: 'Pacing plan by target' })
    .screenshot({ path: screenshotPath('race-sheet-targets-phone') })
  await page.setViewportSize({ width: 1280, height: 900 })

  // Printed: only the sheet, with the course, the rider, the finish time, the targets and a
  // profile marking each target's ranges; one page on A4 and on Letter.
  await expect(page.getByRole('button', { name: 'Print race sheet' })).toBeVisible()
  const sheet = page.getByTestId('race-sheet')
  await expect(sheet).toBeHidden()
  await page.emulateMedia({ media: 'print' })
  await expect(sheet).toBeVisible()
  await expect(page.locator('#root')).toBeHidden()
  await expect(sheet.getByRole('heading', { level: 1 })).toHaveText(/crank/i)
  await expect(sheet).toContainText('Sheet bike · CP 280 W')
  await expect(sheet).toContainText(/Predicted finish\s*(\d+:)?\d?\d:\d\d/)
  await expect(sheet.locator('tbody tr')).toHaveCount(count)
  await expect(
    sheet.getByRole('img', { name: /^Elevation .* with the targets' ranges$/ }),
  ).toBeVisible()
  // A4's width less the sheet's 10 mm margins (190 mm at 96 px per inch)
  await page.setViewportSize({ width: 718, height: 1047 })
  await sheet.screenshot({ path: screenshotPath('race-sheet-print') })
  for (const format of ['A4', 'Letter'] as const) {
    const pdf = await page.pdf({ format, printBackground: false })
    expect(pdfPages(pdf), `${format} pages`).toBe(1)
  }
  expect(errors).toEqual([])
})
