// The robust GLS fit of a virtual-elevation problem: residuals with AR(1) errors
// (Prais–Winsten) and the offsets eliminated per segment, Huber weights, Gauss–Newton with IRLS,
// and the lag-1 autocorrelation of the residuals (Cochrane–Orcutt).
import { JT_STRIDE, solve, type FitState, type VeProblem } from './ve-problem.ts'

/**
 * Residuals of the fit, GLS with AR(1) errors (Prais–Winsten, coefficient φ): the level
 * residual q = alt − (E − Crr·C − (CdA + Fw)·B) is filtered to innovations
 * q̃_j = q_j − φ·q_{j−1} (q̃ = √(1−φ²)·q at a segment's first sample), the segment's offset o
 * enters as o·z (z = 1 − φ, or √(1−φ²) first) and is eliminated by weighted least squares.
 * Writes innovations into `res`, level residuals (q − o) into `lev` when given, offsets into
 * st.offsets; returns the weighted sum of squared innovations.
 */
export function residuals(
  P: VeProblem,
  alt: Float64Array,
  st: FitState,
  w: Float64Array,
  res: Float64Array,
  lev?: Float64Array,
): number {
  const phi = P.phi
  const first = Math.sqrt(1 - phi * phi)
  let sse = 0
  P.segs.forEach((g, si) => {
    const cdaTot = st.cda[g.group]! + P.fw
    const crr = st.crr + (st.crrShift[g.crrGroup] ?? 0)
    let szz = 0
    let szq = 0
    let prev = NaN
    for (let j = g.ja; j < g.jb; j++) {
      const q = alt[j]! - P.E[j]! + crr * P.C[j]! + cdaTot * P.B[j]!
      let r: number
      let z: number
      if (!Number.isFinite(q)) {
        r = 0
        z = 0
      } else if (Number.isFinite(prev)) {
        r = q - phi * prev
        z = 1 - phi
      } else {
        r = first * q
        z = first
      }
      prev = q
      res[j] = r
      P.z[j] = z
      const wj = w[j]!
      if (wj > 0) {
        szz += wj * z * z
        szq += wj * z * r
      }
      if (lev) lev[j] = q
    }
    const o = szz > 0 ? szq / szz : 0
    st.offsets[si] = o
    for (let j = g.ja; j < g.jb; j++) {
      const r = res[j]! - o * P.z[j]!
      res[j] = r
      if (lev) lev[j] = lev[j]! - o
      if (w[j]! > 0) sse += w[j]! * r * r
    }
  })
  return sse
}

/**
 * Huber weights from the current innovations (0 where the elevation is missing), with the
 * robust scale 1.4826·MAD (or a fixed one); returns the scale.
 */
export function huberWeights(
  P: VeProblem,
  alt: Float64Array,
  res: Float64Array,
  kH: number,
  w: Float64Array,
  fixedScale?: number,
): number {
  let scale = fixedScale ?? NaN
  if (fixedScale === undefined) {
    const abs = P.scratch
    let k = 0
    for (let j = 0; j < P.m; j++) if (Number.isFinite(alt[j])) abs[k++] = Math.abs(res[j]!)
    const sorted = abs.subarray(0, k).sort()
    scale =
      k === 0
        ? NaN
        : 1.4826 * (k % 2 ? sorted[(k - 1) >> 1]! : 0.5 * (sorted[k / 2 - 1]! + sorted[k / 2]!))
  }
  const cut = Number.isFinite(kH) && scale > 1e-12 ? kH * scale : Infinity
  for (let j = 0; j < P.m; j++) {
    if (!Number.isFinite(alt[j])) w[j] = 0
    else {
      const a = Math.abs(res[j]!)
      w[j] = a <= cut ? 1 : cut / a
    }
  }
  return scale
}

/** Where each parameter's column starts: CdA per group, Crr, the wind, the Crr shifts. */
function columnsOf(P: VeProblem) {
  const G = P.groups
  return {
    G,
    iCrr: G,
    iW: G + (P.crrFree ? 1 : 0),
    iS: P.iShift,
    shifts: P.crrFree ? P.crrShifts : 0,
  }
}

/**
 * Gauss–Newton with IRLS on (CdA per group, Crr?, wind?) for the GLS residuals, offsets
 * eliminated per segment. Returns the iterations used, or −1 when the normal equations are
 * singular.
 */
export function gaussNewton(
  P: VeProblem,
  alt: Float64Array,
  st: FitState,
  w: Float64Array,
  res: Float64Array,
  kH: number,
  maxIter: number,
  fixedScale?: number,
): number {
  const k = P.k
  const { G, iCrr, iW, iS, shifts } = columnsOf(P)
  const phi = P.phi
  const axis = P.axis
  const A = new Float64Array(k * k)
  const rhs = new Float64Array(k)
  const cols = new Int32Array(JT_STRIDE)
  const vals = new Float64Array(JT_STRIDE)
  const prevJ = new Float64Array(JT_STRIDE)
  const cur = new Float64Array(JT_STRIDE)
  const zj = new Float64Array(JT_STRIDE)
  P.aeroIntegrals(st.wE, st.wN)
  let sse = residuals(P, alt, st, w, res)
  let it = 0
  const jt = P.jt
  for (; it < maxIter; it++) {
    huberWeights(P, alt, res, kH, w, fixedScale)
    sse = residuals(P, alt, st, w, res)
    A.fill(0)
    rhs.fill(0)
    for (const g of P.segs) {
      const cdaTot = st.cda[g.group]! + P.fw
      let nc = 0
      cols[nc++] = g.group
      if (P.crrFree) cols[nc++] = iCrr
      if (P.windFree) {
        cols[nc++] = iW
        if (!axis) cols[nc++] = iW + 1
      }
      const shifted = shifts > 0 && g.crrGroup > 0
      if (shifted) cols[nc++] = iS + g.crrGroup - 1
      // Jacobian of the level residual (∂q/∂θ): CdA → B, Crr → C, wind → (CdA + Fw)·∂B, filtered
      // like the residuals, then the offset column z projected out per segment.
      zj.fill(0)
      let szz = 0
      let havePrev = false
      for (let j = g.ja; j < g.jb; j++) {
        cur[0] = P.B[j]!
        let c = 1
        if (P.crrFree) cur[c++] = P.C[j]!
        if (P.windFree) {
          if (axis) cur[c++] = cdaTot * (P.BE[j]! * axis[0] + P.BN[j]! * axis[1])
          else {
            cur[c++] = cdaTot * P.BE[j]!
            cur[c++] = cdaTot * P.BN[j]!
          }
        }
        if (shifted) cur[c] = P.C[j]!
        const z = P.z[j]!
        const base = j * JT_STRIDE
        for (let x = 0; x < nc; x++) {
          const v = z === 0 ? 0 : havePrev ? cur[x]! - phi * prevJ[x]! : z * cur[x]!
          jt[base + x] = v
          prevJ[x] = cur[x]!
        }
        havePrev = z !== 0
        const wj = w[j]!
        if (wj > 0 && z !== 0) {
          szz += wj * z * z
          for (let x = 0; x < nc; x++) zj[x]! += wj * z * jt[base + x]!
        }
      }
      if (szz <= 0) continue
      for (let x = 0; x < nc; x++) zj[x] = zj[x]! / szz
      for (let j = g.ja; j < g.jb; j++) {
        const wj = w[j]!
        if (wj <= 0) continue
        const z = P.z[j]!
        const base = j * JT_STRIDE
        for (let x = 0; x < nc; x++) vals[x] = jt[base + x]! - z * zj[x]!
        const r = res[j]!
        for (let x = 0; x < nc; x++) {
          const cx = cols[x]!
          const vx = wj * vals[x]!
          rhs[cx]! += vx * r
          for (let y = 0; y < nc; y++) A[cx * k + cols[y]!]! += vx * vals[y]!
        }
      }
    }
    // A group without samples keeps its value (a unit row instead of an empty one).
    for (let g = 0; g < G; g++) {
      if (A[g * k + g] === 0) A[g * k + g] = 1
    }
    for (let c = iS; c < iS + shifts; c++) if (A[c * k + c] === 0) A[c * k + c] = 1
    // res(θ + δ) ≈ res + J δ → δ = −(JᵀWJ)⁻¹ JᵀW res
    const d = solve(A, rhs, k)
    if (!d) return -1
    const step = lineSearch(P, alt, st, w, res, d, sse)
    if (step === 0) {
      it++
      break
    }
    let dmax = 0
    for (let g = 0; g < G; g++) dmax = Math.max(dmax, Math.abs(step * d[g]!) / 1e-5)
    if (P.crrFree) dmax = Math.max(dmax, Math.abs(step * d[iCrr]!) / 1e-6)
    for (let c = 0; c < shifts; c++) dmax = Math.max(dmax, Math.abs(step * d[iS + c]!) / 1e-6)
    if (P.windFree) {
      dmax = Math.max(
        dmax,
        Math.abs(step * d[iW]!) / 1e-3,
        axis ? 0 : Math.abs(step * d[iW + 1]!) / 1e-3,
      )
    }
    if (dmax < 1 && it > 0) {
      it++
      break
    }
  }
  huberWeights(P, alt, res, kH, w, fixedScale)
  residuals(P, alt, st, w, res)
  return it
}

/**
 * The Gauss–Newton step −δ, halved (at most 8 times) until the weighted sum of squares does not
 * grow; only a step in the wind can make it grow (the rest is linear). Returns the step taken,
 * or 0 (the state restored) when none helps.
 */
function lineSearch(
  P: VeProblem,
  alt: Float64Array,
  st: FitState,
  w: Float64Array,
  res: Float64Array,
  d: Float64Array,
  sse: number,
): number {
  const { G, iCrr, iW, iS, shifts } = columnsOf(P)
  const axis = P.axis
  const prevCda = Float64Array.from(st.cda)
  const prevCrr = st.crr
  const prevShift = Float64Array.from(st.crrShift)
  const prevE = st.wE
  const prevN = st.wN
  let step = 1
  for (let h = 0; h < 8; h++) {
    for (let g = 0; g < G; g++) st.cda[g] = prevCda[g]! - step * d[g]!
    if (P.crrFree) st.crr = prevCrr - step * d[iCrr]!
    for (let c = 1; c <= shifts; c++) st.crrShift[c] = prevShift[c]! - step * d[iS + c - 1]!
    if (P.windFree) {
      st.wE = prevE - step * (axis ? d[iW]! * axis[0] : d[iW]!)
      st.wN = prevN - step * (axis ? d[iW]! * axis[1] : d[iW + 1]!)
      P.aeroIntegrals(st.wE, st.wN)
    }
    const next = residuals(P, alt, st, w, res)
    if (next <= sse * (1 + 1e-12) || !P.windFree) return step
    step *= 0.5
  }
  st.cda.set(prevCda)
  st.crr = prevCrr
  st.crrShift.set(prevShift)
  st.wE = prevE
  st.wN = prevN
  P.aeroIntegrals(st.wE, st.wN)
  residuals(P, alt, st, w, res)
  return 0
}

/** Lag-1 autocorrelation of the level residuals within segments, clamped to [0, 0.995]. */
export function lagOne(P: VeProblem, lev: Float64Array, w: Float64Array): number {
  let sxy = 0
  let sxx = 0
  for (const g of P.segs) {
    for (let j = g.ja + 1; j < g.jb; j++) {
      const a = lev[j - 1]!
      const b = lev[j]!
      if (!Number.isFinite(a) || !Number.isFinite(b) || w[j]! <= 0) continue
      sxy += a * b
      sxx += a * a
    }
  }
  return sxx > 0 ? Math.min(0.995, Math.max(0, sxy / sxx)) : 0
}
