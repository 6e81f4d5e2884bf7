// A rider setup made through the rider page's form as a user types it (weight, height, the CdA
// estimate, CP, W′ and max power), for the journeys that need one to optimize with.
import type { Page } from '@playwright/test'

export interface RiderSetupFields {
  name: string
  weightKg: number
  heightCm: number
  cpW: number
  wPrimeKj: number
  maxPowerW: number
}

/** Fills and creates the setup; resolves on its page. */
export async function createRiderSetup(page: Page, f: RiderSetupFields): Promise<void> {
  await page.goto('/simulation/riders/new')
  await page.getByLabel('Setup name').fill(f.name)
  await page.getByLabel(/^Rider weight/).fill(String(f.weightKg))
  await page.getByLabel(/^Rider height/).fill(String(f.heightCm))
  await page.getByRole('button', { name: 'Estimate CdA from height and weight' }).click()
  await page.getByLabel(/^CP/).fill(String(f.cpW))
  await page.getByLabel(/^W′/).fill(String(f.wPrimeKj))
  await page.getByLabel(/^Max power/).fill(String(f.maxPowerW))
  await page.getByRole('button', { name: 'Create rider setup' }).click()
  await page.waitForURL(/\/simulation\/riders\/[0-9a-f-]{36}$/)
}
