import type { Page } from '@playwright/test'

/** The page's uncaught errors from now on (a journey ends expecting none). */
export function pageErrors(page: Page): string[] {
  const errors: string[] = []
  page.on('pageerror', (e) => errors.push(String(e)))
  return errors
}
