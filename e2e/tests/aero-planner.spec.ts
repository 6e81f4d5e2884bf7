import { expect, test, type Page } from '@playwright/test'
import { DEMO, screenshotPath, signIn } from '../helpers/auth.ts'
import { pageErrors } from '../helpers/page-errors.ts'

// The aero test planner before a test (docs/engine/aero.md, "Test planner"): from the aero area's
// sessions page to "Plan a test"; the runs per configuration follow the two-sample formula for the
// scatter the page names and the ΔCdA typed; with a place and a date the day's hours come ranked
// by the forecast wind (the e2e server's weather is the local Open-Meteo stand-in), the three
// calmest marked; at 390 px nothing scrolls sideways.

// n = ceil(2·(z0.975 + z0.8)²·σ²/Δ²), the standard normal quantiles written out.
const formula = (sd: number, delta: number) =>
  Math.ceil((2 * (1.959964 + 0.841621) ** 2 * sd ** 2) / delta ** 2)

const PHONE = { width: 390, height: 844 }

/** The run count and the scatter the page shows. */
async function answer(page: Page) {
  const runs = (await page.getByTestId('planner-runs').innerText()).replace(/,/g, '')
  const scatter = await page.getByTestId('planner-scatter').innerText()
  return {
    n: Number(/^(\d+) runs/.exec(runs)?.[1]),
    sd: Number(/σ = ([\d.]+) m²/.exec(scatter)?.[1]),
    typical: scatter.includes('a typical value: your sessions have no repeats yet'),
  }
}

/** The count for the scatter shown (rounded to 0.0001 m² on the page). */
function expectFormula(a: { n: number; sd: number; typical: boolean }, delta: number) {
  if (a.typical) {
    expect(a.sd).toBe(0.015)
    expect(a.n).toBe(formula(0.015, delta))
  } else {
    expect(a.n).toBeGreaterThanOrEqual(formula(a.sd - 0.00005, delta))
    expect(a.n).toBeLessThanOrEqual(formula(a.sd + 0.00005, delta))
  }
}

test('aero planner: runs for the ΔCdA typed, the calmest hours of the day, fits a phone', async ({
  page,
}) => {
  const errors = pageErrors(page)
  await signIn(page, DEMO.coach)
  await page.goto('/aero/sessions')
  await page.getByRole('link', { name: 'Plan a test' }).click()
  await page.waitForURL(/\/aero\/planner/)
  await expect(page.getByRole('heading', { name: 'Plan a test', level: 1 })).toBeVisible()

  // The default question: 0.003 m² with 80 % power.
  await expect(page.getByTestId('planner-runs')).toBeVisible()
  const first = await answer(page)
  expectFormula(first, 0.003)

  // A larger ΔCdA needs fewer runs: the count for 0.01 m².
  await page.getByLabel('ΔCdA to resolve (m²)').fill('0.01')
  await page.getByRole('button', { name: 'Plan', exact: true }).click()
  await expect(page).toHaveURL(/delta=0\.01/)
  await expect(page.getByTestId('planner-runs')).not.toHaveText(
    new RegExp(`^${first.n.toLocaleString('en')} runs`),
  )
  const second = await answer(page)
  expectFormula(second, 0.01)
  expect(second.n).toBeLessThan(first.n)
  // Bracketed, baseline first and last: 2n + 1 runs of 5 min.
  await expect(
    page.getByText(`${(2 * second.n + 1).toLocaleString('en')} runs of 5 min`),
  ).toBeVisible()

  // A bad value is named under its field, and nothing is asked.
  await page.getByLabel('ΔCdA to resolve (m²)').fill('0.5')
  await page.getByRole('button', { name: 'Plan', exact: true }).click()
  await expect(page.getByText('ΔCdA: a number of m² from 0.001 to 0.05.')).toBeVisible()
  await page.getByLabel('ΔCdA to resolve (m²)').fill('0.01')

  // A place and the date: the day's hours 06:00–21:00, calmest first, three marked calm.
  await page.getByLabel('Latitude (°)').fill('45.5')
  await page.getByLabel('Longitude (°)').fill('30')
  await page.getByRole('button', { name: 'Plan', exact: true }).click()
  const rows = page.getByRole('table').getByRole('row')
  await expect(rows).toHaveCount(16)
  for (const k of [1, 2, 3]) await expect(rows.nth(k)).toContainText('calm')
  await expect(rows.nth(4)).not.toContainText('calm')
  const winds = await rows.evaluateAll((trs) =>
    trs.slice(1).map((tr) => parseFloat(tr.querySelectorAll('td')[1]!.textContent ?? '')),
  )
  expect(winds).toEqual([...winds].sort((a, b) => a - b))
  await page.screenshot({ path: screenshotPath('aero-planner-1366'), fullPage: true })

  // On a phone nothing scrolls sideways.
  await page.setViewportSize(PHONE)
  await expect(page.getByTestId('planner-runs')).toBeVisible()
  const by = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  expect(by, `the planner is ${by} px wider than the screen`).toBeLessThanOrEqual(0)
  await page.screenshot({ path: screenshotPath('aero-planner-390'), fullPage: true })
  expect(errors).toEqual([])
})
