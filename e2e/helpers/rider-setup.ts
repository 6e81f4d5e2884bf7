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

/** The rider most journeys optimize with. */
const TYPICAL_RIDER = { weightKg: 72, heightCm: 180, cpW: 280, wPrimeKj: 20, maxPowerW: 650 }

/** Fills and creates the setup (the typical rider's values where none is given); resolves on its
 * page. */
export async function createRiderSetup(
  page: Page,
  fields: Pick<RiderSetupFields, 'name'> & Partial<RiderSetupFields>,
): Promise<void> {
  const f: RiderSetupFields = { ...TYPICAL_RIDER, ...fields }
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

/** A road setup's body for the API (one position, CP and W′), for journeys that post one. */
export const roadSetupBody = (name: string) => ({
  name,
  rider_mass: 70,
  bike_mass: 8,
  positions: [{ name: 'drops', cda: 0.3, min_speed: 0, max_speed: 30 }],
  crr: { smooth: 0.003, normal: 0.004, rough: 0.008 },
  cp: 280,
  w_prime: 20000,
})
