// The channels a file offers the analysis: whether one is present, and how the air speed compares
// with the ground speed.
import type { ActivitySamples } from './types.ts'

/** Σ air speed / Σ ground speed over the runs' samples where both are finite and moving. */
export function airToGroundRatio(
  s: ActivitySamples,
  runs: { pieces: [number, number][] }[],
): number {
  let air = 0
  let ground = 0
  for (const r of runs) {
    for (const [a, b] of r.pieces) {
      for (let i = a; i < b; i++) {
        const v = s.speed[i]!
        const w = s.airspeed![i]!
        if (Number.isFinite(v) && Number.isFinite(w) && v > 1) {
          air += w
          ground += v
        }
      }
    }
  }
  return ground > 0 ? air / ground : NaN
}

export function hasChannel(a: Float64Array | null, min: number): boolean {
  if (!a) return false
  let c = 0
  for (let i = 0; i < a.length; i++) if (a[i]! > min) c++
  return c >= a.length / 2
}
