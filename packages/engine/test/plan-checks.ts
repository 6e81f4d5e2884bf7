// Checks every test of a rideable plan makes: the plan, as ridden by the public simulate(), is
// the ride it reports.
import { expect } from 'vitest'
import { simulate } from '../src/index.ts'

/** Ridden on `ride`'s course, rider and air, the plan takes its reported time within W′. */
export function expectPlanRidesAsReported(
  plan: { powerW: ArrayLike<number>; timeS: number },
  ride: Omit<Parameters<typeof simulate>[0], 'pacing'>,
): void {
  const sim = simulate({ ...ride, pacing: { type: 'plan', powerW: plan.powerW } })
  expect(sim.timeS).toBe(plan.timeS)
  expect(sim.minWPrimeBalanceJ!).toBeGreaterThanOrEqual(0)
}
