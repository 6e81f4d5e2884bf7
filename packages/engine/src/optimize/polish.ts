// The gradient stage: augmented Lagrangian (PHR) rounds, each an inner projected L-BFGS
// minimization with the exact gradient of the adjoint sweep (problem.ts), then a multiplier update.
import type { SimModel } from '../sim/model.ts'
import { minimizeBounded } from './lbfgsb.ts'
import {
  aggregateConstraint,
  augmentedObjective,
  decode,
  expandPowers,
  forward,
  frozenCapacity,
  type AugmentedState,
  type ConstraintSpec,
  type SplitCapacity,
  type Workspace,
} from './problem.ts'

export interface PolishSetup {
  model: SimModel
  v0: number
  /** control of each segment of `model` */
  of: Int32Array
  K: number
  spec: ConstraintSpec
  timeScale: number
  /** variable scaling (preconditioning): x = u·scale */
  scale: Float64Array
  lower: Float64Array
  upper: Float64Array
  /** W′: decision (a, b) with P = CP + a − b */
  split: boolean
  band: number
  ws: Workspace
  /** per-segment stall floor applied under the variables (reduced problems), or null */
  floor?: Float64Array | null
  /** CP along the ride (durability, heat, altitude) for the split decision, or null */
  cp?: SplitCapacity | null
}

export interface PolishResult {
  u: Float64Array
  rounds: number
  inner: number
  evaluations: number
}

export function polish(
  s: PolishSetup,
  u0: Float64Array,
  al: AugmentedState,
  rounds: number,
  innerCap: number,
  tol: number,
  /** rounds run at least, even when the constraint is met earlier */
  minRounds = 0,
): PolishResult {
  const V = s.scale.length
  const xw = new Float64Array(V)
  const gw = new Float64Array(V)
  const cp = s.spec.type === 'w_prime_balance' ? s.spec.cpW : 0
  const n = s.model.n
  const fg = (uu: Float64Array, g: Float64Array): number => {
    for (let k = 0; k < V; k++) xw[k] = uu[k]! * s.scale[k]!
    const f = augmentedObjective(
      s.model,
      s.v0,
      s.of,
      s.K,
      s.spec,
      al,
      s.timeScale,
      xw,
      gw,
      s.ws,
      s.band,
      s.floor ?? null,
      s.cp ?? null,
    )
    for (let k = 0; k < V; k++) g[k] = gw[k]! * s.scale[k]!
    return f
  }
  let u = u0
  let inner = 0
  let evaluations = 0
  let prevViolation = Infinity
  let round = 0
  for (; round < rounds; round++) {
    const r = minimizeBounded(fg, u, {
      lower: s.lower,
      upper: s.upper,
      gradTol: 1e-9,
      fTol: tol,
      maxIterations: innerCap,
      memory: 8,
    })
    u = r.x
    inner += r.iterations
    evaluations += r.evaluations
    // constraint violation and multiplier update at the new point
    for (let k = 0; k < V; k++) xw[k] = u[k]! * s.scale[k]!
    decode(s.of, xw, s.split ? cp : null, s.K, s.ws, s.floor ?? null, s.cp ?? null)
    const b = s.ws.b
    const tot = forward(s.model, s.v0, s.ws.p, s.spec, b, s.band, s.split ? s.ws.ab : null)
    let violation: number
    if (s.spec.type === 'w_prime_balance') {
      const w0 = s.spec.wPrimeJ
      let gmax = -Infinity
      for (let i = 1; i <= n; i++) gmax = Math.max(gmax, -b.w[i]! / w0)
      let sum = 0
      for (let i = 1; i <= n; i++) sum += Math.exp(al.ks * (-b.w[i]! / w0 - gmax))
      const g = gmax + Math.log(sum) / al.ks
      // the enforced quantity is the smooth maximum; what it leaves is for the exact repair
      violation = al.ks >= 3000 ? Math.max(0, g) : Math.max(0, gmax)
      al.lambda = Math.max(0, al.lambda + al.mu * g)
      al.ks = Math.min(3000, al.ks * 3)
    } else {
      const a = aggregateConstraint(s.spec, tot, s.timeScale)
      violation = Math.max(0, a.g)
      al.lambda = Math.max(0, al.lambda + al.mu * a.g)
    }
    // W′: the smooth maximum is conservative by up to ln(n)/ρ, so keep sharpening it to the end
    const sharp = s.spec.type !== 'w_prime_balance' || al.ks >= 3000
    if (violation < 1e-7 && sharp && round + 1 >= minRounds) {
      round++
      break
    }
    if (violation > 0.25 * prevViolation) al.mu = Math.min(1e5, al.mu * 10)
    prevViolation = violation
  }
  return { u, rounds: round, inner, evaluations }
}

/** Control powers from the scaled decision vector. */
export function controlPowers(s: PolishSetup, u: Float64Array): Float64Array {
  const out = new Float64Array(s.K)
  const cp = s.spec.type === 'w_prime_balance' ? s.spec.cpW : 0
  for (let k = 0; k < s.K; k++) {
    out[k] = s.split
      ? (s.cp ? s.cp.ref[k]! : cp) + u[k]! * s.scale[k]! - u[s.K + k]! * s.scale[s.K + k]!
      : u[k]! * s.scale[k]!
  }
  return out
}

/**
 * The scaled problem for K variables (one power each) over the segments of `model`, variable of
 * segment i = of[i] (not necessarily contiguous: a target may apply to many stretches). Bounds:
 * [floor_k, hi]. Each variable is scaled by √(its share of the ride's time at x0) so all have
 * similar curvature; under W′ the decision is split as P = CP + a − b (see wbal.ts).
 */
export function makePolishSetup(
  o: Pick<PolishSetup, 'model' | 'v0' | 'of' | 'K' | 'spec' | 'timeScale' | 'ws'> & {
    /** starting power of each variable */
    x0: Float64Array
    /** lowest power of each variable (stall floor) */
    floor: Float64Array
    hi: number
    /** typical power (scales the variables) */
    pRef: number
    /** per-segment floor under the variables (reduced problems: a target spans many controls) */
    segmentFloor?: Float64Array | null
  },
): { setup: PolishSetup; u0: Float64Array } {
  const { K, spec, ws } = o
  const n = o.model.n
  const p = expandPowers(o.of, o.x0, new Float64Array(n))
  const sf = o.segmentFloor
  if (sf) for (let i = 0; i < n; i++) p[i] = Math.max(p[i]!, sf[i]!)
  forward(o.model, o.v0, p, spec, ws.b)
  const dur = new Float64Array(K)
  for (let i = 0; i < n; i++) dur[o.of[i]!] = dur[o.of[i]!]! + ws.b.t[i]!
  const split = spec.type === 'w_prime_balance'
  const frozen = split ? frozenCapacity(o.model, spec.cpW, o.of, K, ws.b) : null
  const cpOf = (k: number) => (frozen ? frozen.cp.ref[k]! : split ? spec.cpW : 0)
  const V = split ? 2 * K : K
  const scale = new Float64Array(V)
  const lower = new Float64Array(V)
  const upper = new Float64Array(V)
  const u0 = new Float64Array(V)
  const hi = o.hi
  for (let k = 0; k < K; k++) {
    const sc = o.pRef * Math.sqrt(o.timeScale / K / Math.max(dur[k]!, 1e-3))
    scale[k] = sc
    const fl = o.floor[k]!
    const x0 = Math.min(hi, Math.max(o.x0[k]!, fl))
    if (split) {
      // P = CP + a − b, a ∈ [max(0, floor − CP), max(0, hi − CP)], b ∈ [max(0, CP − hi), max(0, CP − floor)]
      const cp = cpOf(k)
      scale[K + k] = sc
      lower[k] = Math.max(0, fl - cp) / sc
      upper[k] = Math.max(0, hi - cp) / sc
      lower[K + k] = Math.max(0, cp - hi) / sc
      upper[K + k] = Math.max(0, cp - fl) / sc
      u0[k] = Math.max(0, x0 - cp) / sc
      u0[K + k] = Math.max(0, cp - x0) / sc
    } else {
      lower[k] = fl / sc
      upper[k] = hi / sc
      u0[k] = x0 / sc
    }
  }
  const setup: PolishSetup = {
    model: frozen ? frozen.model : o.model,
    v0: o.v0,
    of: o.of,
    K,
    spec,
    timeScale: o.timeScale,
    scale,
    lower,
    upper,
    split,
    band: split ? 0.01 * cpOf(0) : 0,
    ws,
    floor: sf ?? null,
    cp: frozen ? frozen.cp : null,
  }
  return { setup, u0 }
}
