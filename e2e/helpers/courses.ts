// The real-world courses a journey uploads (the shared data, scripts/test-data.ts) and their
// upload on the courses page.
import { resolve } from 'node:path'
import { expect, test, type Page } from '@playwright/test'
import { dataDir, needs, repoRoot } from '../../scripts/test-data.ts'

const coursesDir = resolve(dataDir ?? resolve(repoRoot, 'test-data'), 'courses')
const UUID = '[0-9a-f-]{36}'

/** Skips the spec's journeys, naming the files, when these courses of the shared data are absent. */
export function needsCourses(...names: string[]) {
  const real = needs(...names.map((name) => `courses/${name}`))
  test.skip(real.skip, real.reason)
}

/**
 * Chooses the course `name` of the shared data on the courses page and waits for the new course's
 * page; answers the course's id.
 */
export async function chooseCourseFile(page: Page, name: string, timeout = 30_000) {
  await page.getByLabel('Course file').setInputFiles(resolve(coursesDir, name))
  await page.waitForURL(new RegExp(`/simulation/courses/${UUID}$`), { timeout })
  return new URL(page.url()).pathname.split('/').pop()!
}

/** Opens the courses page and uploads the course `name` of the shared data; answers its id. */
export async function uploadCourse(page: Page, name: string): Promise<string> {
  await page.goto('/simulation/courses')
  await expect(page.getByRole('heading', { name: 'Courses', level: 1 })).toBeVisible()
  return chooseCourseFile(page, name)
}

/** A time on the clock ("25:13", "1:02:05") in seconds. */
export const clockSeconds = (text: string) =>
  text
    .trim()
    .split(':')
    .map(Number)
    .reduce((a, b) => a * 60 + b, 0)
