// The rides given to the durability fit, checked once at the entry: every message names the
// ride, the second and the value ("expected X, got Y").
import { EngineInputError } from '../sim/validate.ts'

/** One ride: power in W, one value per second; NaN, null or undefined is a gap (no reading). */
export type DurabilityRide = ArrayLike<number | null | undefined>

/** Highest power a second may hold, W (the replay's plausibility bound, sim/recorded.ts). */
export const MAX_POWER_W = 3000
/** Longest ride, s (seven days: a multi-day recording is not one ride). */
export const MAX_RIDE_S = 7 * 24 * 3600
/** Most rides in one fit. */
export const MAX_RIDES = 1000

const show = (v: unknown): string =>
  typeof v === 'number' ? String(v) : v === undefined ? 'nothing' : (JSON.stringify(v) ?? typeof v)

/** The rides as Float64Arrays with NaN for the gaps; throws EngineInputError on a bad value. */
export function validateRides(rides: unknown): Float64Array[] {
  if (!Array.isArray(rides) || rides.length === 0) {
    throw new EngineInputError(
      'rides',
      `expected a list of rides (per-second power in W), got ${Array.isArray(rides) ? 'an empty list' : show(rides)}`,
    )
  }
  if (rides.length > MAX_RIDES) {
    throw new EngineInputError('rides', `expected at most ${MAX_RIDES} rides, got ${rides.length}`)
  }
  return rides.map((ride: unknown, r) => {
    const field = `rides[${r}]`
    const len = (ride as { length?: unknown } | null)?.length
    if (!ride || typeof ride !== 'object' || typeof len !== 'number') {
      throw new EngineInputError(field, `expected per-second power in W, got ${show(ride)}`)
    }
    if (len > MAX_RIDE_S) {
      throw new EngineInputError(field, `expected at most ${MAX_RIDE_S} s (7 days), got ${len} s`)
    }
    const values = ride as ArrayLike<unknown>
    const out = new Float64Array(len)
    for (let i = 0; i < len; i++) {
      const v = values[i]
      if (v === undefined || v === null || (typeof v === 'number' && Number.isNaN(v))) {
        out[i] = NaN
      } else if (typeof v !== 'number' || !(v >= 0 && v <= MAX_POWER_W)) {
        throw new EngineInputError(
          `${field}[${i}]`,
          `expected a power from 0 to ${MAX_POWER_W} W or a gap (NaN), got ${show(v)}`,
        )
      } else {
        out[i] = v
      }
    }
    return out
  })
}
