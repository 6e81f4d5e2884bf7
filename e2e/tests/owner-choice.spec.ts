import { resolve } from 'node:path'
import { expect, test } from '@playwright/test'
import { dataDir, needs, repoRoot } from '../../scripts/test-data.ts'
import { DEMO, screenshotPath, signIn } from '../helpers/auth.ts'
import { pageErrors } from '../helpers/page-errors.ts'

// New items belong to the team the user works in, or to whom "Save in" names: a coach working in
// his team uploads a course and it is the team's; choosing Personal keeps the next one his own.
// The API checks that the caller belongs to the team (apps/api/test/imports.int.test.ts).
const file = 'courses/tt-beton-classic.gpx'
const UUID = '[0-9a-f-]{36}'

test('a coach working in a team uploads a course: the team owns it, unless he picks Personal', async ({
  page,
}) => {
  const real = needs(file)
  test.skip(real.skip, real.reason)
  test.setTimeout(120_000)
  const errors = pageErrors(page)
  await signIn(page, DEMO.coach)
  await page.goto('/account')
  await page.getByLabel('New team').fill('Course Owners')
  await page.getByRole('button', { name: 'Create team' }).click()
  await expect(page.getByRole('list', { name: 'Your teams' })).toContainText('Course Owners')
  const team = await page.getByLabel('Work in').inputValue()
  expect(team).toMatch(new RegExp(`^${UUID}$`))

  const path = resolve(dataDir ?? resolve(repoRoot, 'test-data'), file)

  // The team he works in is the default owner.
  await page.goto('/simulation/courses')
  await expect(page.getByLabel('Save in')).toHaveValue(team)
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 })
    await page
      .getByTestId('course-dropzone')
      .screenshot({ path: screenshotPath(`courses-upload-owner-${width}`) })
  }
  await page.setViewportSize({ width: 1366, height: 900 })
  await page.getByLabel('Course file').setInputFiles(path)
  await page.waitForURL(new RegExp(`/simulation/courses/${UUID}$`), { timeout: 30_000 })
  const teamCourse = page.url().split('/').pop()!

  // Picking Personal: the next upload is his own.
  await page.goto('/simulation/courses')
  await page.getByLabel('Save in').selectOption({ label: 'Personal' })
  await page.getByLabel('Course file').setInputFiles(path)
  await page.waitForURL(new RegExp(`/simulation/courses/${UUID}$`), { timeout: 30_000 })
  const ownCourse = page.url().split('/').pop()!

  // The list's owner badges: what the API stored.
  await page.goto('/simulation/courses')
  const badge = (id: string) =>
    page.locator(`li:has(a[href$="/simulation/courses/${id}"]) span.rounded-full`)
  await expect(badge(teamCourse)).toHaveText('Course Owners')
  await expect(badge(ownCourse)).toHaveText('Personal')

  // Every other create offers the same choice, defaulting to the team he works in.
  await page.goto('/simulation/riders/new')
  await expect(page.getByLabel('Save in')).toHaveValue(team)
  await page.goto('/aero/sessions')
  await page.getByRole('button', { name: 'New session' }).click()
  await expect(page.getByLabel('Save in')).toHaveValue(team)
  await page.goto('/aero/devices')
  await page.getByRole('button', { name: 'Register a device' }).click()
  await expect(page.getByLabel('Save in')).toHaveValue(team)
  // An optimization on his personal course stays personal by default (a team's optimization
  // needs the team's course and setup), and says so in the choice.
  await page.goto('/simulation/optimizations/new?type=pacing')
  await page.getByLabel('Course', { exact: true }).selectOption(ownCourse)
  await expect(page.getByLabel('Save in')).toHaveValue('')
  expect(errors).toEqual([])
})
