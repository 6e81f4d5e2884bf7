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
  const d = new Float64Array(n)
  const xn = new Float64Array(n)
  const gn = new Float64Array(n)
  const free = new Uint8Array(n)
  const snap = new Float64Array(n)
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
    // Held variables try to go straight onto their bound (they are within ε of it and the
    // gradient pushes them there) in the first trial point; otherwise they stay in place.
    const eps = Math.min(1e-3, pgn)
    for (let j = 0; j < n; j++) {
      const atLo = x[j]! <= lo[j]! + eps && g[j]! > 0
      const atHi = x[j]! >= hi[j]! - eps && g[j]! < 0
      const f = atLo || atHi ? 0 : 1
      free[j] = f
      snap[j] = atLo ? lo[j]! : atHi ? hi[j]! : NaN
      d[j] = f ? -g[j]! : 0
    }
    // two-loop recursion restricted to the free variables
    const k = S.length
    for (let i = k - 1; i >= 0; i--) {
      const s = S[i]!
      let a = 0
      for (let j = 0; j < n; j++) if (free[j]) a += s[j]! * d[j]!
      a *= rhoS[i]!
      alphaBuf[i] = a
      const y = Y[i]!
      for (let j = 0; j < n; j++) if (free[j]) d[j] = d[j]! - a * y[j]!
    }
    if (k > 0) {
      const s = S[k - 1]!
      const y = Y[k - 1]!
      let sy = 0
      let yy = 0
      for (let j = 0; j < n; j++) {
        sy += s[j]! * y[j]!
        yy += y[j]! * y[j]!
      }
      const gamma = sy / yy
      for (let j = 0; j < n; j++) d[j] = d[j]! * gamma
    }
    for (let i = 0; i < k; i++) {
      const y = Y[i]!
      let b = 0
      for (let j = 0; j < n; j++) if (free[j]) b += y[j]! * d[j]!
      b *= rhoS[i]!
      const s = S[i]!
      for (let j = 0; j < n; j++) if (free[j]) d[j] = d[j]! + (alphaBuf[i]! - b) * s[j]!
    }
    let slope = 0
    for (let j = 0; j < n; j++) slope += d[j]! * g[j]!
    if (!(slope < 0)) {
      // not a descent direction: reset the memory and use the projected gradient
      S.length = 0
      Y.length = 0
      rhoS.length = 0
      for (let j = 0; j < n; j++) d[j] = free[j] ? -g[j]! : 0
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
        // held variables snap onto their bound in the first trial only
        const sj = ls === 0 ? snap[j]! : NaN
        xn[j] = sj === sj ? sj : Math.min(hi[j]!, Math.max(lo[j]!, x[j]! + alpha * d[j]!))
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
      S.length = 0
      Y.length = 0
      rhoS.length = 0
      continue
    }
    const s = new Float64Array(n)
    const y = new Float64Array(n)
    let sy = 0
    for (let j = 0; j < n; j++) {
      s[j] = xn[j]! - x[j]!
      y[j] = gn[j]! - g[j]!
      sy += s[j]! * y[j]!
    }
    if (sy > 1e-12) {
      if (S.length === m) {
        S.shift()
        Y.shift()
        rhoS.shift()
      }
      S.push(s)
      Y.push(y)
      rhoS.push(1 / sy)
    }
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
