// Wind at rider height from a forecast's 10 m wind: the neutral logarithmic profile
// u(z) = u_ref · ln((z − d)/z0) / ln((z_ref − d)/z0), with roughness length z0 and zero-plane
// displacement d (Allen et al. 1998, FAO Irrigation and Drainage Paper 56, eq. 47 and box 4;
// WMO-No. 8 Annex 5 roughness classes). Default terrain: z0 = 0.03 m, d = 0 ("open": flat open
// country, low grass, isolated obstacles; Davenport–Wieringa class 3), which is what a race course
// mostly crosses; a rider's drag is centred about 1 m above the road.
import { EngineInputError, requireNumber } from '../sim/validate.ts'

export interface WindProfile {
  /** Height of the rider's aerodynamic centre (m), default 1.0. */
  heightM?: number
  /** Aerodynamic roughness length of the terrain (m), default 0.03 (open country). */
  roughnessM?: number
  /** Zero-plane displacement (m), default 0. */
  displacementM?: number
  /** Height of the forecast's wind (m), default 10. */
  referenceHeightM?: number
}

export const DEFAULT_RIDER_WIND_HEIGHT_M = 1.0
export const DEFAULT_ROUGHNESS_M = 0.03

/** Factor that turns the wind at the reference height (10 m) into the wind at rider height. */
export function windHeightFactor(profile: WindProfile = {}): number {
  const z = requireNumber(
    'profile.heightM',
    profile.heightM ?? DEFAULT_RIDER_WIND_HEIGHT_M,
    0,
    100,
    true,
  )
  const z0 = requireNumber(
    'profile.roughnessM',
    profile.roughnessM ?? DEFAULT_ROUGHNESS_M,
    0,
    5,
    true,
  )
  const d = requireNumber('profile.displacementM', profile.displacementM ?? 0, 0, 50)
  const zr = requireNumber('profile.referenceHeightM', profile.referenceHeightM ?? 10, 0, 200, true)
  if (!(z - d > z0)) {
    throw new EngineInputError(
      'profile.heightM',
      `expected more than displacement + roughness (${d + z0} m), got ${z}`,
    )
  }
  if (!(zr - d > z0)) {
    throw new EngineInputError(
      'profile.referenceHeightM',
      `expected more than displacement + roughness (${d + z0} m), got ${zr}`,
    )
  }
  return Math.log((z - d) / z0) / Math.log((zr - d) / z0)
}
