// A target time instead of a target power: the least-effort plan that finishes in a given time.
//
// Least effort is the lowest normalized power (then the least work): the plan is the fastest plan
// under a normalized-power limit X, with X searched so that the plan's time (the rideable plan, as
// ridden through the simulation) equals the target. The time falls as X rises, so a bracketed
// secant search (regula falsi, Illinois variant) finds X; by duality the fastest plan at NP X is
// the plan of least NP reaching its time.
//
// The target must be reachable: the fastest legal plan is the W′-balance plan of the rider's CP and
// W′. A target faster than it is refused with that time. Near it, a plan of the NP search may spend
// more than W′ on a climb; then the W′-balance plan of a lowered CP (searched the same way) is used
// instead, which is legal by construction and reaches the target too.
import { simulate } from '../sim/simulate.ts'
import { EngineInputError } from '../sim/validate.ts'
import type { PacingConstraint } from './exact.ts'
import { optimizePacing, type PacingResult, type PositionedPacingInput } from './positions.ts'

/** How the target was met, reported with the plan. */
export interface TargetTimeOutcome {
  targetS: number
  /** false: even the fastest legal plan is slower than the target */
  reached: boolean
  /** the fastest legal plan's time (the W′-balance plan at the rider's CP and W′) */
  fastestS: number
  /** the plan's time as ridden (the rideable plan) */
  planS: number
  /** the limit that made the plan: an NP cap, or the W′ balance at a lowered CP */
  basis: 'normalized_power' | 'w_prime_balance'
  /** the NP cap (W) or the lowered CP (W) found by the search */
  levelW: number
  /** plans optimized by the search */
  evaluations: number
}

export type TargetTimeResult = PacingResult & { targetTime: TargetTimeOutcome }

/** The plan's time to the target: within this fraction the search stops (the issue asks 0.5 %). */
export const TARGET_TIME_TOLERANCE = 0.001
const MAX_EVALUATIONS = 14

/** The time a rider gets: the rideable plan's, else the per-segment optimum's. */
const riddenTime = (r: PacingResult): number =>
  r.status !== 'optimal' ? Infinity : (r.plan?.timeS ?? r.timeS)

const riddenMinWbal = (r: PacingResult): number | null => {
  const sim = r.plan?.simulation ?? r.simulation
  return sim?.minWPrimeBalanceJ ?? null
}

/** h:mm:ss */
export function clock(s: number): string {
  const t = Math.round(s)
  const h = Math.floor(t / 3600)
  const m = Math.floor((t % 3600) / 60)
  const sec = t % 60
  return `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}`
}

interface Probe {
  level: number
  time: number
  result: PacingResult
}

/**
 * Root of time(level) = target over [lo, hi] where time falls as level rises (Illinois regula
 * falsi on the bracket): the probe whose time is within tolerance, else the closest one finishing
 * no later than the target.
 */
function searchLevel(
  run: (level: number) => PacingResult,
  lo: Probe,
  hi: Probe,
  targetS: number,
  count: { n: number },
): Probe {
  let a = lo
  let b = hi
  let fa = a.time - targetS
  let fb = b.time - targetS
  let side = 0
  let best = Math.abs(fa) < Math.abs(fb) ? a : b
  while (
    count.n < MAX_EVALUATIONS &&
    Math.abs(best.time - targetS) > TARGET_TIME_TOLERANCE * targetS
  ) {
    const level = Number.isFinite(fa)
      ? b.level - (fb * (b.level - a.level)) / (fb - fa)
      : (a.level + b.level) / 2
    const mid = Math.min(
      Math.max(level, a.level + 1e-3 * (b.level - a.level)),
      b.level - 1e-3 * (b.level - a.level),
    )
    const result = run(mid)
    count.n++
    const p = { level: mid, time: riddenTime(result), result }
    const fp = p.time - targetS
    if (Math.abs(fp) < Math.abs(best.time - targetS)) best = p
    if (fp > 0) {
      a = p
      fa = fp
      if (side === -1) fb /= 2
      side = -1
    } else {
      b = p
      fb = fp
      if (side === 1) fa /= 2
      side = 1
    }
  }
  return best
}

function withConstraint(
  input: PositionedPacingInput,
  constraint: PacingConstraint,
  cpW?: number,
): PositionedPacingInput {
  return {
    ...input,
    rider: cpW === undefined ? input.rider : { ...input.rider, cpW },
    pacing: { ...input.pacing, constraint },
  }
}

/**
 * The least-effort plan finishing in `targetS` seconds. Needs the rider's CP and W′ (the fastest
 * legal plan is the W′-balance plan). Not reachable: the fastest plan, status 'infeasible', with
 * the reason "not reachable: the fastest legal plan is h:mm:ss".
 */
export function optimizeTargetTime(
  input: PositionedPacingInput,
  targetS: number,
): TargetTimeResult {
  const { cpW, wPrimeJ } = input.rider
  if (cpW === undefined || wPrimeJ === undefined) {
    throw new EngineInputError(
      'constraint.time_s',
      'a target time needs rider.cp_w and rider.w_prime_j (the fastest legal plan spends at most W′ above CP)',
    )
  }
  if (!(targetS > 0 && targetS < 30 * 86400)) {
    throw new EngineInputError('constraint.time_s', `expected 0 < time_s < 2592000, got ${targetS}`)
  }
  const count = { n: 1 }
  const fastest = optimizePacing(withConstraint(input, { type: 'w_prime_balance' }))
  const fastestS = riddenTime(fastest)
  const outcome = (
    r: PacingResult,
    reached: boolean,
    basis: TargetTimeOutcome['basis'],
    levelW: number,
  ) => ({
    targetS,
    reached,
    fastestS,
    planS: riddenTime(r),
    basis,
    levelW,
    evaluations: count.n,
  })
  if (!Number.isFinite(fastestS) || fastestS > targetS * (1 + TARGET_TIME_TOLERANCE)) {
    const why = Number.isFinite(fastestS)
      ? `not reachable: the fastest legal plan is ${clock(fastestS)}`
      : `not reachable: no plan within W′ finishes (${fastest.reason ?? 'infeasible'})`
    return {
      ...fastest,
      status: 'infeasible',
      reason: why,
      targetTime: outcome(fastest, false, 'w_prime_balance', cpW),
    }
  }
  const npRun = (x: number) =>
    optimizePacing(withConstraint(input, { type: 'normalized_power', powerW: x }))
  // bracket: the fastest plan's NP reaches the target; a low cap does not
  const fastSim = fastest.plan?.simulation ?? fastest.simulation
  const hiLevel = fastSim?.normalizedPowerW ?? cpW
  const hi: Probe = { level: hiLevel, time: fastestS, result: fastest }
  let loLevel = hiLevel * Math.min(0.95, (fastestS / targetS) ** 1.5)
  let lo: Probe = { level: loLevel, time: riddenTime(npRun(loLevel)), result: fastest }
  count.n++
  while (lo.time < targetS && count.n < MAX_EVALUATIONS) {
    loLevel *= 0.7
    const r = npRun(loLevel)
    count.n++
    lo = { level: loLevel, time: riddenTime(r), result: r }
  }
  const found = searchLevel(npRun, lo, hi, targetS, count)
  const minW = riddenMinWbal(found.result)
  if (found.result !== fastest && minW !== null && minW >= -1) {
    const reason = `least effort for ${clock(targetS)}: normalized power at most ${found.level.toFixed(0)} W`
    return {
      ...found.result,
      reason: found.result.plan?.reason ?? reason,
      targetTime: outcome(found.result, true, 'normalized_power', found.level),
    }
  }
  // the NP plan spends more than W′: the W′-balance plan of a lowered CP
  const cpRun = (cp: number) =>
    optimizePacing(withConstraint(input, { type: 'w_prime_balance' }, cp))
  const cpLo = cpW * 0.5
  const low: Probe = { level: cpLo, time: riddenTime(cpRun(cpLo)), result: fastest }
  count.n++
  const byCp = searchLevel(
    cpRun,
    low,
    { level: cpW, time: fastestS, result: fastest },
    targetS,
    count,
  )
  // its rides re-simulated with the rider's own CP: the W′ balance the rider will see
  const r = byCp.result
  const ride = (powerW: Float64Array) =>
    simulate({
      course: input.course,
      rider: input.rider,
      environment: input.environment,
      options: input.options,
      pacing: { type: 'plan', powerW },
    })
  const plan = r.plan?.simulation ? { ...r.plan, simulation: ride(r.plan.powerW) } : r.plan
  const simulation = r.simulation ? ride(r.powerW) : r.simulation
  const reason = `least effort for ${clock(targetS)}: the W′-balance plan of CP ${byCp.level.toFixed(0)} W`
  return {
    ...r,
    plan,
    simulation,
    reason: r.plan?.reason ?? reason,
    targetTime: outcome(r, true, 'w_prime_balance', byCp.level),
  }
}
