// Apparent wind (docs/engine/science.md §1.1): the full vector, not only the tangential projection.
// Convention: wind direction is where it blows FROM, bearing of travel clockwise from north.

/** Wind components in the rider's frame: `headwind` along travel (+ = from ahead), `cross` (+ = from the right). */
export function windComponents(
  windSpeedMps: number,
  windFromRad: number,
  headingRad: number,
): { headwind: number; cross: number } {
  const d = windFromRad - headingRad
  return { headwind: windSpeedMps * Math.cos(d), cross: windSpeedMps * Math.sin(d) }
}

/** Air speed magnitude (m/s) from ground speed and wind components: √((Vg + w∥)² + w⊥²). */
export function airSpeed(groundSpeed: number, headwind: number, cross: number): number {
  const a = groundSpeed + headwind
  return Math.sqrt(a * a + cross * cross)
}

/** Martin's tangential air speed Va = Vg + Vw·cos(Dw − Db) (for comparison with the paper). */
export function tangentialAirSpeed(groundSpeed: number, headwind: number): number {
  return groundSpeed + headwind
}

/** Yaw angle (rad) of the apparent wind: atan2(w⊥, Vg + w∥). */
export function yawAngle(groundSpeed: number, headwind: number, cross: number): number {
  return Math.atan2(cross, groundSpeed + headwind)
}
