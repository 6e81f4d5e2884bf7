// The pacing optimizer with riding positions by speed (sim/positions.ts): the position ridden on
// each segment depends on the speed, which depends on the plan, which depends on the drag. A
// fixed point: a first assignment from a ride (a steady ride at the constraint's power, or the
// optimum without positions) → optimize with that assignment as a per-segment drag factor
// (warm-started from the last plan) → reassign by the segments' mean speeds → optimize again,
// until the assignment is stable or after 3 rounds. A round's optimization stops at the
// per-segment optimum, whose ride reassigns; only the last round's goes on to the rideable plan
// (the plan's search is most of a run). The returned plan, ride, times and baseline all come from
// the last optimization, i.e. were simulated with the assignment returned.
import {
  assignPositions,
  POSITION_ROUNDS,
  positionDragFactor,
  positionNames,
  positionsMatter,
  sameAssignment,
} from '../sim/positions.ts'
import { simulate } from '../sim/simulate.ts'
import { optimizeWithoutPositions as optimizeCore, type KnownRuns } from './pacing.ts'
import type { PacingInput, PacingResult as CoreResult } from './pacing.ts'

/** The optimizer's result with the position ridden on each segment (when positions matter). */
export type PacingResult = CoreResult & {
  positions?: { names: string[]; segment: Uint8Array }
}

export type PositionedPacingInput = PacingInput & {
  /** A starting assignment (e.g. the baseline combination's): skips the reference run. */
  initialPositions?: Uint8Array
}

/**
 * A first assignment without optimizing: the positions of a steady ride at the constraint's power
 * (CP under W′ balance), itself a fixed point of the simulation (sim/positions.ts). An optimal
 * plan rides close to these speeds, so the loop below usually settles in one or two rounds.
 */
function steadyGuess(input: PacingInput): Uint8Array | null {
  const c = input.pacing.constraint
  const power =
    c.type === 'w_prime_balance' ? input.rider.cpW : c.type === 'work' ? undefined : c.powerW
  if (!(power !== undefined && power > 0)) return null
  try {
    const sim = simulate({
      course: input.course,
      rider: input.rider,
      environment: input.environment,
      options: input.options,
      pacing: { type: 'constant', powerW: Math.min(power, input.rider.maxPowerW ?? power) },
    })
    return sim.segmentPosition ?? null
  } catch {
    // e.g. a ride that never finishes at that power: optimize once without positions instead
    return null
  }
}

/**
 * `optimizePacing` with the rider's positions. `dragFactor` (another per-segment factor on the
 * same drag area, e.g. a wheel's ΔCdA by yaw) is combined additively with the positions' ΔCdA.
 * Without positions (or when all have the rider's CdA) it is exactly the core optimizer.
 */
export function optimizePacing(input: PositionedPacingInput): PacingResult {
  const { initialPositions, ...core } = input
  if (!positionsMatter(input.rider)) return optimizeCore(core)
  const positions = input.rider.positions!
  const n = input.course.n
  let r: CoreResult
  let assignment: Uint8Array
  const guess = initialPositions?.length === n ? initialPositions : steadyGuess(input)
  if (guess) {
    assignment = guess
  } else {
    // the reference ride: the optimum with the rider's own CdA everywhere
    r = optimizeCore({ ...core, boundOnly: true })
    if (r.status !== 'optimal' || !r.simulation) return r
    const s = r.simulation.segments
    assignment = assignPositions(positions, s.speed, s.count, n)
    core.warmStart = r.powerW
  }
  // each round's runs stop at their optimum, whose ride reassigns the positions; only the last
  // round's runs go on to the rideable plan
  for (let round = 0; ; round++) {
    const dragFactor = positionDragFactor(input.rider, assignment, input.dragFactor)
    const roundInput = { ...core, dragFactor }
    const runs: KnownRuns = []
    const bound = optimizeCore({ ...roundInput, boundOnly: true }, runs)
    const last = bound.status !== 'optimal' || !bound.simulation || round === POSITION_ROUNDS - 1
    const next = last
      ? assignment
      : assignPositions(
          positions,
          bound.simulation!.segments.speed,
          bound.simulation!.segments.count,
          n,
          assignment,
        )
    if (last || sameAssignment(next, assignment)) {
      r = core.boundOnly || bound.status !== 'optimal' ? bound : optimizeCore(roundInput, runs)
      break
    }
    assignment = next
    core.warmStart = bound.powerW
  }
  if (r.simulation) r.simulation.segmentPosition = assignment
  if (r.plan?.simulation) r.plan.simulation.segmentPosition = assignment
  return { ...r, positions: { names: positionNames(input.rider), segment: assignment } }
}
