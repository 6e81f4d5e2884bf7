import { expect, test, type Page } from '@playwright/test'
import { DEMO, screenshotPath, signIn } from '../helpers/auth.ts'
import { createRiderSetup } from '../helpers/rider-setup.ts'
import { chooseCourseFile, clockSeconds as seconds, needsCourses } from '../helpers/courses.ts'
import { pageErrors } from '../helpers/page-errors.ts'
import { startOptimization } from '../helpers/optimization.ts'
import { firstAnswerShown, previewMark, recordPreview } from '../helpers/preview-answers.ts'

// The optimization page's instant preview in two steps (docs/web-app.md, "Instant preview") on the
// real Mont Ventoux climb (2 000 segments of 10 m, whose rideable plan takes seconds): the first
// answer (the steady power and the per-segment optimum) appears, then the refined plan replaces
// it; an edit made while a plan is being refined ends with the answer to that last edit. The first
// answer is on screen for about a second, so it is read from the page's own record of what it
// showed (helpers/preview-answers.ts), and photographed only when it is still there.

needsCourses('mont-ventoux-bedoin.gpx')

/** The preview once it shows the refined plan of the latest input: its predicted time. */
async function refinedTime(page: Page): Promise<string> {
  const preview = page.getByTestId('preview')
  await expect(preview).toHaveAttribute('data-stage', 'refined', { timeout: 60_000 })
  await expect(page.getByTestId('preview-status')).toHaveText(/^Computed in your browser/)
  return preview.getByTestId('predicted-time').innerText()
}

test('the preview answers first, then refines the plan; the last edit wins', async ({ page }) => {
  test.setTimeout(240_000)
  const errors = pageErrors(page)
  await recordPreview(page)
  await signIn(page, DEMO.rider)

  await page.goto('/simulation/courses')
  await chooseCourseFile(page, 'mont-ventoux-bedoin.gpx', 60_000)
  const course = (await page.getByRole('heading', { level: 1 }).textContent())!

  await createRiderSetup(page, {
    name: 'Ventoux bike',
    weightKg: 68,
    heightCm: 178,
    cpW: 300,
    wPrimeKj: 20,
    maxPowerW: 700,
  })

  // Choosing the course and the setup: the first answer, marked as such, then the refined plan.
  await startOptimization(page, 'pacing', { label: course }, 'Ventoux bike')
  const preview = page.getByTestId('preview')
  await page.setViewportSize({ width: 1280, height: 900 })
  const first = await firstAnswerShown(page, 0)
  expect(first.status).toMatch(/^First answer in \d+ ms: .*refining the rideable plan…$/)
  expect(first.steady).toMatch(/^\d+ W · 1:\d\d:\d\d$/)
  expect(first.bound).toMatch(/^1:\d\d:\d\d$/)
  expect(first.predicted).toBe(0)
  await screenshotWhileFirst(page, () =>
    page.screenshot({ path: screenshotPath('preview-first-answer'), fullPage: true }),
  )
  const saved = await refinedTime(page)
  await expect(preview.getByTestId('plan-targets-table')).toBeVisible()
  await page.screenshot({ path: screenshotPath('preview-refined'), fullPage: true })

  // A drag area much higher, then (while its plan is being refined) the saved one again: the
  // preview ends with the saved setup's plan, not the higher drag's.
  const cda = page.getByLabel(/^Position 1 CdA/)
  const savedCda = await cda.inputValue()
  let mark = await previewMark(page)
  await cda.fill(String(Number(savedCda) + 0.1))
  const draggy = (await firstAnswerShown(page, mark)).bound!
  await cda.fill(savedCda)
  expect(await refinedTime(page)).toBe(saved)
  expect(seconds(draggy)).toBeGreaterThan(seconds(saved))

  // At phone width.
  await page.setViewportSize({ width: 390, height: 844 })
  mark = await previewMark(page)
  await cda.fill(String(Number(savedCda) + 0.05))
  await firstAnswerShown(page, mark)
  await screenshotWhileFirst(page, () =>
    preview.screenshot({ path: screenshotPath('preview-first-answer-phone') }),
  )
  await refinedTime(page)
  await preview.screenshot({ path: screenshotPath('preview-refined-phone') })
  expect(errors).toEqual([])
})

/** Takes a screenshot of the first answer if the refined plan has not replaced it yet. */
async function screenshotWhileFirst(page: Page, shoot: () => Promise<unknown>): Promise<void> {
  if ((await page.getByTestId('preview').getAttribute('data-stage')) === 'first') await shoot()
}
