import { expect, test } from '@playwright/test'
import { DEMO, screenshotPath, signIn } from '../helpers/auth.ts'
import { createRiderSetup } from '../helpers/rider-setup.ts'
import { chooseCourseFile, needsCourses } from '../helpers/courses.ts'
import { pageErrors } from '../helpers/page-errors.ts'
import { startOptimization } from '../helpers/optimization.ts'

// Race-day weather: an optimization with an event date and start uses the forecast
// along the course from the weather provider's local stand-in (playwright.config.ts starts it and
// points WEATHER_URL at it) read where and when the optimized plan puts the rider, shows the
// wind strip, a small map with wind arrows at the forecast points and the time range for the
// forecast's spread, and keeps the wind stretch typed by hand. Before the run, the optimization
// page shows the forecast for the start (map) and the preview rides in its wind; the /tools wheel
// calculator takes the same forecast and the same rider-height profile.

// The real-world files this journey uploads (scripts/test-data.ts): without them it skips,
// naming them.
needsCourses('tt-beton-classic.gpx')
const UUID = '[0-9a-f-]{36}'

test('race-day weather: forecast wind strip, time range, typed stretch kept', async ({ page }) => {
  test.setTimeout(180_000)
  const errors = pageErrors(page)
  await signIn(page, DEMO.rider)

  await page.goto('/simulation/courses')
  // The course's id from its page's address (its heading may still read a placeholder here).
  const courseId = await chooseCourseFile(page, 'tt-beton-classic.gpx')

  await createRiderSetup(page, { name: 'Weather bike' })

  // Tomorrow 09:30: inside the forecast's 16 days.
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
  await startOptimization(page, 'pacing', courseId, 'Weather bike', 'Weather plan')
  await page.getByLabel('Event date and start time').fill(`${tomorrow}T09:30`)
  await page.getByRole('button', { name: 'Add wind stretch' }).click()
  await page.getByLabel(/^Stretch 1 end/).fill('4')
  await page.getByLabel(/^Stretch 1 wind speed/).fill('20')
  await page.getByLabel(/^Stretch 1 wind from/).fill('90')
  await page.getByRole('button', { name: 'Create' }).click()
  await page.waitForURL(new RegExp(`/simulation/optimizations/pacing/${UUID}$`))
  // Before the run: the forecast for this start on the page (issue time, a small map with an
  // arrow per stretch between the six forecast points), and the preview rides in its wind.
  const forecastCard = page.getByTestId('forecast-card')
  await expect(forecastCard).toContainText(
    /Forecast \(open-meteo:forecast\) fetched .* for the start/,
    {
      timeout: 60_000,
    },
  )
  const forecastMap = page.getByRole('img', { name: /Race-day forecast wind along the course/ })
  await expect(forecastMap.locator('[data-map-wind-arrow]')).toHaveCount(5)
  await expect(page.getByTestId('preview-weather-note')).toContainText(
    'This preview rides in the forecast’s wind',
    { timeout: 60_000 },
  )
  await forecastCard.screenshot({ path: screenshotPath('race-day-forecast-card') })
  await page.getByRole('button', { name: 'Run' }).click()
  await page.waitForURL(new RegExp(`/optimizations/pacing/${UUID}/results/${UUID}$`), {
    timeout: 60_000,
  })
  await expect(page.getByTestId('predicted-time')).toHaveText(/^(\d+:)?\d?\d:\d\d$/, {
    timeout: 60_000,
  })

  const card = page.getByRole('img', { name: /Wind along the course/ })
  await expect(card).toBeVisible()
  expect(await card.locator('[data-wind-arrow]').count()).toBeGreaterThan(10)
  const range = page.getByTestId('weather-range')
  await expect(range).toContainText('Time of the plan with wind ± 2 m/s and direction ± 30°')
  // Arrival times from the plan: at least one optimization, the last within a minute.
  await expect(page.getByTestId('weather-arrival')).toHaveText(
    /Conditions read where the plan puts the rider: [1-4] optimizations?, the last plan's arrival times within \d+ s/,
  )
  const [lo, hi] = (await range.locator('strong').innerText()).split(' – ')
  const secs = (t: string) =>
    t
      .trim()
      .split(':')
      .map(Number)
      .reduce((a, b) => a * 60 + b, 0)
  expect(secs(hi!)).toBeGreaterThan(secs(lo!))
  await expect(page.getByText('1 typed wind stretch kept')).toBeVisible()
  await expect(page.getByText(`start ${tomorrow} 09:30 UTC`)).toBeVisible()
  // The small map: the course with one wind arrow per forecast point (6), tooltips on hover.
  const map = page.getByRole('img', { name: /Forecast wind at the forecast points/ })
  await expect(map).toBeVisible()
  await expect(map.locator('[data-map-wind-arrow]')).toHaveCount(6)
  // The start and finish arrows of this loop overlap: hover whichever is on top.
  await map.scrollIntoViewIfNeeded()
  await map.locator('.leaflet-marker-icon').first().hover({ force: true })
  await expect(page.locator('.leaflet-tooltip')).toContainText(
    /\d+\.\d km, \d\d:\d\d UTC: .* from \d+°/,
  )
  await page.screenshot({ path: screenshotPath('race-day-weather'), fullPage: true })
  await page
    .getByRole('heading', { name: 'Race-day weather' })
    .locator('xpath=ancestor::section[1]')
    .screenshot({ path: screenshotPath('race-day-weather-card') })

  // /tools: the wheel calculator takes the forecast's mean 10 m wind for this course and start,
  // and reduces it to rider height with the same profile as the run (× (1.5/10)^0.16 = 0.738,
  // docs/engine/science.md §1.1), as its assumptions state.
  await page.goto('/tools')
  const wheels = page.getByRole('region', { name: 'Wheel depth' })
  await wheels.getByLabel('Or one of your courses').selectOption(courseId)
  await wheels.getByLabel('Use the forecast for my course and date').check()
  await wheels.getByLabel('Start (local time at the course)').fill(`${tomorrow}T09:30`)
  await expect(wheels.getByTestId('wheels-forecast')).toContainText(
    /Wind from the forecast issued .* at 10 m from \d+°, the mean along the course\./,
    { timeout: 30_000 },
  )
  // (The assumptions sit in a collapsed list: read, not seen.)
  const assumption = wheels.getByText(
    /forecast wind [\d.]+ m\/s at 10 m → [\d.]+ m\/s at rider height/,
  )
  await expect(assumption).toContainText('(× 0.738, docs/engine/science.md §1.1)')
  const [, w10, wRider] = /forecast wind ([\d.]+) m\/s at 10 m → ([\d.]+) m\/s/.exec(
    (await assumption.textContent())!,
  )!
  // Both shown to 0.1 m/s: within the rounding of 10 m wind × 0.738.
  expect(Math.abs(Number(wRider) - Number(w10) * Math.pow(0.15, 0.16))).toBeLessThanOrEqual(0.09)
  expect(errors).toEqual([])
})
