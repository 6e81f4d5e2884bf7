// The reduced W′ problem solved by sequential quadratic programming (decision 0002): the best powers
// of a fixed structure of a few targets, minimum finish time subject to W′ balance ≥ 0 at every
// boundary and to each target's bounds.
//
// Each iteration costs one forward pass (problem.ts, recording the step's Jacobians) and a few
// reverse sweeps over them: the gradient of the finish time, and the gradient of the balance at
// each boundary where it comes near zero (its local minima: the ends of the hard efforts; a
// sweep for boundary j runs only over the segments before it). The quadratic model of the
// Lagrangian is a damped BFGS matrix (Powell 1978); each step solves its QP over the linearized
// constraints and the bounds by a dual active-set method (exact in a few steps at these sizes),
// and the step is accepted on the
// exact-penalty merit T + ρ·max(0, −min W/W′) by backtracking (Nocedal & Wright 2006, §18.3–18.4).
// Where the augmented-Lagrangian polish needs 300–500 gradients on a dozen targets, this needs
// tens of passes; the plan it returns is repaired and judged by the exact simulation as before.
import type { SimModel } from '../sim/model.ts'
import { capacityVaries } from '../sim/capacity.ts'
import {
  decode,
  forward,
  frozenCapacity,
  type ConstraintSpec,
  type ForwardBuffers,
  type Workspace,
} from './problem.ts'

export interface SqpProblem {
  model: SimModel
  v0: number
  /** variable (target) of each piece of `model` */
  of: Int32Array
  T: number
  spec: Extract<ConstraintSpec, { type: 'w_prime_balance' }>
  lower: Float64Array
  upper: Float64Array
  /** per-piece stall floor under the variables, or null */
  segmentFloor: Float64Array | null
  ws: Workspace
}

export interface SqpResult {
  x: Float64Array
  iterations: number
  /** forward passes (each with its reverse sweeps) */
  evaluations: number
  /** false: the linearized constraints could not be met from the start (the caller falls back) */
  ok: boolean
}

/** Most boundaries linearized per iteration (the lowest local minima of the balance). */
const MAX_ACTIVE = 8
/** A local minimum of the balance above this share of W′ is left out of the QP. */
const NEAR_ZERO = 0.35
const MAX_ITERATIONS = 40

interface Point {
  x: Float64Array
  timeS: number
  /** lowest balance over the boundaries, as a share of W′ */
  minW: number
  /** time gradient (s/W) */
  g: Float64Array
  /** boundaries linearized, their balance (share of W′) and gradient (per W) */
  rows: number[]
  c: number[]
  a: Float64Array[]
}

/**
 * The best powers of the targets from x0 (clamped into the bounds). The result is a point of
 * the smoothed W′ model (problem.ts), not yet exactly feasible: the caller repairs it.
 */
export function sqpTargets(p: SqpProblem, x0: Float64Array): SqpResult {
  const { T, spec, ws } = p
  const n0 = p.model.n
  const x = new Float64Array(T)
  for (let k = 0; k < T; k++) x[k] = Math.min(p.upper[k]!, Math.max(p.lower[k]!, x0[k]!))
  // durability: frozen at the work of the start's ride, so the gradients are exact (problem.ts)
  let model = p.model
  if (capacityVaries(model)) {
    decode(p.of, x, null, T, ws, p.segmentFloor)
    forward(model, p.v0, ws.p, spec, ws.b)
    model = frozenCapacity(model, spec.cpW, p.of, T, ws.b)?.model ?? model
  }
  // the W′ map's kink at CP smoothed over ±0.1 % of CP only: a target the SQP leaves at CP must
  // be at CP on the exact model too (a band of 1 % put Mont Ventoux's first target at CP + 0.6 W,
  // which drained W′ over its whole stretch and cost 1.3 s in the repair)
  const band = 0.001 * spec.cpW
  const w0 = spec.wPrimeJ
  let evaluations = 0
  /** forward pass at x: time and lowest balance (Infinity: the rider stalled) */
  const evaluate = (xx: Float64Array): { timeS: number; minW: number } => {
    evaluations++
    decode(p.of, xx, null, T, ws, p.segmentFloor)
    const tot = forward(model, p.v0, ws.p, spec, ws.b, band, null)
    if (!Number.isFinite(tot.timeS)) return { timeS: Infinity, minW: -Infinity }
    return { timeS: tot.timeS, minW: tot.minWbal / w0 }
  }
  /** gradients at the point just evaluated, for the boundaries `want` (and the local minima) */
  const linearize = (xx: Float64Array, e: { timeS: number; minW: number }, want: number[]) => {
    const b = ws.b
    const rows = lowBoundaries(b, n0, w0)
    for (const j of want) if (!rows.includes(j)) rows.push(j)
    const pt: Point = {
      x: Float64Array.from(xx),
      timeS: e.timeS,
      minW: e.minW,
      g: sweep(b, p.of, ws.held, T, n0, -1),
      rows,
      c: rows.map((j) => b.w[j]! / w0),
      a: rows.map((j) => {
        const gj = sweep(b, p.of, ws.held, T, j, j)
        for (let k = 0; k < T; k++) gj[k] = gj[k]! / w0
        return gj
      }),
    }
    return pt
  }
  const e0 = evaluate(x)
  if (!Number.isFinite(e0.timeS)) return { x, iterations: 0, evaluations, ok: false }
  let cur = linearize(x, e0, [])
  // the Lagrangian's Hessian, scaled: d²t/dP² ≈ t/P² per target (between 4/9 on the flat and 2 on
  // a steep climb, quasi-steady), from each target's time in the start's ride
  const H0 = new Float64Array(T)
  {
    const tk = new Float64Array(T)
    for (let i = 0; i < n0; i++) tk[p.of[i]!] = tk[p.of[i]!]! + ws.b.t[i]!
    for (let k = 0; k < T; k++) H0[k] = Math.max(1e-6, tk[k]! / Math.max(50, x[k]!) ** 2)
  }
  const H = new Float64Array(T * T)
  const resetH = () => {
    H.fill(0)
    for (let k = 0; k < T; k++) H[k * T + k] = H0[k]!
  }
  resetH()
  let rho = 0
  let iterations = 0
  let stalls = 0
  let moved = false
  const d = new Float64Array(T)
  const xn = new Float64Array(T)
  for (; iterations < MAX_ITERATIONS; iterations++) {
    const qp = solveQp(H, cur, p.lower, p.upper, T, d)
    if (!qp) {
      if (iterations === 0) return { x, iterations, evaluations, ok: false }
      break
    }
    let lamSum = 0
    for (const l of qp.lambda) lamSum += l
    rho = Math.max(rho, 1.5 * lamSum + 1e-6)
    const viol = Math.max(0, -cur.minW)
    let gd = 0
    let dmax = 0
    for (let k = 0; k < T; k++) {
      gd += cur.g[k]! * d[k]!
      dmax = Math.max(dmax, Math.abs(d[k]!))
    }
    // converged: the step is below a hundredth of a watt and the plan is feasible
    if (dmax < 0.01 && viol < 1e-6) break
    const phi0 = cur.timeS + rho * viol
    const slope = gd - rho * viol
    let alpha = 1
    let accepted: { timeS: number; minW: number } | null = null
    for (let tries = 0; tries < 8; tries++) {
      for (let k = 0; k < T; k++) {
        xn[k] = Math.min(p.upper[k]!, Math.max(p.lower[k]!, cur.x[k]! + alpha * d[k]!))
      }
      const e = evaluate(xn)
      if (Number.isFinite(e.timeS)) {
        const phi = e.timeS + rho * Math.max(0, -e.minW)
        if (phi <= phi0 + 1e-4 * alpha * Math.min(0, slope) || (slope >= 0 && phi <= phi0)) {
          accepted = e
          break
        }
      }
      alpha *= 0.5
    }
    if (!accepted) {
      // no descent along this step: start the curvature afresh, or stop (having not moved at
      // all, the caller's polish takes over)
      if (++stalls >= 2) {
        if (moved) break
        return { x, iterations, evaluations, ok: false }
      }
      resetH()
      continue
    }
    stalls = 0
    moved = true
    const next = linearize(
      xn,
      accepted,
      cur.rows.filter((_, r) => qp.lambda[r]! > 0),
    )
    // damped BFGS on the Lagrangian's gradient, with the QP's multipliers on the rows of both points
    const s = new Float64Array(T)
    const y = new Float64Array(T)
    for (let k = 0; k < T; k++) {
      s[k] = next.x[k]! - cur.x[k]!
      y[k] = next.g[k]! - cur.g[k]!
    }
    for (let r = 0; r < cur.rows.length; r++) {
      const l = qp.lambda[r]!
      if (l <= 0) continue
      const q = next.rows.indexOf(cur.rows[r]!)
      const an = next.a[q]!
      const ac = cur.a[r]!
      for (let k = 0; k < T; k++) y[k] = y[k]! - l * (an[k]! - ac[k]!)
    }
    bfgsUpdate(H, s, y, T)
    const dPhi = phi0 - (accepted.timeS + rho * Math.max(0, -accepted.minW))
    cur = next
    if (dPhi >= 0 && dPhi < 1e-4 && Math.max(0, -cur.minW) < 1e-6) break
  }
  return { x: cur.x, iterations, evaluations, ok: true }
}

/**
 * Boundaries where the balance has a local minimum within NEAR_ZERO of W′, lowest first (at least
 * the lowest boundary).
 */
function lowBoundaries(b: ForwardBuffers, n: number, w0: number): number[] {
  const out: number[] = []
  const limit = NEAR_ZERO * w0
  for (let j = 1; j <= n; j++) {
    const w = b.w[j]!
    if (w > limit || w > b.w[j - 1]! || (j < n && w > b.w[j + 1]!)) continue
    // a flat stretch of the balance (ridden at CP at its lowest) counts by its two ends
    const inside = j < n && w === b.w[j - 1]! && w === b.w[j + 1]!
    if (!inside) out.push(j)
  }
  out.sort((i, j) => b.w[i]! - b.w[j]!)
  const rows = out.slice(0, MAX_ACTIVE)
  // the lowest boundary always, however high: a QP without the constraint would step far past it
  if (rows.length === 0) {
    let lowest = 1
    for (let j = 2; j <= n; j++) if (b.w[j]! < b.w[lowest]!) lowest = j
    rows.push(lowest)
  }
  return rows
}

/**
 * Reverse sweep over the recorded Jacobians: with j < 0 the gradient of the finish time, else of
 * the balance at boundary j (after segment j − 1), with respect to each target's power.
 */
function sweep(
  b: ForwardBuffers,
  of: Int32Array,
  held: Uint8Array,
  T: number,
  top: number,
  j: number,
): Float64Array {
  const grad = new Float64Array(T)
  const time = j < 0
  let lv = 0
  let lw = time ? 0 : 1
  for (let i = top - 1; i >= 0; i--) {
    const Lt = time ? 1 : lw * b.dwdt[i]!
    const La = time ? 0 : lw * b.dwdp[i]!
    const dP = lv * b.dvdp[i]! + Lt * b.dtdp[i]! + La * b.dadp[i]!
    if (held[i] !== 1) grad[of[i]!] = grad[of[i]!]! + dP
    lv = lv * b.dvdv[i]! + Lt * b.dtdv[i]! + La * b.dadv[i]!
    if (!time) lw = lw * b.dwdw[i]!
  }
  return grad
}

/** Damped BFGS update of the dense matrix H (Powell 1978: keeps H positive definite). */
function bfgsUpdate(H: Float64Array, s: Float64Array, y: Float64Array, T: number): void {
  const Hs = new Float64Array(T)
  let sHs = 0
  let sy = 0
  for (let i = 0; i < T; i++) {
    let v = 0
    for (let k = 0; k < T; k++) v += H[i * T + k]! * s[k]!
    Hs[i] = v
    sHs += s[i]! * v
    sy += s[i]! * y[i]!
  }
  if (!(sHs > 1e-300)) return
  const theta = sy >= 0.2 * sHs ? 1 : (0.8 * sHs) / (sHs - sy)
  const r = new Float64Array(T)
  let sr = 0
  for (let i = 0; i < T; i++) {
    r[i] = theta * y[i]! + (1 - theta) * Hs[i]!
    sr += s[i]! * r[i]!
  }
  if (!(sr > 1e-300)) return
  for (let i = 0; i < T; i++) {
    for (let k = 0; k < T; k++) {
      H[i * T + k] = H[i * T + k]! - (Hs[i]! * Hs[k]!) / sHs + (r[i]! * r[k]!) / sr
    }
  }
}

/**
 * The QP of one step: min ½dᵀHd + gᵀd subject to c_r + a_r·d ≥ 0 for the linearized rows and
 * lower ≤ x + d ≤ upper, by a dual active-set method (Lawson & Hanson's NNLS on the dual, whose
 * variables are the multipliers λ ≥ 0 and whose gradient is each row's slack): the most violated
 * row joins the active set, the multipliers of the active rows solve their equalities, and a
 * multiplier that would turn negative leaves. Exact in finitely many steps; a few rows are active
 * at these sizes. Returns the balance rows' multipliers (d is written in place), or null when the
 * linearized constraints cannot be met within the bounds.
 */
function solveQp(
  H: Float64Array,
  pt: Point,
  lower: Float64Array,
  upper: Float64Array,
  T: number,
  d: Float64Array,
): { lambda: number[] } | null {
  const L = cholesky(H, T)
  if (!L) return null
  // rows r < R: the balance rows a_r·d ≥ −c_r; then for each variable d_k ≥ lower − x and
  // −d_k ≥ x − upper
  const R = pt.rows.length
  const m = R + 2 * T
  const c = new Float64Array(m)
  for (let r = 0; r < R; r++) c[r] = -pt.c[r]!
  for (let k = 0; k < T; k++) {
    c[R + 2 * k] = lower[k]! - pt.x[k]!
    c[R + 2 * k + 1] = pt.x[k]! - upper[k]!
  }
  const rowDot = (r: number, v: Float64Array): number => {
    if (r < R) return dot(pt.a[r]!, v, T)
    const k = (r - R) >> 1
    return (r - R) & 1 ? -v[k]! : v[k]!
  }
  const U: (Float64Array | null)[] = new Array<Float64Array | null>(m).fill(null)
  const u = (r: number): Float64Array => {
    let v = U[r]
    if (!v) {
      if (r < R) v = cholSolve(L, pt.a[r]!, T)
      else {
        const e = new Float64Array(T)
        e[(r - R) >> 1] = (r - R) & 1 ? -1 : 1
        v = cholSolve(L, e, T)
      }
      U[r] = v
    }
    return v
  }
  const d0 = cholSolve(L, pt.g, T)
  for (let k = 0; k < T; k++) d0[k] = -d0[k]!
  d.set(d0)
  const active: number[] = []
  let lam: number[] = []
  const skip = new Uint8Array(m)
  const tol = 1e-9
  for (let outer = 0; outer < 4 * m; outer++) {
    let worst = -1
    let wv = -tol
    for (let r = 0; r < m; r++) {
      if (skip[r] || active.includes(r)) continue
      const sl = rowDot(r, d) - c[r]!
      if (sl < wv) {
        wv = sl
        worst = r
      }
    }
    if (worst < 0) break
    active.push(worst)
    lam.push(0)
    for (let inner = 0; inner <= active.length + 2; inner++) {
      const z = activeMultipliers(active, rowDot, u, c, d0)
      if (!z) return null
      let alpha = 1
      for (let i = 0; i < z.length; i++) {
        if (z[i]! <= 0) alpha = Math.min(alpha, lam[i]! / (lam[i]! - z[i]!))
      }
      lam = lam.map((l, i) => l + alpha * (z[i]! - l))
      if (alpha >= 1) break
      // a multiplier reached zero: its row leaves the active set
      for (let i = active.length - 1; i >= 0; i--) {
        if (lam[i]! <= 1e-14) {
          if (active[i] === worst) skip[worst] = 1
          active.splice(i, 1)
          lam.splice(i, 1)
        }
      }
    }
    if (lam.some((l) => !(l < 1e12))) return null
    d.set(d0)
    for (let i = 0; i < active.length; i++) {
      const v = u(active[i]!)
      for (let k = 0; k < T; k++) d[k] = d[k]! + lam[i]! * v[k]!
    }
  }
  // the step must nearly meet its rows (else the QP had no feasible point); a step that misses a
  // balance row by less than 1 % of W′ is left to the merit's judgement
  for (let r = 0; r < m; r++) {
    if (rowDot(r, d) < c[r]! - 1e-2) return null
  }
  const out = new Array<number>(R).fill(0)
  for (let i = 0; i < active.length; i++) if (active[i]! < R) out[active[i]!] = lam[i]!
  return { lambda: out }
}

/**
 * The multipliers that make every active row hold with equality: M z = c − A·d0 over the active
 * rows, M = A H⁻¹ Aᵀ (regularized a little: neighbouring boundaries' rows are nearly parallel).
 */
function activeMultipliers(
  active: number[],
  rowDot: (r: number, v: Float64Array) => number,
  u: (r: number) => Float64Array,
  c: Float64Array,
  d0: Float64Array,
): Float64Array | null {
  const n = active.length
  const M = new Float64Array(n * n)
  const h = new Float64Array(n)
  let diag = 0
  for (let i = 0; i < n; i++) {
    h[i] = c[active[i]!]! - rowDot(active[i]!, d0)
    for (let j = 0; j < n; j++) M[i * n + j] = rowDot(active[i]!, u(active[j]!))
    diag = Math.max(diag, M[i * n + i]!)
  }
  for (let i = 0; i < n; i++) M[i * n + i] = M[i * n + i]! + 1e-10 * diag
  const Lm = cholesky(M, n)
  return Lm ? cholSolve(Lm, h, n) : null
}

function dot(a: Float64Array, b: Float64Array, T: number): number {
  let s = 0
  for (let k = 0; k < T; k++) s += a[k]! * b[k]!
  return s
}

/** Lower Cholesky factor of the symmetric positive definite T × T matrix (row-major), or null. */
function cholesky(H: Float64Array, T: number): Float64Array | null {
  const L = new Float64Array(T * T)
  for (let i = 0; i < T; i++) {
    for (let k = 0; k <= i; k++) {
      let s = H[i * T + k]!
      for (let m = 0; m < k; m++) s -= L[i * T + m]! * L[k * T + m]!
      if (i === k) {
        if (!(s > 0)) return null
        L[i * T + i] = Math.sqrt(s)
      } else L[i * T + k] = s / L[k * T + k]!
    }
  }
  return L
}

function cholSolve(L: Float64Array, b: Float64Array, T: number): Float64Array {
  const y = new Float64Array(T)
  for (let i = 0; i < T; i++) {
    let s = b[i]!
    for (let k = 0; k < i; k++) s -= L[i * T + k]! * y[k]!
    y[i] = s / L[i * T + i]!
  }
  for (let i = T - 1; i >= 0; i--) {
    let s = y[i]!
    for (let k = i + 1; k < T; k++) s -= L[k * T + i]! * y[k]!
    y[i] = s / L[i * T + i]!
  }
  return y
}
