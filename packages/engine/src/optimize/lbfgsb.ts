// Bound-constrained quasi-Newton minimization: projected L-BFGS.
//
// Each iteration takes the L-BFGS direction (two-loop recursion) on the variables that are free
// (not held at a bound by their gradient), falls back to the projected steepest descent when
// that direction is not a descent direction, and backtracks along the projected path
// x(α) = clamp(x + α·d) until an Armijo condition on the actual step holds. Stopping is purely
// by tolerances and an iteration cap (never by wall-clock time), so results are reproducible.

export interface MinimizeOptions {
  lower: Float64Array
  upper: Float64Array
  /** stop when the ∞-norm of the projected gradient falls below this */
  gradTol: number
  /** stop when the relative decrease of f over one iteration falls below this, twice in a row */
  fTol: number
  maxIterations: number
  /** L-BFGS memory */
  memory?: number
}

export interface MinimizeResult {
  x: Float64Array
  f: number
  iterations: number
  evaluations: number
  converged: boolean
}

/** f and its gradient at x (the gradient is written into g). */
export type Objective = (x: Float64Array, g: Float64Array) => number

function projectedGradientNorm(
  x: Float64Array,
  g: Float64Array,
  lo: Float64Array,
  hi: Float64Array,
) {
  let m = 0
  for (let j = 0; j < x.length; j++) {
    const y = Math.min(hi[j]!, Math.max(lo[j]!, x[j]! - g[j]!))
    m = Math.max(m, Math.abs(y - x[j]!))
  }
  return m
}

/** The memory of curvature pairs (s, y), with ρ = 1/(s·y) and y·y of each, oldest first. */
interface CurvaturePairs {
  S: Float64Array[]
  Y: Float64Array[]
  rhoS: number[]
  yyS: number[]
}

/**
 * The L-BFGS direction, in place: `d` holds −g on the free variables (0 on the held ones) and
 * becomes −H·g by the two-loop recursion over `pairs`.
 */
function lbfgsDirection(
  d: Float64Array,
  mask: Float64Array,
  pairs: CurvaturePairs,
  alphaBuf: Float64Array,
): void {
  // two-loop recursion restricted to the free variables: d is zero off the free set and every
  // update is multiplied by the 0/1 mask, so the loops run without branches; each pass over the
  // vectors both applies one pair's update and takes the dot product for the next pair (half
  // the passes of the textbook form; this was most of the optimizer's own time at 4 000
  // variables)
  const { S, Y, rhoS, yyS } = pairs
  const n = d.length
  const k = S.length
  if (k === 0) return
  let acc = 0
  const sl = S[k - 1]!
  for (let j = 0; j < n; j++) acc += sl[j]! * d[j]!
  for (let i = k - 1; i >= 0; i--) {
    const a = acc * rhoS[i]!
    alphaBuf[i] = a
    const y = Y[i]!
    // the next dot product: s of the pair before, or y₀ for the second loop's first step
    const nx = i > 0 ? S[i - 1]! : Y[0]!
    acc = 0
    for (let j = 0; j < n; j++) {
      const dj = d[j]! - a * y[j]! * mask[j]!
      d[j] = dj
      acc += nx[j]! * dj
    }
  }
  // initial Hessian γ·I with γ = s·y / y·y of the newest pair; acc = y₀·d before scaling
  const gamma = 1 / (rhoS[k - 1]! * yyS[k - 1]!)
  acc *= gamma
  for (let i = 0; i < k; i++) {
    const c = alphaBuf[i]! - acc * rhoS[i]!
    const s = S[i]!
    const ny = i + 1 < k ? Y[i + 1]! : null
    const scale = i === 0 ? gamma : 1
    acc = 0
    if (ny) {
      for (let j = 0; j < n; j++) {
        const dj = d[j]! * scale + c * s[j]! * mask[j]!
        d[j] = dj
        acc += ny[j]! * dj
      }
    } else {
      for (let j = 0; j < n; j++) d[j] = d[j]! * scale + c * s[j]! * mask[j]!
    }
  }
}

export function minimizeBounded(
  fg: Objective,
  x0: Float64Array,
  o: MinimizeOptions,
): MinimizeResult {
  const n = x0.length
  const m = o.memory ?? 8
  const lo = o.lower
  const hi = o.upper
  const x = new Float64Array(n)
  for (let j = 0; j < n; j++) x[j] = Math.min(hi[j]!, Math.max(lo[j]!, x0[j]!))
  const g = new Float64Array(n)
  let f = fg(x, g)
  let evaluations = 1
  const S: Float64Array[] = []
  const Y: Float64Array[] = []
  const rhoS: number[] = []
  const yyS: number[] = []
  const pool: Float64Array[] = []
  /** forget the curvature pairs (their vectors go back to the pool) */
  const reset = () => {
    pool.push(...S, ...Y)
    S.length = 0
    Y.length = 0
    rhoS.length = 0
    yyS.length = 0
  }
  const d = new Float64Array(n)
  const xn = new Float64Array(n)
  const gn = new Float64Array(n)
  const mask = new Float64Array(n) // 1 on the free variables, 0 on the held ones
  const alphaBuf = new Float64Array(m)
  let smallSteps = 0
  let lastAlpha = 1
  let iterations = 0
  let converged = false
  for (; iterations < o.maxIterations; iterations++) {
    const pgn = projectedGradientNorm(x, g, lo, hi)
    if (pgn < o.gradTol) {
      converged = true
      break
    }
    // Bertsekas' ε-active set: a variable within ε of a bound, with the gradient pushing it there,
    // is held fixed; otherwise the projected quasi-Newton path bends at once and the line search
    // collapses to tiny steps.
    // Held variables stay where they are for this iteration. (Snapping them onto their bound in
    // the first trial point makes a third of the first trials fail on the 180 km bench course and
    // leaves every real course 0.2–6 s slower.)
    const eps = Math.min(1e-3, pgn)
    for (let j = 0; j < n; j++) {
      const atLo = x[j]! <= lo[j]! + eps && g[j]! > 0
      const atHi = x[j]! >= hi[j]! - eps && g[j]! < 0
      const f = atLo || atHi ? 0 : 1
      mask[j] = f
      d[j] = f ? -g[j]! : 0
    }
    lbfgsDirection(d, mask, { S, Y, rhoS, yyS }, alphaBuf)
    let slope = 0
    for (let j = 0; j < n; j++) slope += d[j]! * g[j]!
    if (!(slope < 0)) {
      // not a descent direction: reset the memory and use the projected gradient
      reset()
      for (let j = 0; j < n; j++) d[j] = mask[j] ? -g[j]! : 0
    }
    // first trial: the unit quasi-Newton step, or 4× the last accepted step when recent steps
    // were short (saves most backtracking on curved, bounded problems)
    let alpha = Math.min(1, 4 * lastAlpha)
    if (S.length === 0) {
      let gn2 = 0
      for (let j = 0; j < n; j++) gn2 = Math.max(gn2, Math.abs(d[j]!))
      alpha = gn2 > 0 ? Math.min(1, 0.1 / gn2) : 1
    }
    let fNew = Infinity
    let accepted = false
    for (let ls = 0; ls < 40; ls++) {
      let decrease = 0
      for (let j = 0; j < n; j++) {
        xn[j] = Math.min(hi[j]!, Math.max(lo[j]!, x[j]! + alpha * d[j]!))
        decrease += g[j]! * (xn[j]! - x[j]!)
      }
      fNew = fg(xn, gn)
      evaluations++
      if (Number.isFinite(fNew) && fNew <= f + 1e-4 * decrease) {
        accepted = true
        lastAlpha = S.length === 0 ? 1 : alpha
        break
      }
      // quadratic interpolation of f along the path, kept within [0.1, 0.5] of the last trial
      if (Number.isFinite(fNew) && decrease < 0) {
        const q = (-decrease * alpha) / (2 * (fNew - f - decrease))
        alpha = Math.min(0.5 * alpha, Math.max(0.1 * alpha, q))
      } else alpha *= 0.1
    }
    if (!accepted) {
      converged = S.length === 0
      if (S.length === 0) break
      reset()
      continue
    }
    // the pair's vectors come from the pool of evicted ones (no garbage per iteration)
    const s = pool.pop() ?? new Float64Array(n)
    const y = pool.pop() ?? new Float64Array(n)
    let sy = 0
    let yy = 0
    for (let j = 0; j < n; j++) {
      s[j] = xn[j]! - x[j]!
      y[j] = gn[j]! - g[j]!
      sy += s[j]! * y[j]!
      yy += y[j]! * y[j]!
    }
    if (sy > 1e-12) {
      if (S.length === m) {
        pool.push(S.shift()!, Y.shift()!)
        rhoS.shift()
        yyS.shift()
      }
      S.push(s)
      Y.push(y)
      rhoS.push(1 / sy)
      yyS.push(yy)
    } else pool.push(s, y)
    const rel = (f - fNew) / Math.max(1e-12, Math.abs(f))
    x.set(xn)
    g.set(gn)
    f = fNew
    smallSteps = rel < o.fTol ? smallSteps + 1 : 0
    if (smallSteps >= 2) {
      converged = true
      iterations++
      break
    }
  }
  return { x, f, iterations, evaluations, converged }
}
