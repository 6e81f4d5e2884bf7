// The W′ DPs of the rideable plan's sections (decision 0002): the optimum over a given cut (`sectionDp`,
// the optimizer's own two-pass DP with the sections as its control segments), and the cut itself
// chosen jointly with the sections' powers (`dpCut`, `jointCut`).
//
// Where the sections of a rideable plan end, chosen jointly with their powers under W′:
// dynamic programming over the section ends with the W′ balance as state and, per section, one
// power from a grid — every section at least `minLength` long, made of whole control segments.
// Global over all such cuts (the other cuts of rideable.ts are read from one profile each), on the
// quasi-steady times of the W′ DP (dp.ts). The cut it returns is one more candidate: its sections'
// powers are then optimized again with inertia, and the levels read from them, like every cut.
import type { SimModel } from '../sim/model.ts'
import type { Controls } from './controls.ts'
import { dpWprimeTwoPass, tabulate } from './dp.ts'
import { fitToConstraint, scaledPlan } from './exact.ts'
import type { ReducedSetup, TargetPlan } from './rideable.ts'

export interface CutDpInput {
  /** quasi-steady model of the pieces `controls` groups (kinetic energy off) */
  qs: SimModel
  /** the same pieces with kinetic energy (unused by the quasi-steady tables, passed through) */
  ke: SimModel
  controls: Controls
  /** length of each control (m) */
  length: Float64Array
  /** stall floor of each control (W): a section never rides a control below it */
  floor: Float64Array
  /** the powers a section may ride (W) */
  powers: Float64Array
  cpW: number
  wPrimeJ: number
  minLength: number
  /** W′ levels of the state grid */
  wLevels: number
}

/**
 * The section of each control (0, 1, … in order) of the fastest plan by quasi-steady times whose
 * sections are all at least `minLength` long and which keeps W′ ≥ 0 at every control boundary,
 * with the DP's time; null when none exists on the grid.
 */
export function dpCut(
  o: CutDpInput,
): { section: Int32Array; level: Int32Array; count: number; timeS: number } | null {
  const { controls, length } = o
  const K = controls.count
  const T = o.powers.length
  const L = o.wLevels
  const w0 = o.wPrimeJ
  const dw = w0 / (L - 1)
  const powers = new Float64Array(K * T)
  for (let k = 0; k < K; k++) {
    for (let l = 0; l < T; l++) powers[k * T + l] = Math.max(o.powers[l]!, o.floor[k]!)
  }
  const settings = { cpW: o.cpW, wPrimeJ: w0, powers, perControl: T, levels: L }
  const tab = tabulate(o.qs, o.ke, controls, settings, null)
  const at = new Float64Array(K + 1)
  let longest = 0
  for (let k = 0; k < K; k++) {
    at[k + 1] = at[k]! + length[k]!
    longest = Math.max(longest, length[k]!)
  }
  // a section of 2·minLength + the longest control or more splits into two at the same power
  const window = 2 * o.minLength + longest
  const short = at[K]! < o.minLength - 1e-9 // the whole course is shorter than one section
  // value[k·L + q]: least time from control k on, a section starting there, with W′ = q·dw
  const value = new Float64Array((K + 1) * L).fill(Infinity)
  value.fill(0, K * L)
  const interp = (base: number, w: number): number => {
    if (w < -1e-6) return Infinity
    const x = Math.max(0, Math.min(L - 1, w / dw))
    const q = Math.min(L - 2, x | 0)
    const lo = value[base + q]!
    const hi = value[base + q + 1]!
    const f = x - q
    if (f === 0) return lo
    if (lo === Infinity || hi === Infinity) return f === 1 ? hi : Infinity
    return lo + f * (hi - lo)
  }
  // each (start k, power l, end e): time, W′ map W ↦ A·W + B over the section, and the least
  // entry W′ that keeps every boundary inside it at W′ ≥ 0
  const visit = (
    k: number,
    l: number,
    fn: (e: number, t: number, A: number, B: number, req: number) => void,
  ) => {
    let t = 0
    let A = 1
    let B = 0
    let req = 0
    for (let e = k + 1; e <= K; e++) {
      const c = (e - 1) * T + l
      t += tab.time[c]!
      if (t === Infinity) break
      const a = tab.alpha[c]!
      A *= a
      B = a * B + tab.beta[c]!
      if (B < 0) req = Math.max(req, -B / A)
      const len = at[e]! - at[k]!
      if (len > window) break
      if (len < o.minLength - 1e-9 && !(short && k === 0 && e === K)) continue
      fn(e, t, A, B, req)
    }
  }
  for (let k = K - 1; k >= 0; k--) {
    const row = k * L
    for (let l = 0; l < T; l++) {
      visit(k, l, (e, t, A, B, req) => {
        const next = e * L
        let q = Math.max(0, Math.ceil(req / dw - 1e-9))
        // the candidate is non-increasing in W′ and never below its value at full entry W′, and
        // so is the row: it can improve only the levels where the row is still above that value,
        // a prefix of its entry levels (found by bisection; 1e-9 s of margin for rounding)
        const least = t + interp(next, A * (L - 1) * dw + B) - 1e-9
        const end = firstAtMost(value, row + q, row + L, least) - row
        // the value function is non-increasing in W′ and W′ grows with q: the infeasible entry
        // levels are a prefix, and past it every interpolation is between finite values
        for (; q < end; q++) {
          const c = t + interp(next, A * q * dw + B)
          if (c === Infinity) continue
          if (c < value[row + q]!) value[row + q] = c
          q++
          break
        }
        for (; q < end; q++) {
          const x = Math.min(L - 1, (A * q * dw + B) / dw)
          const i = Math.min(L - 2, x | 0)
          const lo = value[next + i]!
          const f = x - i
          const c = t + (f === 0 ? lo : lo + f * (value[next + i + 1]! - lo))
          if (c < value[row + q]!) value[row + q] = c
        }
      })
    }
  }
  const section = new Int32Array(K)
  const level = new Int32Array(K)
  let w = w0
  let k = 0
  let total = 0
  let count = 0
  while (k < K) {
    const pick = { c: Infinity, e: -1, l: 0, w: 0, t: 0 }
    for (let l = 0; l < T; l++) {
      visit(k, l, (e, t, A, B, req) => {
        if (w < req - 1e-6) return
        const c = t + interp(e * L, A * w + B)
        if (c < pick.c) Object.assign(pick, { c, e, l, w: A * w + B, t })
      })
    }
    if (pick.e < 0) return null
    section.fill(count++, k, pick.e)
    level.fill(pick.l, k, pick.e)
    total += pick.t
    w = Math.min(w0, Math.max(0, pick.w))
    k = pick.e
  }
  return { section, level, count, timeS: total }
}

/**
 * The first index in [from, to) whose value is at most `bound` in a non-increasing run of values
 * (`to` when none is), by bisection.
 */
function firstAtMost(value: Float64Array, from: number, to: number, bound: number): number {
  let lo = from
  let hi = to
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (value[mid]! <= bound) hi = mid
    else lo = mid + 1
  }
  return lo
}

/**
 * The W′ optimum over contiguous sections (one power each) by the two-pass DP of the optimizer
 * (dp.ts), run with the sections as its control segments; made feasible on the fine course.
 */
export function sectionDp(s: ReducedSetup, sec: Int32Array, S: number): TargetPlan | null {
  if (s.spec.type !== 'w_prime_balance' || !s.qs) return null
  const ic = s.coarse.controls
  const of = new Int32Array(s.im.n)
  const first = new Int32Array(S + 1)
  let q = -1
  for (let i = 0; i < s.im.n; i++) {
    of[i] = sec[ic.of[i]!]!
    if (of[i] !== q) {
      q = of[i]!
      first[q] = i
    }
  }
  first[S] = s.im.n
  const sections: Controls = { count: S, of, first }
  const plans = dpWprimeTwoPass(
    s.qs,
    s.im,
    sections,
    s.spec.cpW,
    s.spec.wPrimeJ,
    s.lo,
    s.hi,
    [s.spec.cpW],
    s.v0,
  )
  let best: TargetPlan | null = null
  let simulations = 0
  const n = s.course.n
  for (const p of plans) {
    const fine = new Float64Array(n)
    for (let i = 0; i < n; i++) fine[i] = p.power[sec[s.controls.of[i]!]!]!
    const fit = fitToConstraint(s.j, fine, s.lo, s.hi, 2)
    if (!fit?.verdict.sim) continue
    simulations += fit.simulations
    if (!best || fit.verdict.sim.timeS < best.verdict.sim!.timeS) {
      best = {
        targetOf: sec,
        count: S,
        powerW: scaledPlan(s.j, fine, fit.alpha, s.lo, s.hi, new Float64Array(n)),
        verdict: fit.verdict,
        simulations: 0,
        gradients: 0,
        al: s.al,
      }
    }
  }
  if (best) best.simulations = simulations
  return best
}

/** Powers of the joint cut's grid, spread over the range of the per-segment optimum (plus CP). */
export const JOINT_CUT_POWERS = 64

/**
 * The cut of the W′ DP over section ends and powers jointly (sections-dp.ts), on a grid of
 * JOINT_CUT_POWERS + 1 powers over the range of the per-segment optimum's powers, plus CP, and
 * 200 W′ levels (as the fine pass of dp.ts); null without W′ or when the grid has no plan.
 * Measured (docs/engine/pacing.md's rider, Alpe d'Huez): 17 powers 74 %, 33 powers 76–77 %, 65 powers
 * 78–80 %, 129 powers 77 %; 100 W′ levels 78 %, 200 levels 79–80 % (a few tenths of a second
 * of chaos from the polish's starts make the shares move by ±1–2 %).
 */
export function jointCut(
  s: ReducedSetup,
  power: Float64Array,
  length: Float64Array,
  minLength: number,
): Int32Array | null {
  if (s.spec.type !== 'w_prime_balance' || !s.qs) return null
  let a = Infinity
  let b = -Infinity
  for (const p of power) {
    a = Math.min(a, p)
    b = Math.max(b, p)
  }
  a = Math.max(s.lo, a)
  b = Math.min(s.hi, b)
  const grid = [s.spec.cpW]
  for (let q = 0; q <= JOINT_CUT_POWERS; q++) grid.push(a + ((b - a) * q) / JOINT_CUT_POWERS)
  const r = dpCut({
    qs: s.qs,
    ke: s.im,
    controls: s.coarse.controls,
    length,
    floor: s.floorC,
    powers: Float64Array.from(grid),
    cpW: s.spec.cpW,
    wPrimeJ: s.spec.wPrimeJ,
    minLength,
    wLevels: 200,
  })
  return r ? r.section : null
}
