// Wind at rider height from a forecast's 10 m wind: THE one profile of the product (the race-day
// weather, the /tools wheel recommendation and its crosswind check all use it). It is the power
// law of docs/engine/science.md §1.1, u(z) = u10 · (z / 10)^α, with α by terrain: 0.16 rural (open country,
// what a race course mostly crosses), 0.3 suburbs, 0.4 city, at a rider height of 1.5 m — the
// constants of johnjdavisiv/wind-calculator `scripts.js` (ALPHA_RURAL, ALPHA_SUBURBS,
// ALPHA_CITY, CHEST_HEIGHT = 1.5, WIND_REFERENCE_HEIGHT = 10). Default factor (0.15)^0.16 = 0.738
// ("factor 0.74 (rural)", docs/engine/science.md §1.1).
import { EngineInputError, requireNumber } from '../sim/validate.ts'

/** Power-law exponents by terrain (docs/engine/science.md §1.1). */
export const WIND_SHEAR_EXPONENT = { rural: 0.16, suburbs: 0.3, city: 0.4 } as const
export type WindTerrain = keyof typeof WIND_SHEAR_EXPONENT

export interface WindProfile {
  /** Height where the wind acts on the rider (m), default 1.5. */
  heightM?: number
  /** Terrain class, default 'rural' (α = 0.16); ignored when `exponent` is given. */
  terrain?: WindTerrain
  /** Power-law exponent α (0 = no reduction), overrides `terrain`. */
  exponent?: number
  /** Height of the forecast's wind (m), default 10. */
  referenceHeightM?: number
}

export const DEFAULT_RIDER_WIND_HEIGHT_M = 1.5
export const DEFAULT_WIND_TERRAIN: WindTerrain = 'rural'

/** Factor that turns the wind at the reference height (10 m) into the wind at rider height. */
export function windHeightFactor(profile: WindProfile = {}): number {
  const z = requireNumber(
    'profile.heightM',
    profile.heightM ?? DEFAULT_RIDER_WIND_HEIGHT_M,
    0,
    100,
    true,
  )
  const zr = requireNumber('profile.referenceHeightM', profile.referenceHeightM ?? 10, 0, 200, true)
  const terrain = profile.terrain ?? DEFAULT_WIND_TERRAIN
  if (profile.exponent === undefined && !(terrain in WIND_SHEAR_EXPONENT)) {
    throw new EngineInputError(
      'profile.terrain',
      `expected one of ${Object.keys(WIND_SHEAR_EXPONENT).join(', ')}, got ${String(terrain)}`,
    )
  }
  const alpha = requireNumber(
    'profile.exponent',
    profile.exponent ?? WIND_SHEAR_EXPONENT[terrain],
    0,
    1,
  )
  return Math.pow(z / zr, alpha)
}

/** The product's 10 m → rider-height factor (the default profile): 0.738. */
export const RIDER_HEIGHT_WIND_FACTOR = windHeightFactor()
