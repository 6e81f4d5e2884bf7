// Riding positions with speed ranges (DESIGN §2, §5): a setup has positions, each with a CdA and
// the speeds where it is ridden (typically aero when fast, upright on climbs, switching somewhere
// in 10–30 km/h). On each segment the rider takes the position whose range holds the segment's
// mean speed (the first listed when several do, the nearest range when none does). The position
// enters the model as a per-segment factor on the drag area (CdA + Fw) relative to the rider's
// `cdaM2`, folded into ρ like every other per-segment drag factor (so energy and the optimizer's
// gradients stay consistent). Since speed depends on drag, the assignment is a fixed point: ride,
// assign, ride again with that assignment, until it no longer changes (at most 3 rounds); the
// ride returned is always the one simulated with the assignment returned.
import { MARTIN } from '../physics/constants.ts'
import type { Rider, SimModel } from './model.ts'

export interface RiderPosition {
  name?: string
  cdaM2: number
  /** Lowest speed where this position is ridden (m/s, default 0). */
  minSpeedMps?: number
  /** Highest speed where this position is ridden (m/s, default no limit). */
  maxSpeedMps?: number
}

/** Rounds of re-assignment after the first (ride → assign → ride …). */
export const POSITION_ROUNDS = 3

/** True when the positions can change anything (some CdA differs from the rider's). */
export function positionsMatter(rider: Rider): boolean {
  const p = rider.positions
  return !!p && p.length > 0 && p.some((q) => q.cdaM2 !== rider.cdaM2)
}

/** The index of the position ridden at a speed. */
export function positionAt(positions: readonly RiderPosition[], speedMps: number): number {
  let best = 0
  let bestGap = Infinity
  for (let k = 0; k < positions.length; k++) {
    const lo = positions[k]!.minSpeedMps ?? 0
    const hi = positions[k]!.maxSpeedMps ?? Infinity
    const gap = speedMps < lo ? lo - speedMps : speedMps > hi ? speedMps - hi : 0
    if (gap === 0) return k
    if (gap < bestGap) {
      bestGap = gap
      best = k
    }
  }
  return best
}

/**
 * The position of every segment from the segments' mean speeds; segments without a speed (past a
 * stall) keep `previous`'s position, or the first position.
 */
export function assignPositions(
  positions: readonly RiderPosition[],
  speed: ArrayLike<number>,
  count: number,
  n: number,
  previous?: Uint8Array,
): Uint8Array {
  const out = new Uint8Array(n)
  for (let i = 0; i < n; i++) {
    out[i] = i < count ? positionAt(positions, speed[i]!) : (previous?.[i] ?? 0)
  }
  return out
}

export function sameAssignment(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** The rider's drag area with the wheels' (CdA + Fw), on which the per-segment factors act. */
export function dragAreaOf(rider: Rider): number {
  return rider.cdaM2 + (rider.spokeDragAreaM2 ?? MARTIN.spokeDragAreaM2)
}

/**
 * The per-segment drag factor of an assignment: (CdA + Fw + ΔCdA of the position) / (CdA + Fw),
 * ΔCdA = the position's CdA − the rider's. With `base` (another per-segment factor on the same
 * drag area, e.g. a wheel's ΔCdA by yaw) the deltas add: (A + Δyaw + Δposition) / A.
 */
export function positionDragFactor(
  rider: Rider,
  assignment: Uint8Array,
  base?: Float64Array,
): Float64Array {
  const positions = rider.positions ?? []
  const area = dragAreaOf(rider)
  const out = new Float64Array(assignment.length)
  for (let i = 0; i < out.length; i++) {
    const p = positions[assignment[i]!]
    const delta = p && area > 0 ? (p.cdaM2 - rider.cdaM2) / area : 0
    out[i] = (base ? base[i]! : 1) + delta
  }
  return out
}

/** The model with a per-segment drag factor folded into ρ (aero is ρ·½(CdA + Fw)). */
export function scaleDrag(m: SimModel, factor: Float64Array): SimModel {
  const rho = new Float64Array(m.n)
  for (let i = 0; i < m.n; i++) rho[i] = m.rho[i]! * factor[i]!
  return { ...m, rho }
}

/** The positions' names by index ("position 2" for an unnamed second position). */
export function positionNames(rider: Rider): string[] {
  return (rider.positions ?? []).map((p, k) => p.name ?? `position ${k + 1}`)
}

/** The position ridden over most of [startM, endM) (by length), or null without positions. */
export function majorityPosition(
  start: ArrayLike<number>,
  assignment: Uint8Array,
  startM: number,
  endM: number,
): number | null {
  const share = new Map<number, number>()
  for (let i = 0; i < assignment.length; i++) {
    const a = Math.max(start[i]!, startM)
    const b = Math.min(start[i + 1]!, endM)
    if (b > a) share.set(assignment[i]!, (share.get(assignment[i]!) ?? 0) + (b - a))
  }
  let best: number | null = null
  let most = -1
  for (const [k, len] of share) {
    if (len > most || (len === most && best !== null && k < best)) {
      best = k
      most = len
    }
  }
  return best
}
