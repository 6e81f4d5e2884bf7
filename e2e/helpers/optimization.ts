// A new optimization as a user starts one: its page, the course, the rider setup and its name.
import type { Page } from '@playwright/test'

/**
 * Opens a new optimization of `type` and chooses its course (its id, or `{ label }` as listed) and
 * rider setup (by name), then types its name when one is given.
 */
export async function startOptimization(
  page: Page,
  type: 'pacing' | 'equipment',
  course: string | { label: string },
  setup: string,
  name?: string,
): Promise<void> {
  await page.goto(`/simulation/optimizations/new?type=${type}`)
  await page.getByLabel('Course', { exact: true }).selectOption(course)
  await page.getByLabel('Rider setup').selectOption({ label: setup })
  if (name !== undefined) await page.getByLabel('Optimization name').fill(name)
}
