// The pacing problem as a chain of per-segment maps, its forward pass and its exact gradient by a
// reverse (adjoint) sweep.
//
// Fine segment i maps (vᵢ, Wᵢ, Pᵢ) → (vᵢ₊₁, Wᵢ₊₁, tᵢ): the speed map is the simulation's own
// `step` (sim/step.ts, with its analytic partials), the W′ map is Skiba 2015 (`wbal.ts`). The
// power that counts for W′, work and NP is the power the step actually applied (less than asked
// where the rider must ease off for a corner). Every fine segment belongs to
// one control segment whose power is the decision variable. The objective is the finish time
// plus augmented-Lagrangian (PHR) terms of the constraint; its gradient costs one forward pass
// that records the local Jacobians and one backward pass, whatever the number of variables.
import type { SimModel } from '../sim/model.ts'
import { capacityVaries, durabilityAt } from '../sim/capacity.ts'
import { createStepResult, step } from '../sim/step.ts'
import { skibaSplitStep, skibaStep, type SplitPartials, type WbalPartials } from './wbal.ts'

export type ConstraintSpec =
  | { type: 'w_prime_balance'; cpW: number; wPrimeJ: number }
  | { type: 'normalized_power'; powerW: number }
  | { type: 'average_power'; powerW: number }
  | { type: 'work'; workJ: number }

/** Totals of one forward pass. */
export interface Totals {
  timeS: number
  /** Σ P·t (J) */
  workJ: number
  /** Σ P⁴·t, for the NP surrogate */
  quartic: number
  /** lowest W′ balance over the boundaries (J); NaN without a W′ constraint */
  minWbal: number
  /** segment where the rider stalled, −1 when the ride finished */
  stalledAt: number
}

export interface ForwardBuffers {
  v: Float64Array
  t: Float64Array
  w: Float64Array
  /** applied power */
  pa: Float64Array
  dvdv: Float64Array
  dvdp: Float64Array
  dtdv: Float64Array
  dtdp: Float64Array
  dadv: Float64Array
  dadp: Float64Array
  dwdw: Float64Array
  /** ∂W⁺/∂(applied power), or ∂W⁺/∂a on split segments */
  dwdp: Float64Array
  /** ∂W⁺/∂b on split segments */
  dwdb: Float64Array
  dwdt: Float64Array
  /** 1 where the split W′ map (a, b) was used, 0 where the exact map of the applied power was */
  split: Uint8Array
  /** mean speed of each segment in the last pass: where the next pass's Newton solves start
   * (successive plans of the searches are close, so this saves about one iteration in four) */
  u: Float64Array
}

export function forwardBuffers(n: number): ForwardBuffers {
  const f = () => new Float64Array(n + 1)
  return {
    v: f(),
    t: f(),
    w: f(),
    pa: f(),
    dvdv: f(),
    dvdp: f(),
    dtdv: f(),
    dtdp: f(),
    dadv: f(),
    dadp: f(),
    dwdw: f(),
    dwdp: f(),
    dwdb: f(),
    dwdt: f(),
    split: new Uint8Array(n + 1),
    u: f(),
  }
}

/** Fine-segment power array from control powers. */
export function expandPowers(
  control: Int32Array,
  x: Float64Array,
  out: Float64Array,
): Float64Array {
  for (let i = 0; i < control.length; i++) out[i] = x[control[i]!]!
  return out
}

/**
 * Forward pass at fine-segment powers p from entry speed v0; records the local Jacobians in b for
 * the adjoint sweep. Stops early (timeS = Infinity) when the rider cannot get through.
 */
export function forward(
  model: SimModel,
  v0: number,
  p: Float64Array,
  c: ConstraintSpec,
  b: ForwardBuffers,
  band = 0,
  split: Float64Array | null = null,
): Totals {
  const n = model.n
  const out = createStepResult()
  const wb: WbalPartials = { w: 0, dW: 0, dP: 0, dT: 0 }
  const sp: SplitPartials = { w: 0, dW: 0, dA: 0, dB: 0, dT: 0 }
  const hasW = c.type === 'w_prime_balance'
  // CP and W′ along the ride (sim/capacity.ts): per segment, durability on the frozen work when
  // the model has one (the searches: the gradient below is then exact), else on the work done
  const varies = hasW && capacityVaries(model)
  let v = v0
  let w = hasW ? c.wPrimeJ : 0
  let wCap = w
  let cpI = hasW ? c.cpW : 0
  let minW = hasW ? w : NaN
  let T = 0
  let A = 0
  let Q = 0
  b.v[0] = v
  b.w[0] = w
  const cp0 = hasW ? c.cpW : 0
  const w0 = hasW ? c.wPrimeJ : 0
  for (let i = 0; i < n; i++) {
    if (varies) {
      const g = durabilityAt(model, i, A)
      cpI = cp0 * g * (model.capacity ? model.capacity[i]! : 1)
      const cap = w0 * g
      w -= wCap - cap
      wCap = cap
    }
    step(model, i, v, p[i]!, out, b.u[i]!)
    if (!Number.isFinite(out.t)) {
      return { timeS: Infinity, workJ: A, quartic: Q, minWbal: minW, stalledAt: i }
    }
    b.u[i] = out.vMean
    const t = out.t
    const pa = out.power
    T += t
    A += pa * t
    const p2 = pa * pa
    Q += p2 * p2 * t
    b.t[i] = t
    b.pa[i] = pa
    b.dvdv[i] = out.dv1dv0
    b.dvdp[i] = out.dv1dP
    b.dtdv[i] = out.dtdv0
    b.dtdp[i] = out.dtdP
    b.dadv[i] = out.dPdv0
    b.dadp[i] = out.dPdP
    if (hasW) {
      if (split && out.dPdP === 1 && out.dPdv0 === 0) {
        // split variables: split[2i] = a (above CP), split[2i + 1] = b (below CP)
        skibaSplitStep(w, split[2 * i]!, split[2 * i + 1]!, t, wCap, sp)
        w = sp.w
        b.split[i] = 1
        b.dwdw[i] = sp.dW
        b.dwdp[i] = sp.dA
        b.dwdb[i] = sp.dB
        b.dwdt[i] = sp.dT
      } else {
        // the step eased off (corner): W′ follows the applied power, exact model
        skibaStep(w, pa, t, cpI, wCap, band, wb)
        w = wb.w
        b.split[i] = 0
        b.dwdw[i] = wb.dW
        b.dwdp[i] = wb.dP
        b.dwdb[i] = 0
        b.dwdt[i] = wb.dT
      }
      if (w < minW) minW = w
    }
    v = out.v1
    b.v[i + 1] = v
    b.w[i + 1] = w
  }
  return { timeS: T, workJ: A, quartic: Q, minWbal: minW, stalledAt: -1 }
}

/** PHR augmented-Lagrangian term for g ≤ 0: value and derivative with respect to g. */
export function phr(g: number, lambda: number, mu: number): { value: number; slope: number } {
  const s = lambda + mu * g
  if (s <= 0) return { value: (-lambda * lambda) / (2 * mu), slope: 0 }
  return { value: (s * s - lambda * lambda) / (2 * mu), slope: s }
}

/** Scalar (aggregate) constraint g(T, A, Q) ≤ 0, normalized to be O(1), with its partials. */
export function aggregateConstraint(
  c: ConstraintSpec,
  tot: Totals,
  timeScale: number,
): { g: number; dT: number; dA: number; dQ: number } {
  switch (c.type) {
    case 'average_power': {
      // Σ P·t ≤ P̄·Σ t  (time-weighted mean power)
      const s = c.powerW * timeScale
      return { g: (tot.workJ - c.powerW * tot.timeS) / s, dT: -c.powerW / s, dA: 1 / s, dQ: 0 }
    }
    case 'work':
      return { g: (tot.workJ - c.workJ) / c.workJ, dT: 0, dA: 1 / c.workJ, dQ: 0 }
    case 'normalized_power': {
      // smooth surrogate: mean of P⁴ over time ≤ NP⁴ (the 30-s rolling mean is applied by the
      // exact check at the end; the surrogate is an upper bound on NP for segment-wise powers)
      const np4 = c.powerW ** 4
      const s = np4 * timeScale
      return { g: (tot.quartic - np4 * tot.timeS) / s, dT: -np4 / s, dA: 0, dQ: 1 / s }
    }
    case 'w_prime_balance':
      return { g: 0, dT: 0, dA: 0, dQ: 0 }
  }
}

export interface AugmentedState {
  /** PHR multiplier of the (aggregate) constraint */
  lambda: number
  /** PHR penalty weight */
  mu: number
  /**
   * Sharpness ρ of the W′ aggregate: the constraints gᵢ = −Wᵢ/W′ ≤ 0 at every boundary are
   * folded into one smooth maximum (Kreisselmeier–Steinhauser), g = (1/ρ)·log Σ exp(ρ·gᵢ) ≥ max gᵢ
   * (conservative by at most ln(n)/ρ; ρ is sharpened round by round).
   * One smooth constraint instead of thousands of switching ones: quasi-Newton steps stay good.
   */
  ks: number
}

/** Work arrays of the objective, allocated once per optimization. */
export interface Workspace {
  b: ForwardBuffers
  /** fine-segment power */
  p: Float64Array
  /** fine-segment split variables (a, b) interleaved, W′ constraint only */
  ab: Float64Array
  /** 1 where the segment's stall floor holds its power (see `decode`) */
  held: Uint8Array
  /** W′ aggregate: each boundary's term exp(ρ·(gᵢ − max g)) of the last evaluation */
  ksTerm: Float64Array
}

export function workspace(n: number): Workspace {
  return {
    b: forwardBuffers(n),
    p: new Float64Array(n),
    ab: new Float64Array(2 * n),
    held: new Uint8Array(n),
    ksTerm: new Float64Array(n + 1),
  }
}

/**
 * Fine-segment powers from the decision vector. Without split: x[k] is the power of control k.
 * With split (W′ constraint): x[k] = a_k ≥ 0 and x[K + k] = b_k ≥ 0, power CP + a_k − b_k.
 */
export function decode(
  control: Int32Array,
  x: Float64Array,
  splitCp: number | null,
  K: number,
  ws: Workspace,
  floor: Float64Array | null = null,
  cp: SplitCapacity | null = null,
): void {
  for (let i = 0; i < control.length; i++) {
    const k = control[i]!
    let p: number
    // where CP varies, the split is about the variable's reference CP, shifted to the segment's
    const ref = cp ? cp.ref[k]! : (splitCp ?? 0)
    const cpI = cp ? cp.segment[i]! : ref
    if (splitCp === null) p = x[k]!
    else {
      const a = x[k]!
      const bb = x[K + k]!
      const d = ref - cpI
      ws.ab[2 * i] = d > 0 ? a + d : a
      ws.ab[2 * i + 1] = d < 0 ? bb - d : bb
      p = ref + a - bb
    }
    // a segment's own stall floor holds it (no gradient to its variable from this segment)
    if (floor && p < floor[i]!) {
      p = floor[i]!
      ws.held[i] = 1
      if (splitCp !== null) {
        ws.ab[2 * i] = Math.max(0, p - cpI)
        ws.ab[2 * i + 1] = Math.max(0, cpI - p)
      }
    } else ws.held[i] = 0
    ws.p[i] = p
  }
}

/**
 * CP along the ride for the split decision (sim/capacity.ts): each variable's power is
 * `ref[k] + a − b`; on segment i the W′ map sees it against `segment[i]`, the segment's CP. The
 * difference goes to a or b, which is exact where the variable rides on one side of both and
 * conservative by the difference where it rides between (a few watts: ref is the time-weighted
 * mean of its segments' CP).
 */
export interface SplitCapacity {
  ref: Float64Array
  segment: Float64Array
}

/**
 * Augmented Lagrangian J(x) = T/T₀ + penalties, and its gradient with respect to the decision
 * vector x (see `decode`), by one forward pass and one reverse sweep.
 */
export function augmentedObjective(
  model: SimModel,
  v0: number,
  control: Int32Array,
  K: number,
  c: ConstraintSpec,
  al: AugmentedState,
  timeScale: number,
  x: Float64Array,
  grad: Float64Array,
  ws: Workspace,
  band: number,
  floor: Float64Array | null = null,
  cp: SplitCapacity | null = null,
): number {
  const n = model.n
  const hasW = c.type === 'w_prime_balance'
  decode(control, x, hasW ? c.cpW : null, K, ws, floor, cp)
  const b = ws.b
  const tot = forward(model, v0, ws.p, c, b, band, hasW ? ws.ab : null)
  grad.fill(0)
  if (!Number.isFinite(tot.timeS)) return Infinity
  let J = tot.timeS / timeScale
  let JT = 1 / timeScale
  let JA = 0
  let JQ = 0
  if (!hasW) {
    const a = aggregateConstraint(c, tot, timeScale)
    const r = phr(a.g, al.lambda, al.mu)
    J += r.value
    JT += r.slope * a.dT
    JA = r.slope * a.dA
    JQ = r.slope * a.dQ
  }
  const wScale = hasW ? c.wPrimeJ : 1
  // KS aggregate of the W′ constraints: value and the weight of each boundary in its gradient
  let ksSlope = 0
  let ksSum = 0
  if (hasW) {
    let gmax = -Infinity
    for (let i = 1; i <= n; i++) gmax = Math.max(gmax, -b.w[i]! / wScale)
    // a boundary whose term is below e⁻⁴⁰ of the largest adds nothing a double can hold to the
    // sum or to the gradient: it is not exponentiated (most boundaries, far above the lowest W′)
    const term = ws.ksTerm
    for (let i = 1; i <= n; i++) {
      const z = al.ks * (-b.w[i]! / wScale - gmax)
      const e = z > -40 ? Math.exp(z) : 0
      term[i] = e
      ksSum += e
    }
    const g = gmax + Math.log(ksSum) / al.ks
    const r = phr(g, al.lambda, al.mu)
    J += r.value
    ksSlope = r.slope
  }
  // reverse sweep: lv = ∂J/∂vᵢ₊₁, lw = ∂J/∂Wᵢ₊₁ (including the penalty on Wᵢ₊₁)
  let lv = 0
  let lw = 0
  for (let i = n - 1; i >= 0; i--) {
    if (hasW) {
      const e = ws.ksTerm[i + 1]!
      if (e > 0) lw += (-ksSlope * (e / ksSum)) / wScale
    }
    const pa = b.pa[i]!
    const t = b.t[i]!
    const p3 = pa * pa * pa
    let Lt = JT + JA * pa + JQ * p3 * pa
    let La = JA * t + 4 * JQ * p3 * t
    const isSplit = hasW && b.split[i] === 1
    if (hasW) {
      Lt += lw * b.dwdt[i]!
      if (!isSplit) La += lw * b.dwdp[i]!
    }
    const dP = lv * b.dvdp[i]! + Lt * b.dtdp[i]! + La * b.dadp[i]!
    const k = control[i]!
    if (floor && ws.held[i] === 1) {
      // held at its floor: no gradient to the variable
    } else if (!hasW) grad[k] = grad[k]! + dP
    else {
      grad[k] = grad[k]! + dP + (isSplit ? lw * b.dwdp[i]! : 0)
      grad[K + k] = grad[K + k]! - dP + (isSplit ? lw * b.dwdb[i]! : 0)
    }
    lv = lv * b.dvdv[i]! + Lt * b.dtdv[i]! + La * b.dadv[i]!
    if (hasW) lw = lw * b.dwdw[i]!
  }
  return J
}

/**
 * The model with its durability frozen at the work of the plan just ridden in `b` (its forward
 * pass), and the CP of each segment and each variable's reference CP (time-weighted over its
 * segments) for the split decision. Null where CP does not vary.
 */
export function frozenCapacity(
  model: SimModel,
  cpW: number,
  of: Int32Array,
  K: number,
  b: ForwardBuffers,
): { model: SimModel; cp: SplitCapacity } | null {
  if (!capacityVaries(model)) return null
  const n = model.n
  let m = model
  if (model.durability > 0 && !model.workBefore) {
    const workBefore = new Float64Array(n)
    let A = 0
    for (let i = 0; i < n; i++) {
      workBefore[i] = A
      A += b.pa[i]! * b.t[i]!
    }
    m = { ...model, workBefore }
  }
  const segment = new Float64Array(n)
  const ref = new Float64Array(K)
  const time = new Float64Array(K)
  for (let i = 0; i < n; i++) {
    segment[i] = cpW * durabilityAt(m, i, 0) * (m.capacity ? m.capacity[i]! : 1)
    const k = of[i]!
    ref[k] = ref[k]! + segment[i]! * b.t[i]!
    time[k] = time[k]! + b.t[i]!
  }
  for (let k = 0; k < K; k++) ref[k] = time[k]! > 0 ? ref[k]! / time[k]! : cpW
  return { model: m, cp: { ref, segment } }
}
