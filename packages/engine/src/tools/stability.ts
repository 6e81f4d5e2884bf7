// Forecast wind is at 10 m: the product's one rider-height profile (weather/profile.ts, docs/engine/science.md §1.1).
import { RIDER_HEIGHT_WIND_FACTOR } from '../weather/profile.ts'
import { sideForceArea, type FrontWheel, type RearWheel } from './wheel-tables.ts'

/**
 * Crosswind stability — a heuristic (docs/engine/science.md §8.2 step 4: no peer-reviewed threshold by
 * rider weight exists). The front wheel's side force in a gust, F = ½·ρ·Va²·CsA(β), acts ahead
 * of the steering axis and steers the bike; we compare it with the system weight m·g. A gust
 * is taken perpendicular to the road (the worst case) at GUST_FACTOR × the wind at rider
 * height. The rear wheel barely affects steering (Slowtwitch, docs/engine/science.md §8.1), so a rear
 * wheel, disc included, is never rated unstable by this logic.
 */

export const HANDLING_LEVELS = ['low', 'medium', 'high'] as const
export type Handling = (typeof HANDLING_LEVELS)[number]

/** Side force / system weight above which the front wheel is rated unstable (our heuristic). */
export const STABILITY_THRESHOLD: Record<Handling, number> = {
  low: 0.006,
  medium: 0.009,
  high: 0.012,
}
/** Below this share of the threshold the wheel is "stable"; between, "manageable". */
export const STABLE_SHARE = 0.7
/** Peak gust over the mean wind in open terrain (WMO gust factors ≈1.4–1.6; ours 1.5). */
export const GUST_FACTOR = 1.5

export type StabilityRating = 'stable' | 'manageable' | 'unstable'

export type StabilityAssessment = {
  /** Gust speed at rider height (m/s), perpendicular to the road. */
  gustMps: number
  yawDeg: number
  sideForceN: number
  /** Side force / (system mass · g). */
  ratio: number
  threshold: number
  rating: StabilityRating
}

export type StabilityConditions = {
  systemMassKg: number
  /** The rider's speed where the gust hits (m/s). */
  speedMps: number
  /** Forecast (10 m) mean wind speed, m/s. */
  windSpeedMps: number
  handling: Handling
  airDensityKgM3?: number
}

function gustLoad(wheelArea: (yawDeg: number) => number, c: StabilityConditions) {
  const gust = c.windSpeedMps * RIDER_HEIGHT_WIND_FACTOR * GUST_FACTOR
  const v = c.speedMps
  const yawDeg = (Math.atan2(gust, v) * 180) / Math.PI
  const q = 0.5 * (c.airDensityKgM3 ?? 1.225) * (v * v + gust * gust)
  const sideForceN = q * wheelArea(yawDeg)
  const ratio = sideForceN / (c.systemMassKg * 9.80665)
  return { gustMps: gust, yawDeg, sideForceN, ratio, threshold: STABILITY_THRESHOLD[c.handling] }
}

export function frontStability(wheel: FrontWheel, c: StabilityConditions): StabilityAssessment {
  const g = gustLoad((b) => sideForceArea(wheel, b), c)
  const rating: StabilityRating =
    g.ratio > g.threshold
      ? 'unstable'
      : g.ratio > STABLE_SHARE * g.threshold
        ? 'manageable'
        : 'stable'
  return { ...g, rating }
}

/** Rear wheels push the bike sideways but hardly steer it: "manageable" at worst. */
export function rearStability(wheel: RearWheel, c: StabilityConditions): StabilityAssessment {
  const g = gustLoad((b) => sideForceArea(wheel, b), c)
  return { ...g, rating: g.ratio > g.threshold ? 'manageable' : 'stable' }
}
