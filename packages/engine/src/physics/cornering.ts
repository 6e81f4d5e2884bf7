// Cornering and braking limits (docs/engine/science.md §5).
import { G0 } from './constants.ts'

/** Maximum steady cornering speed (m/s) on a flat road: √(μ·g·R), with optional banking (rad). */
export function corneringSpeedLimit(radiusM: number, lateralMu: number, bankingRad = 0): number {
  if (!(radiusM < Infinity)) return Infinity
  const tb = Math.tan(bankingRad)
  const den = 1 - lateralMu * tb
  if (den <= 0) return Infinity
  return Math.sqrt((G0 * radiusM * (lateralMu + tb)) / den)
}

/** Lean angle (rad) needed at speed v on radius R: atan(v²/(g·R)). */
export function leanAngle(speedMps: number, radiusM: number): number {
  return Math.atan((speedMps * speedMps) / (G0 * radiusM))
}

/**
 * Braking deceleration (m/s²) on a grade, AASHTO style: a = a_level + g·G (a descent, G < 0,
 * reduces it). Kept at least a quarter of the level value so steep descents remain brakeable.
 */
export function brakingDeceleration(levelDecelMps2: number, grade: number): number {
  return Math.max(levelDecelMps2 + G0 * grade, 0.25 * levelDecelMps2)
}

/** Distance (m) to brake from v0 to v1 at constant deceleration a. */
export function brakingDistance(v0: number, v1: number, decelMps2: number): number {
  return (v0 * v0 - v1 * v1) / (2 * decelMps2)
}
