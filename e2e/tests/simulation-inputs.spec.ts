import { expect, test, type Page } from '@playwright/test'
import { DEMO, screenshotPath, signIn } from '../helpers/auth.ts'
import { createRiderSetup } from '../helpers/rider-setup.ts'
import { chooseCourseFile, clockSeconds as seconds, needsCourses } from '../helpers/courses.ts'
import { pageErrors } from '../helpers/page-errors.ts'
import { startOptimization } from '../helpers/optimization.ts'

// The optimization's inputs: a named course section, the event's date and start time
// (clock times on the plan), wind on a stretch of the course with its validation, a rider setup
// tweaked inside the optimization (the preview follows), saved as a new setup and into the setup,
// and the run's result with the start, the finish clock time and the section's name.

// The real-world files this journey uploads (scripts/test-data.ts): without them it skips,
// naming them.
needsCourses('tt-beton-classic.gpx')
const UUID = '[0-9a-f-]{36}'

/** The wall clock `s` seconds after 09:30:00 (the start this journey sets). */
function clockAfter0930(s: number) {
  const t = 9 * 3600 + 30 * 60 + Math.round(s)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${pad(Math.floor(t / 3600))}:${pad(Math.floor((t % 3600) / 60))}:${pad(t % 60)}`
}

async function previewTime(page: Page) {
  const time = page.getByTestId('preview').getByTestId('predicted-time')
  await expect(time).toHaveText(/^(\d+:)?\d?\d:\d\d$/, { timeout: 30_000 })
  await expect(page.getByText('Updating…')).toHaveCount(0, { timeout: 30_000 })
  return seconds(await time.innerText())
}

test('inputs: section name, event start, wind stretch, tweaked setup saved as new', async ({
  page,
}) => {
  test.setTimeout(180_000)
  const errors = pageErrors(page)
  await signIn(page, DEMO.rider)

  // A course with its first section named.
  await page.goto('/simulation/courses')
  await chooseCourseFile(page, 'tt-beton-classic.gpx')
  await expect(page.getByText('Distance')).toBeVisible()
  const course = (await page.getByRole('heading', { level: 1 }).textContent())!
  await page.getByRole('button', { name: 'Medium', exact: true }).click()
  const sectionCount = await page
    .getByRole('table', { name: 'Sections' })
    .locator('tbody tr')
    .count()
  await page.getByLabel('Section 1 title').fill('Harbour start')
  await page.getByRole('button', { name: 'Store sections' }).click()
  await expect(page.getByRole('status')).toContainText(`Stored ${sectionCount} sections.`)
  await page.reload()
  await expect(page.getByLabel('Section 1 title')).toHaveValue('Harbour start')
  await page.getByRole('heading', { name: 'Sections' }).scrollIntoViewIfNeeded()
  await page.screenshot({ path: screenshotPath('inputs-section-name'), fullPage: true })

  // A rider setup.
  await createRiderSetup(page, { name: 'Inputs bike' })

  // The optimization: the preview's plan gets clock times from the event start.
  await startOptimization(page, 'pacing', { label: course }, 'Inputs bike', 'Inputs plan')
  await previewTime(page)
  await page.getByLabel('Event date and start time').fill('2026-06-14T09:30')
  const preview = page.getByTestId('preview')
  await expect(preview.getByTestId('plan-clock').first()).toHaveText('09:30:00')
  await expect(preview.getByTestId('plan-section-name').first()).toHaveText('Harbour start')
  const calm = await previewTime(page)
  await expect(page.getByTestId('finish-clock')).toHaveText(clockAfter0930(calm))

  // Wind on a stretch: a row ending beyond the course is refused, naming the row and field.
  await page.getByRole('button', { name: 'Add wind stretch' }).click()
  await page.getByLabel(/^Stretch 1 end/).fill('99')
  await page.getByLabel(/^Stretch 1 wind speed/).fill('30')
  await page.getByLabel(/^Stretch 1 wind from/).fill('225')
  await expect(page.getByText('From the SW.')).toBeVisible()
  await expect(
    page.getByText(
      /^Wind stretch 1 end must be inside the course \(at most 16\.\d\d km\), got 99 km\.$/,
    ),
  ).toBeVisible()
  await expect(page.getByText('Fix the highlighted fields to see the preview.')).toBeVisible()
  await page.getByLabel(/^Stretch 1 end/).fill('8')
  await expect.poll(() => previewTime(page), { timeout: 30_000 }).not.toBe(calm)
  // Filling from the sections replaces the row, one stretch per section.
  page.once('dialog', (d) => void d.accept())
  await page.getByRole('button', { name: 'One stretch per course section' }).click()
  await expect(page.getByTestId('wind-row')).toHaveCount(sectionCount)
  await page.getByLabel(/^Stretch 1 wind speed/).fill('30')
  await page.getByLabel(/^Stretch 1 wind from/).fill('225')
  // In imperial units the stretches read in miles and mph (30 km/h = 18.64 mph), and back.
  const end1 = await page.getByLabel(/^Stretch 1 end/).inputValue()
  await page.getByText('Imperial', { exact: true }).click()
  await expect(page.getByLabel(/^Stretch 1 end \(mi\)/)).toHaveValue(
    String(Number((Number(end1) / 1.609344).toFixed(3))),
  )
  await expect(page.getByLabel(/^Stretch 1 wind speed \(mph\)/)).toHaveValue('18.64')
  await page.getByText('Metric', { exact: true }).click()
  await expect(page.getByLabel(/^Stretch 1 wind speed \(km\/h\)/)).toHaveValue('30')
  await page.getByRole('button', { name: 'Create' }).click()
  await page.waitForURL(new RegExp(`/simulation/optimizations/pacing/${UUID}$`))
  const before = await previewTime(page)

  // The setup tweaked for this optimization: the preview computes with it.
  const cda = page.getByLabel(/^Position 1 CdA/)
  const saved = Number(await cda.inputValue())
  const upright = String(Number((saved + 0.05).toFixed(3)))
  await cda.fill(upright)
  await expect(page.getByText(`Changed from the saved setup (${saved} m²).`)).toBeVisible()
  await expect(page.getByTestId('override-summary')).toHaveText(
    '1 value changed from the saved setup.',
  )
  await expect.poll(() => previewTime(page), { timeout: 30_000 }).toBeGreaterThan(before)
  const tweaked = await previewTime(page)
  await page.screenshot({ path: screenshotPath('inputs-optimization'), fullPage: true })
  await page.getByTestId('setup-adjust').screenshot({ path: screenshotPath('inputs-setup-adjust') })

  // Saved as a new setup: chosen for the optimization, no change left, the same time.
  await page.getByLabel('New setup name').fill('Inputs bike – upright')
  await page.getByRole('button', { name: 'Save as new setup' }).click()
  await expect(page.getByText('Created the rider setup “Inputs bike – upright”')).toBeVisible()
  await expect(page.getByLabel('Rider setup')).toHaveValue(new RegExp(`^${UUID}$`))
  await expect(page.getByLabel('Rider setup').locator('option:checked')).toHaveText(
    'Inputs bike – upright',
  )
  await expect(page.getByTestId('override-summary')).toHaveCount(0)
  await expect(cda).toHaveValue(upright)
  expect(await previewTime(page)).toBe(tweaked)
  await expect(page.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible()

  // A change saved into the (new) setup itself.
  await page.getByLabel(/^CP/).fill('290')
  await page.getByRole('button', { name: 'Save to setup' }).click()
  await expect(page.getByText('Saved the changes into “Inputs bike – upright”.')).toBeVisible()
  await expect(page.getByTestId('override-summary')).toHaveCount(0)

  await page.goto('/simulation/riders')
  await expect(page.getByRole('link', { name: 'Inputs bike – upright' })).toBeVisible()
  await expect(page.getByRole('link', { name: 'Inputs bike', exact: true })).toBeVisible()
  await expect(
    page.getByRole('listitem').filter({ hasText: 'Inputs bike – upright' }),
  ).toContainText('CP 290 W')

  // The run: the result's header and plan carry the start, clock times and the section name.
  await page.goBack()
  await expect(page.getByLabel('Event date and start time')).toHaveValue('2026-06-14T09:30')
  await expect(page.getByTestId('wind-row')).toHaveCount(sectionCount)
  await page.getByRole('button', { name: 'Run' }).click()
  await page.waitForURL(new RegExp(`/optimizations/pacing/${UUID}/results/${UUID}$`), {
    timeout: 60_000,
  })
  const time = page.getByTestId('predicted-time')
  await expect(time).toHaveText(/^(\d+:)?\d?\d:\d\d$/, { timeout: 30_000 })
  const header = page.getByTestId('result-start-finish')
  await expect(header).toContainText('Sun 14 Jun 2026, 09:30')
  await expect(header).toContainText(
    `predicted finish ${clockAfter0930(seconds(await time.innerText()))}`,
  )
  await expect(page.getByTestId('plan-clock').first()).toHaveText('09:30:00')
  await expect(page.getByTestId('plan-section-name').first()).toHaveText('Harbour start')
  await page.screenshot({ path: screenshotPath('inputs-result'), fullPage: true })
  await page.emulateMedia({ media: 'print' })
  await page.screenshot({ path: screenshotPath('inputs-race-sheet'), fullPage: true })
  await page.emulateMedia({ media: 'screen' })

  // The inputs of the result: the event start and the wind stretches as they were run.
  await page.getByRole('link', { name: 'Inputs of this result' }).click()
  // (the inputs page loads on demand: the result page, whose race sheet repeats the start, shows
  // until it is there)
  await page.waitForURL(/\/results\/[0-9a-f-]{36}\/input$/)
  const winds = page.getByTestId('snapshot-wind-segments').locator('li')
  await expect(winds.first()).toBeVisible()
  await expect(page.getByText('Sun 14 Jun 2026, 09:30')).toBeVisible()
  await expect(winds).toHaveCount(sectionCount)
  await expect(winds.first()).toContainText('30.0 km/h from 225° (SW)')
  await page.screenshot({ path: screenshotPath('inputs-result-input'), fullPage: true })

  expect(errors).toEqual([])
})
