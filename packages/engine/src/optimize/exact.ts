// The exact judge of a plan: the product's own simulation (`simulatePrepared`), the constraint
// measured on its result exactly as `simulate` reports it (W′ balance of the chosen model, NP from
// 1-Hz resampling with the 30-s rolling mean, time-weighted average power, crank work), and the
// one-parameter families used to find the best constant power and to repair a plan.
import type { Course } from '../course/types.ts'
import { capacityVaries, durabilityFactor } from '../sim/capacity.ts'
import type { Rider, SimModel } from '../sim/model.ts'
import { normalizedPowerOfIntervals } from '../sim/metrics.ts'
import { forward, type ConstraintSpec, type ForwardBuffers } from './problem.ts'
import { boundaryOf, grow, steps, type Bracket } from './root.ts'
import {
  simulatePrepared,
  type Pacing,
  type SimulationOptions,
  type SimulationResult,
} from '../sim/simulate.ts'

/** The constraint as asked: under W′ the rider's CP and W′ come from the rider. */
export type PacingConstraint =
  { type: 'w_prime_balance' } | Exclude<ConstraintSpec, { type: 'w_prime_balance' }>

export interface Judge {
  model: SimModel
  course: Course
  rider: Rider
  options: SimulationOptions
  constraint: PacingConstraint
  /** start speed, as `simulatePrepared` derives it from the options */
  v0: number
  buffers: ForwardBuffers
  /** per-segment lowest power that keeps the rider moving (the repair never goes below it) */
  floor?: Float64Array | null
}

/**
 * The constraint and finish time of a plan from the optimizer's own forward pass: the same `step`
 * loop and the same formulas as `simulatePrepared` (W′ balance Skiba 2015, Σ P·t, 1-Hz NP), without
 * building the full result. Used by the searches; their final answer is confirmed by `judge`.
 */
export function quickJudge(
  j: Judge,
  p: Float64Array,
): { timeS: number; excess: number; finished: boolean } {
  const c = j.constraint
  const spec: ConstraintSpec =
    c.type === 'w_prime_balance'
      ? { type: 'w_prime_balance', cpW: j.rider.cpW!, wPrimeJ: j.rider.wPrimeJ! }
      : { type: 'work', workJ: 1 }
  const tot = forward(j.model, j.v0, p, spec, j.buffers)
  const finished = tot.stalledAt < 0 && Number.isFinite(tot.timeS)
  const n = finished ? j.model.n : Math.max(0, tot.stalledAt)
  let excess: number
  switch (c.type) {
    case 'w_prime_balance':
      excess = -tot.minWbal
      break
    case 'normalized_power':
      excess = finished ? normalizedPowerOfIntervals(j.buffers.pa, j.buffers.t, n) - c.powerW : 0
      break
    case 'average_power':
      excess = finished ? tot.workJ / tot.timeS - c.powerW : 0
      break
    case 'work':
      excess = tot.workJ - c.workJ
      break
  }
  return { timeS: tot.timeS, excess, finished }
}

/** True when the quick judge can stand in for `simulate` during searches (same W′ model). */
export function quickIsExact(j: Judge): boolean {
  return (j.options.wPrimeModel ?? 'skiba2015') === 'skiba2015'
}

export interface Verdict {
  /** null when the simulation could not produce a result (the rider came to a standstill) */
  sim: SimulationResult | null
  finished: boolean
  /** constraint value minus its limit, in the constraint's unit; ≤ 0 is feasible */
  excess: number
  feasible: boolean
}

/** Simulates a pacing and measures the constraint on the result. */
export function judge(j: Judge, pacing: Pacing): Verdict {
  let sim: SimulationResult
  try {
    sim = simulatePrepared(j.model, j.course, j.rider, pacing, j.options)
  } catch (e) {
    // A ride that creeps to a standstill (e.g. zero power from a standing start) can end with
    // an unbounded time that the 1-Hz resampling of NP refuses: for the optimizer that plan
    // simply does not finish.
    if (e instanceof RangeError) return { sim: null, finished: false, excess: 0, feasible: false }
    throw e
  }
  const excess = constraintExcess(j, sim)
  const finished = sim.status === 'ok'
  return { sim, finished, excess, feasible: finished && excess <= 0 }
}

export function constraintExcess(j: Judge, sim: SimulationResult): number {
  const c = j.constraint
  switch (c.type) {
    case 'w_prime_balance':
      return -(sim.minWPrimeBalanceJ ?? 0)
    case 'normalized_power':
      return sim.normalizedPowerW - c.powerW
    case 'average_power':
      return sim.averagePowerW - c.powerW
    case 'work':
      return sim.workJ - c.workJ
  }
}

const capacityRefs = new WeakMap<Float64Array, Float64Array>()

/**
 * Where CP varies along the ride (sim/capacity.ts), the repair family scales the power above each
 * segment's CP as the base plan meets it (durability on the base plan's own work): at α ≤ 1 the
 * plan does less work, so that CP is never above the one ridden. Null where CP is constant.
 */
function capacityRef(j: Judge, base: Float64Array): Float64Array | null {
  if (j.constraint.type !== 'w_prime_balance' || !capacityVaries(j.model)) return null
  const known = capacityRefs.get(base)
  if (known) return known
  const m = j.model
  const cpW = j.rider.cpW ?? 0
  const spec: ConstraintSpec = { type: 'w_prime_balance', cpW, wPrimeJ: j.rider.wPrimeJ ?? 1 }
  const tot = forward(m, j.v0, base, spec, j.buffers)
  const ref = new Float64Array(m.n)
  let work = 0
  for (let i = 0; i < m.n; i++) {
    ref[i] = cpW * durabilityFactor(m.durability, work) * (m.capacity ? m.capacity[i]! : 1)
    if (tot.stalledAt < 0 || i < tot.stalledAt) work += j.buffers.pa[i]! * j.buffers.t[i]!
  }
  capacityRefs.set(base, ref)
  return ref
}

/** Powers of the repair family: the excess above CP (W′) or the whole power (others) scaled by α. */
export function scaledPlan(
  j: Judge,
  base: Float64Array,
  alpha: number,
  lo: number,
  hi: number,
  out: Float64Array,
): Float64Array {
  const cp0 = j.rider.cpW ?? 0
  const ref = capacityRef(j, base)
  for (let i = 0; i < base.length; i++) {
    const p = base[i]!
    const cp = ref ? ref[i]! : cp0
    let q =
      j.constraint.type === 'w_prime_balance' ? (p > cp ? cp + alpha * (p - cp) : p) : alpha * p
    if (q < lo) q = lo
    if (j.floor && q < j.floor[i]!) q = j.floor[i]!
    if (q > hi) q = hi
    out[i] = q
  }
  return out
}

export interface FitResult {
  alpha: number
  verdict: Verdict
  simulations: number
}

type Probe = (p: Float64Array) => { feasible: boolean; finished: boolean; excess: number }

export function prober(j: Judge): Probe {
  if (quickIsExact(j)) {
    return (p) => {
      const q = quickJudge(j, p)
      return { feasible: q.finished && q.excess <= 0, finished: q.finished, excess: q.excess }
    }
  }
  return (p) => judge(j, { type: 'plan', powerW: p })
}

/**
 * The largest α in [0, alphaMax] whose plan is feasible, by bracketing then bisection to a
 * relative tolerance (a fixed number of steps: deterministic). The family is monotone in the
 * constraint: more α, more power above CP (or more power), more W′/work/NP/mean power used.
 * The answer is confirmed by the full simulation. Returns null when no feasible α was found.
 * `start`: where the answer is expected (a similar problem's α); the bracket is then grown from
 * there in steps of 0.2 % of it, ×4 each time, instead of from 1 in fixed steps.
 */
export function fitToConstraint(
  j: Judge,
  base: Float64Array,
  lo: number,
  hi: number,
  alphaMax: number,
  start?: number,
): FitResult | null {
  const buf = new Float64Array(base.length)
  const probe = prober(j)
  let simulations = 0
  const at = (a: number) => {
    simulations++
    return probe(scaledPlan(j, base, a, lo, hi, buf))
  }
  // e(α): the constraint excess, +∞ when the ride does not finish (never "good")
  const e = (a: number): number => {
    const v = at(a)
    return v.finished ? v.excess : v.excess > 0 ? v.excess : Infinity
  }
  const bracket =
    start !== undefined && start > 0 && start < alphaMax
      ? bracketFrom(e, start, alphaMax)
      : bracketFromOne(e, alphaMax)
  let { good } = bracket
  const { eGood, bad, eBad } = bracket
  if (good < 0) return null
  if (bad > good) good = boundaryOf(e, good, eGood, bad, eBad, 1e-5 * Math.max(1, good))
  // confirm with the full simulation; a last rounding difference is absorbed by tiny steps down
  for (let k = 0; k < 8; k++) {
    const v = judge(j, { type: 'plan', powerW: scaledPlan(j, base, good, lo, hi, buf) })
    simulations++
    if (v.feasible) return { alpha: good, verdict: v, simulations }
    good *= 1 - 1e-6 * 4 ** k
  }
  return null
}

/** The bracket from α = 1 in fixed steps: up to alphaMax, or down to 0. */
function bracketFromOne(e: (a: number) => number, alphaMax: number): Bracket {
  const up = [1.01, 1.03, 1.1, 1.3, alphaMax]
  const over = up.findIndex((a) => a > alphaMax)
  return grow(e, 1, over < 0 ? up : up.slice(0, over), [0.97, 0.9, 0.75, 0.5, 0.25, 0])
}

/** The bracket grown from an expected α: steps of 0.2 % of it, four times longer each time. */
function bracketFrom(e: (a: number) => number, start: number, alphaMax: number): Bracket {
  return grow(e, start, steps(start, alphaMax, 2e-3 * start), steps(start, 0, 2e-3 * start))
}

export interface Baseline {
  powerW: number
  verdict: Verdict
  simulations: number
}

/** Largest constant power in [lo, hi] that does not break the constraint (root search). */
export function bestConstant(j: Judge, lo: number, hi: number): Baseline {
  let simulations = 0
  const n = j.model.n
  const p = new Float64Array(n)
  const exact = quickIsExact(j)
  // A stall is not a constraint excess: more power can only help it, so it counts as "not over".
  const excess = (P: number): number => {
    simulations++
    if (exact) return quickJudge(j, p.fill(P)).excess
    return judge(j, { type: 'constant', powerW: P }).excess
  }
  let a = lo
  const eHi = excess(hi)
  if (eHi <= 0) a = hi
  else {
    // W′: at or below CP no W′ is spent (the excess is flat there, which slows the root search
    // down), so the bracket starts at CP when the ride gets through at CP
    const cp = j.constraint.type === 'w_prime_balance' ? (j.rider.cpW ?? lo) : lo
    const eCp = cp > lo && cp < hi ? excess(cp) : Infinity
    const start = eCp <= 0 ? cp : lo
    const eLo = eCp <= 0 ? eCp : excess(lo)
    if (eLo > 0) a = -1
    else a = boundaryOf(excess, start, eLo, hi, eHi, 1e-3)
  }
  if (a < 0) {
    simulations++
    return { powerW: lo, verdict: judge(j, { type: 'constant', powerW: lo }), simulations }
  }
  // confirm with the full simulation (rounding between the two loops is absorbed by tiny steps)
  for (let k = 0; ; k++) {
    simulations++
    const v = judge(j, { type: 'constant', powerW: a })
    if (v.excess <= 0 || k >= 8 || a <= lo) return { powerW: a, verdict: v, simulations }
    a = Math.max(lo, a - 1e-6 * 4 ** k)
  }
}
