// Global stage of the W′-constrained optimizer: dynamic programming over control segments, with the
// W′ balance as the only state.
//
// Why: the W′-constrained optimum rides many stretches at exactly CP with W′ balance at zero, a
// degenerate arc of active state constraints where quasi-Newton methods crawl (measured: 0.14 %
// short of the optimum after 7 000 gradient evaluations on a 40 km course). Over a one-dimensional
// state DP is global and cheap: O(controls × W′ levels × power levels), linear in course length.
// Segment times come from the simulation's own step in quasi-steady mode (the same model with
// kinetic energy off); the adjoint polish that follows puts kinetic energy back in.
import { durabilityAt } from '../sim/capacity.ts'
import type { SimModel } from '../sim/model.ts'
import { createStepResult, step } from '../sim/step.ts'
import type { Controls } from './controls.ts'

export interface DpSettings {
  cpW: number
  wPrimeJ: number
  /** candidate powers (W) of each control: row k holds its `perControl` candidates */
  powers: Float64Array
  perControl: number
  /** number of tabulated W′ levels from 0 to W′ */
  levels: number
}

export interface DpPlan {
  /** power per control (W) */
  power: Float64Array
  /** quasi-steady finish time of the plan (s) */
  timeS: number
  /** marginal value of W′ at the start (s per J): −∂(remaining time)/∂W at W = W′ */
  wPrimeValue: number
}

/**
 * Tables of each control at each candidate power: time, and the W′ map over the control as an
 * affine map W ↦ α·W + β (a composition of Skiba 2015 steps, each affine in W).
 */
export interface Tables {
  time: Float64Array
  alpha: Float64Array
  beta: Float64Array
}

export function tabulate(
  qs: SimModel,
  ke: SimModel,
  controls: Controls,
  s: DpSettings,
  entry: Float64Array | null,
): Tables {
  const K = controls.count
  const nP = s.perControl
  const time = new Float64Array(K * nP)
  const alpha = new Float64Array(K * nP)
  const beta = new Float64Array(K * nP)
  const out = createStepResult()
  const { cpW: cp, wPrimeJ: w0 } = s
  // each piece's Newton solve starts from its mean speed at the previous candidate power (the
  // powers are close): fewer iterations, the same roots
  let most = 0
  for (let k = 0; k < K; k++) most = Math.max(most, controls.first[k + 1]! - controls.first[k]!)
  const seed = new Float64Array(most)
  for (let k = 0; k < K; k++) {
    const i0 = controls.first[k]!
    const i1 = controls.first[k + 1]!
    for (let j = 0; j < nP; j++) {
      const P = s.powers[k * nP + j]!
      let t = 0
      let a = 1
      let b = 0
      // without entry speeds: quasi-steady (each segment at its steady speed); with them (from
      // riding a previous plan): the control ridden with the full model from its entry speed
      let v = entry ? entry[k]! : 0
      const m = entry ? ke : qs
      for (let i = i0; i < i1; i++) {
        step(m, i, v, P, out, j > 0 ? seed[i - i0]! : 0)
        if (!Number.isFinite(out.t)) {
          t = Infinity
          seed.fill(0, i - i0, i1 - i0)
          break
        }
        const pa = out.power
        v = out.v1
        seed[i - i0] = out.vMean
        t += out.t
        // CP along the ride (sim/capacity.ts): heat, altitude and the frozen durability
        const cpI =
          m.capacity || m.workBefore ? cp * durabilityAt(m, i, 0) * (m.capacity?.[i] ?? 1) : cp
        if (pa >= cpI) b -= (pa - cpI) * out.t
        else {
          const e = Math.exp((-(cpI - pa) * out.t) / w0)
          a *= e
          b = e * b + w0 * (1 - e)
        }
      }
      time[k * nP + j] = t
      alpha[k * nP + j] = a
      beta[k * nP + j] = b
    }
  }
  return { time, alpha, beta }
}

/** Minimum-time plan with W′ balance ≥ 0 at every control boundary, or null if none exists. */
export function dpWprime(
  qs: SimModel,
  ke: SimModel,
  controls: Controls,
  s: DpSettings,
  entry: Float64Array | null = null,
): DpPlan | null {
  const K = controls.count
  const nP = s.perControl
  const L = s.levels
  const w0 = s.wPrimeJ
  const dw = w0 / (L - 1)
  const tab = tabulate(qs, ke, controls, s, entry)
  const value = new Float64Array((K + 1) * L) // terminal row stays 0
  const interp = (row: number, w: number): number => {
    if (w < 0) return w > -1e-9 ? value[row]! : Infinity
    const x = Math.min(L - 1, w / dw)
    const l = Math.min(L - 2, Math.floor(x))
    const f = x - l
    const lo = value[row + l]!
    const hi = value[row + l + 1]!
    if (f === 0) return lo
    if (lo === Infinity || hi === Infinity) return Infinity
    return lo + f * (hi - lo)
  }
  let bestArg = -1
  const best = (k: number, w: number): number => {
    const row = (k + 1) * L
    let m = Infinity
    let arg = -1
    for (let j = 0; j < nP; j++) {
      const t = tab.time[k * nP + j]!
      if (t === Infinity) continue
      const c = t + interp(row, tab.alpha[k * nP + j]! * w + tab.beta[k * nP + j]!)
      if (c < m) {
        m = c
        arg = j
      }
    }
    bestArg = arg
    return m
  }
  // backward sweep, power-major so the inner loop over W′ levels is a straight linear pass.
  // The value function is non-increasing in W (more W′ never costs time: true of the terminal
  // row and kept by every step, as W ↦ a·W + b is increasing), so its infinite (infeasible)
  // levels are a prefix of each row: each (control, power) pair skips the levels that land in
  // that prefix up front and the loop itself needs no feasibility test.
  const time = tab.time
  const alpha = tab.alpha
  const beta = tab.beta
  const last = L - 1
  const eps = 1e-9 / dw // W⁺ within 1e-9 J below zero counts as zero (rounding)
  for (let k = K - 1; k >= 0; k--) {
    const row = k * L
    const next = (k + 1) * L
    value.fill(Infinity, row, row + L)
    let firstFinite = 0
    while (firstFinite < L && value[next + firstFinite] === Infinity) firstFinite++
    if (firstFinite === L) return null
    const vTop = value[next + last]!
    for (let j = 0; j < nP; j++) {
      const t = time[k * nP + j]!
      if (t === Infinity) continue
      const a = alpha[k * nP + j]! // W⁺ = a·W + b, a ∈ (0, 1]
      const bl = beta[k * nP + j]! / dw // in levels: x⁺ = a·l + bl
      // first level whose successor lands at or above the first finite level (allowing eps)
      const need = firstFinite === 0 ? -eps : firstFinite
      let l = Math.max(0, Math.ceil((need - bl) / a))
      while (l > 0 && a * (l - 1) + bl >= need) l--
      while (l < L && a * l + bl < need) l++
      for (; l < L; l++) {
        const x = a * l + bl
        let v: number
        if (x >= last) v = vTop
        else if (x <= 0) v = value[next]!
        else {
          const q = x | 0
          const lo = value[next + q]!
          v = lo + (x - q) * (value[next + q + 1]! - lo)
        }
        const c = t + v
        if (c < value[row + l]!) value[row + l] = c
      }
    }
  }
  const power = new Float64Array(K)
  let w = w0
  let total = 0
  for (let k = 0; k < K; k++) {
    if (best(k, w) === Infinity) return null
    const j = bestArg
    power[k] = s.powers[k * nP + j]!
    total += tab.time[k * nP + j]!
    w = tab.alpha[k * nP + j]! * w + tab.beta[k * nP + j]!
  }
  // slope of the value function at full W′, over the top tenth of the levels (smoother)
  const top = Math.max(1, Math.floor(L / 10))
  const v1 = value[L - 1]!
  const v0 = value[L - 1 - top]!
  const wPrimeValue = Number.isFinite(v0) ? Math.max(0, (v0 - v1) / (top * dw)) : 0
  return { power, timeS: total, wPrimeValue }
}

/**
 * A coarse uniform power grid (plus exact extras such as CP) over the whole range, then a fine
 * grid around each control's coarse choice, quasi-steady and with inertia. Each pass is a full
 * DP; returns the candidate plans (quasi-steady first), none if no plan keeps W′ ≥ 0.
 */
export function dpWprimeTwoPass(
  qs: SimModel,
  ke: SimModel,
  controls: Controls,
  cpW: number,
  wPrimeJ: number,
  lo: number,
  hi: number,
  extra: number[],
  v0: number,
): DpPlan[] {
  const K = controls.count
  const coarse: number[] = []
  const nC = 40
  for (let q = 0; q <= nC; q++) coarse.push(lo + ((hi - lo) * q) / nC)
  for (const e of extra) if (e > lo && e < hi && !coarse.includes(e)) coarse.push(e)
  coarse.sort((a, b) => a - b)
  const nP1 = coarse.length
  const p1 = new Float64Array(K * nP1)
  for (let k = 0; k < K; k++) p1.set(coarse, k * nP1)
  const first = dpWprime(qs, ke, controls, {
    cpW,
    wPrimeJ,
    powers: p1,
    perControl: nP1,
    levels: 100,
  })
  if (!first) return []
  // fine pass: ±1.5 coarse steps around the first choice in 16 steps, plus CP
  const span = (1.5 * (hi - lo)) / nC
  const nF = 17
  const nP2 = nF + 1
  const p2 = new Float64Array(K * nP2)
  for (let k = 0; k < K; k++) {
    const c = first.power[k]!
    const a = Math.max(lo, c - span)
    const b = Math.min(hi, c + span)
    for (let q = 0; q < nF; q++) p2[k * nP2 + q] = a + ((b - a) * q) / (nF - 1)
    p2[k * nP2 + nF] = cpW >= lo && cpW <= hi ? cpW : c
  }
  const second = { cpW, wPrimeJ, powers: p2, perControl: nP2, levels: 200 }
  const quasi = dpWprime(qs, ke, controls, second) ?? first
  // the same fine pass with inertia: each control entered at its speed when the quasi-steady
  // plan is ridden with the full model (corners, braking, accelerations)
  const entry = new Float64Array(K)
  const out = createStepResult()
  let v = v0
  for (let k = 0; k < K; k++) {
    entry[k] = v
    for (let i = controls.first[k]!; i < controls.first[k + 1]!; i++) {
      step(ke, i, v, quasi.power[k]!, out)
      v = Number.isFinite(out.t) ? out.v1 : 0
    }
  }
  const inertial = dpWprime(qs, ke, controls, second, entry)
  return inertial ? [quasi, inertial] : [quasi]
}
