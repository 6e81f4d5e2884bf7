// Virtual elevation (Chung 2012, science.md §6.1): the power balance rearranged to a slope and
// integrated to an elevation profile, and the least-squares fit of CdA, Crr (and a constant wind)
// that makes it match the measured elevation (or a flat track), robust to GPS elevation noise
// (Huber IRLS), with a deterministic moving-block residual bootstrap for the 95 % intervals.
//
// Per sample i (energy form, Δt = t_i − t_{i−1}, v = ground speed, F = |Va|·(v + w∥) or the
// measured air speed squared, κ = (m + I/r²)/m):
//   ΔVE_i = η·P_i·Δt/(m·g) − κ·(v_i² − v_{i−1}²)/(2g) − P_WB(v_i)·Δt/(m·g)
//           − Crr·v_i·Δt − (CdA + Fw)·ρ_i·F_i·v_i·Δt/(2·m·g)
// With Fw = 0, no bearings and I = 0 this is Chung's / GoldenCheetah Aerolab's slope
// s = ηP/(v m g) − Crr − CdA·ρ·v²/(2 m g) − a/g, a = (v_i² − v_{i−1}²)/(2Δt·v_i), times v_i·Δt.
import { G0, MARTIN } from '../physics/constants.ts'
import type {
  VeFitOptions,
  VeFitResult,
  VeModelOptions,
  VeParams,
  VePiece,
  VeSeries,
  VeTrack,
} from './types.ts'
import { createRandom, median, quantile } from './random.ts'

/** Crr used when the data cannot separate it from CdA (asphalt, science.md §9.2). */
export const FALLBACK_CRR = 0.004
/** A fitted constant wind above this (m/s) is not believed: the fit is redone without wind. */
export const MAX_FITTED_WIND_MPS = 8
/** An elevation sample this far off the first fit's profile (m, and robust SDs) is a spike. */
const SPIKE_MIN_M = 4
const SPIKE_MADS = 8
/** Plausible range of a fitted Crr; outside it Crr is held at FALLBACK_CRR. */
const CRR_RANGE: [number, number] = [0.0015, 0.01]

interface ModelConstants {
  fw: number
  kappa: number
  bearings: boolean
}

function modelConstants(o: VeModelOptions, massKg: number): ModelConstants {
  const inertia = o.wheelInertiaKgM2 ?? MARTIN.wheelInertiaKgM2
  return {
    fw: o.spokeDragAreaM2 ?? MARTIN.spokeDragAreaM2,
    kappa: 1 + inertia / (MARTIN.wheelRadiusM * MARTIN.wheelRadiusM) / massKg,
    bearings: o.bearings ?? true,
  }
}

/** Aero "F" of one sample: speed² of the air along the bike axis times |Va| (or airspeed²). */
function aeroF(s: VeSeries, i: number, wE: number, wN: number): number {
  if (s.airspeed) {
    const a = s.airspeed[i]!
    return a * a
  }
  const v = s.speed[i]!
  const h = s.heading[i]!
  if ((wE === 0 && wN === 0) || !Number.isFinite(h)) return v * v
  const sh = Math.sin(h)
  const ch = Math.cos(h)
  const ax = v - (wE * sh + wN * ch)
  const lat = wE * ch - wN * sh
  return Math.sqrt(ax * ax + lat * lat) * ax
}

/**
 * Velodrome: change of kinetic energy (centre of mass translating at comSpeed, wheels spinning
 * at v) plus potential energy of the centre of mass (it drops by h·(1 − cos φ) in a bend), per m·g.
 */
function trackKinetic(track: VeTrack, i: number, v: number, v0: number, kappa: number): number {
  const c = track.comSpeed[i]!
  const c0 = track.comSpeed[i - 1]!
  return (
    (c * c - c0 * c0 + (kappa - 1) * (v * v - v0 * v0)) / (2 * G0) +
    track.comHeight[i]! -
    track.comHeight[i - 1]!
  )
}

/**
 * The VE trace of samples [start, end) for one set of parameters (the sliders): element k is
 * the virtual elevation at sample start + k, starting at `params.offsetM`. Unusable samples
 * (stopped, gaps, NaN) hold the trace flat. Writes into `out` when given (no allocation).
 */
export function virtualElevation(
  s: VeSeries,
  start: number,
  end: number,
  params: VeParams,
  out?: Float64Array,
): Float64Array {
  const len = Math.max(0, end - start)
  const ve = out && out.length >= len ? out : new Float64Array(len)
  const m = params.massKg
  const c = modelConstants(params, m)
  const mg = m * G0
  const eta = params.drivetrainEfficiency
  const cdaTot = params.cda + c.fw
  const crr = params.crr
  const wE = params.windE ?? 0
  const wN = params.windN ?? 0
  const { speed, power, dt, rho, valid } = s
  const track = s.track
  let h = params.offsetM ?? 0
  if (len > 0) ve[0] = h
  for (let i = start + 1; i < end; i++) {
    if (valid[i] === 1 && valid[i - 1] === 1) {
      const v = speed[i]!
      const v0 = speed[i - 1]!
      const d = dt[i]!
      const bear = c.bearings ? v * (MARTIN.bearingA + MARTIN.bearingB * v) : 0
      if (track) {
        h +=
          ((eta * power[i]! - bear) * d) / mg -
          trackKinetic(track, i, v, v0, c.kappa) -
          crr * track.normalFactor[i]! * v * d -
          (cdaTot * rho[i]! * track.comSpeed[i]! ** 3 * d) / (2 * mg)
      } else {
        h +=
          ((eta * power[i]! - bear) * d) / mg -
          (c.kappa * (v * v - v0 * v0)) / (2 * G0) -
          crr * v * d -
          (cdaTot * rho[i]! * aeroF(s, i, wE, wN) * v * d) / (2 * mg)
      }
    }
    ve[i - start] = h
  }
  return ve
}

/** Solves the symmetric system A x = r (k×k, row-major) by Gaussian elimination; null if singular. */
function solve(A: Float64Array, r: Float64Array, k: number): Float64Array | null {
  const M = Float64Array.from(A)
  const x = Float64Array.from(r)
  let scale = 0
  for (let i = 0; i < k; i++) scale = Math.max(scale, Math.abs(M[i * k + i]!))
  for (let col = 0; col < k; col++) {
    let piv = col
    for (let row = col + 1; row < k; row++) {
      if (Math.abs(M[row * k + col]!) > Math.abs(M[piv * k + col]!)) piv = row
    }
    if (!(Math.abs(M[piv * k + col]!) > 1e-11 * scale)) return null
    if (piv !== col) {
      for (let j = 0; j < k; j++) {
        const t = M[col * k + j]!
        M[col * k + j] = M[piv * k + j]!
        M[piv * k + j] = t
      }
      const t = x[col]!
      x[col] = x[piv]!
      x[piv] = t
    }
    for (let row = col + 1; row < k; row++) {
      const f = M[row * k + col]! / M[col * k + col]!
      if (f === 0) continue
      for (let j = col; j < k; j++) M[row * k + j]! -= f * M[col * k + j]!
      x[row]! -= f * x[col]!
    }
  }
  for (let row = k - 1; row >= 0; row--) {
    let acc = x[row]!
    for (let j = row + 1; j < k; j++) acc -= M[row * k + j]! * x[j]!
    x[row] = acc / M[row * k + row]!
  }
  return x
}

/**
 * Contiguous usable samples [a, b) of one piece, fitted with their own elevation offset. Fit
 * arrays are indexed by position in the concatenation of segments: [ja, ja + b − a).
 */
interface Segment {
  a: number
  b: number
  ja: number
  jb: number
  group: number
  piece: number
}

function buildSegments(s: VeSeries, pieces: VePiece[], mask: Uint8Array | undefined): Segment[] {
  const segs: Segment[] = []
  let j = 0
  pieces.forEach((p, pi) => {
    let a = -1
    const hi = Math.min(p.end, s.n)
    for (let i = Math.max(0, p.start); i <= hi; i++) {
      const ok = i < hi && s.valid[i] === 1 && (!mask || mask[i] === 1)
      if (ok && a < 0) a = i
      if (!ok && a >= 0) {
        if (i - a >= 5) {
          segs.push({ a, b: i, ja: j, jb: j + i - a, group: p.group, piece: pi })
          j += i - a
        }
        a = -1
      }
    }
  })
  return segs
}

/**
 * Working state of one fit, per position: the cumulative series of each segment (E: propulsion
 * minus kinetic and bearing terms, C: distance, B and its wind derivatives: the aero integral per
 * unit drag area), and what the aero integral needs per sample.
 */
class VeProblem {
  readonly m: number
  readonly E: Float64Array
  readonly C: Float64Array
  readonly B: Float64Array
  readonly BE: Float64Array
  readonly BN: Float64Array
  readonly v: Float64Array
  /** sin and cos of the heading (0 and 0 where unknown: no wind effect there). */
  readonly sh: Float64Array
  readonly ch: Float64Array
  /** ρ·v·Δt/(2mg) per sample. */
  readonly q: Float64Array
  /** Measured air speed squared, or null. */
  readonly a2: Float64Array | null
  /** AR(1) coefficient of the elevation errors (0 = ordinary least squares). */
  phi = 0
  /** With wind free: the one axis (east, north unit vector) it is fitted along (out-and-back), or null: both components. */
  axis: [number, number] | null = null
  /** Offset column of the filtered model, and the filtered Jacobian (4 per position). */
  readonly z: Float64Array
  readonly jt: Float64Array
  /** Work space for the robust scale's median. */
  readonly scratch: Float64Array
  constructor(
    readonly segs: Segment[],
    readonly groups: number,
    readonly fw: number,
    readonly crrFree: boolean,
    readonly windFree: boolean,
    base?: VeProblem,
    s?: VeSeries,
    mg = 1,
    c?: ModelConstants,
    eta = 1,
  ) {
    if (base) {
      this.m = base.m
      this.E = base.E
      this.C = base.C
      this.v = base.v
      this.sh = base.sh
      this.ch = base.ch
      this.q = base.q
      this.a2 = base.a2
    } else {
      const last = segs[segs.length - 1]
      const m = last ? last.jb : 0
      this.m = m
      this.E = new Float64Array(m)
      this.C = new Float64Array(m)
      this.v = new Float64Array(m)
      this.sh = new Float64Array(m)
      this.ch = new Float64Array(m)
      this.q = new Float64Array(m)
      this.a2 = s!.airspeed ? new Float64Array(m) : null
      const { speed, power, dt, heading, rho, airspeed } = s!
      const track = s!.track
      for (const g of segs) {
        let e = 0
        let cc = 0
        for (let i = g.a, j = g.ja; i < g.b; i++, j++) {
          const v = speed[i]!
          const h = heading[i]!
          const known = Number.isFinite(h)
          // The aero term's speed: the centre of mass on a velodrome (air speed = it, indoors).
          this.v[j] = track ? track.comSpeed[i]! : v
          this.sh[j] = known ? Math.sin(h) : 0
          this.ch[j] = known ? Math.cos(h) : 0
          if (this.a2) this.a2[j] = airspeed![i]! * airspeed![i]!
          if (i > g.a) {
            const v0 = speed[i - 1]!
            const d = dt[i]!
            const bear = c!.bearings ? v * (MARTIN.bearingA + MARTIN.bearingB * v) : 0
            if (track) {
              // Velodrome: rolling under the lean's normal load, air drag at the centre of mass.
              e += ((eta * power[i]! - bear) * d) / mg - trackKinetic(track, i, v, v0, c!.kappa)
              cc += track.normalFactor[i]! * v * d
              this.q[j] = (rho[i]! * track.comSpeed[i]! * d) / (2 * mg)
            } else {
              e += ((eta * power[i]! - bear) * d) / mg - (c!.kappa * (v * v - v0 * v0)) / (2 * G0)
              cc += v * d
              this.q[j] = (rho[i]! * v * d) / (2 * mg)
            }
          }
          this.E[j] = e
          this.C[j] = cc
        }
      }
    }
    this.B = new Float64Array(this.m)
    this.BE = new Float64Array(this.m)
    this.BN = new Float64Array(this.m)
    this.z = new Float64Array(this.m)
    this.jt = new Float64Array(4 * this.m)
    this.scratch = new Float64Array(this.m)
    if (base) this.phi = base.phi
  }

  get k(): number {
    return this.groups + (this.crrFree ? 1 : 0) + (this.windFree ? (this.axis ? 1 : 2) : 0)
  }

  /** Fills B (and its wind derivatives when wind is free) for wind (wE, wN). */
  aeroIntegrals(wE: number, wN: number): void {
    const { B, BE, BN, sh, ch, q, v: vs, a2 } = this
    const windy = this.windFree || wE !== 0 || wN !== 0
    for (const g of this.segs) {
      let b = 0
      let be = 0
      let bn = 0
      for (let j = g.ja; j < g.jb; j++) {
        const w = q[j]!
        if (a2) {
          b += w * a2[j]!
        } else if (!windy) {
          const v = vs[j]!
          b += w * v * v
        } else {
          // Where the heading is unknown sh = ch = 0: the wind has no effect.
          const v = vs[j]!
          const si = sh[j]!
          const ci = ch[j]!
          const ax = v - (wE * si + wN * ci)
          const lat = wE * ci - wN * si
          const va = Math.sqrt(ax * ax + lat * lat)
          b += w * va * ax
          // d(va·ax)/dW = ax·dva/dW + va·dax/dW, dax/dW = −u, dva/dW = (−ax·u + lat·n)/va
          const inv = va > 1e-9 ? 1 / va : 0
          be += w * (ax * (-ax * si + lat * ci) * inv - va * si)
          bn += w * (ax * (-ax * ci - lat * si) * inv - va * ci)
        }
        B[j] = b
        BE[j] = be
        BN[j] = bn
      }
    }
  }
}

interface FitState {
  cda: Float64Array
  crr: number
  wE: number
  wN: number
  offsets: Float64Array
}

/**
 * Residuals of the fit, GLS with AR(1) errors (Prais–Winsten, coefficient φ): the level
 * residual q = alt − (E − Crr·C − (CdA + Fw)·B) is filtered to innovations
 * q̃_j = q_j − φ·q_{j−1} (q̃ = √(1−φ²)·q at a segment's first sample), the segment's offset o
 * enters as o·z (z = 1 − φ, or √(1−φ²) first) and is eliminated by weighted least squares.
 * Writes innovations into `res`, level residuals (q − o) into `lev` when given, offsets into
 * st.offsets; returns the weighted sum of squared innovations.
 */
function residuals(
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
    let szz = 0
    let szq = 0
    let prev = NaN
    for (let j = g.ja; j < g.jb; j++) {
      const q = alt[j]! - P.E[j]! + st.crr * P.C[j]! + cdaTot * P.B[j]!
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
function huberWeights(
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

/**
 * Gauss–Newton with IRLS on (CdA per group, Crr?, wind?) for the GLS residuals, offsets
 * eliminated per segment. Returns the iterations used, or −1 when the normal equations are
 * singular.
 */
function gaussNewton(
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
  const G = P.groups
  const iCrr = G
  const iW = G + (P.crrFree ? 1 : 0)
  const phi = P.phi
  const axis = P.axis
  const A = new Float64Array(k * k)
  const rhs = new Float64Array(k)
  const cols = new Int32Array(4)
  const vals = new Float64Array(4)
  const prevJ = new Float64Array(4)
  const cur = new Float64Array(4)
  const zj = new Float64Array(4)
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
          if (axis) cur[c] = cdaTot * (P.BE[j]! * axis[0] + P.BN[j]! * axis[1])
          else {
            cur[c++] = cdaTot * P.BE[j]!
            cur[c] = cdaTot * P.BN[j]!
          }
        }
        const z = P.z[j]!
        const base = j * 4
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
        const base = j * 4
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
    // res(θ + δ) ≈ res + J δ → δ = −(JᵀWJ)⁻¹ JᵀW res
    const d = solve(A, rhs, k)
    if (!d) return -1
    let step = 1
    let accepted = false
    const prevCda = Float64Array.from(st.cda)
    const prevCrr = st.crr
    const prevE = st.wE
    const prevN = st.wN
    for (let h = 0; h < 8; h++) {
      for (let g = 0; g < G; g++) st.cda[g] = prevCda[g]! - step * d[g]!
      if (P.crrFree) st.crr = prevCrr - step * d[iCrr]!
      if (P.windFree) {
        st.wE = prevE - step * (axis ? d[iW]! * axis[0] : d[iW]!)
        st.wN = prevN - step * (axis ? d[iW]! * axis[1] : d[iW + 1]!)
        P.aeroIntegrals(st.wE, st.wN)
      }
      const next = residuals(P, alt, st, w, res)
      if (next <= sse * (1 + 1e-12) || !P.windFree) {
        accepted = true
        break
      }
      step *= 0.5
    }
    if (!accepted) {
      st.cda.set(prevCda)
      st.crr = prevCrr
      st.wE = prevE
      st.wN = prevN
      P.aeroIntegrals(st.wE, st.wN)
      residuals(P, alt, st, w, res)
      it++
      break
    }
    let dmax = 0
    for (let g = 0; g < G; g++) dmax = Math.max(dmax, Math.abs(step * d[g]!) / 1e-5)
    if (P.crrFree) dmax = Math.max(dmax, Math.abs(step * d[iCrr]!) / 1e-6)
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

/** Jackknife standard error of leave-one-block-out estimates, and its degrees of freedom. */
function jackknifeSe(xs: number[]): [number, number] {
  const k = xs.length
  if (k < 2) return [NaN, 0]
  const mean = xs.reduce((a, b) => a + b, 0) / k
  const v = ((k - 1) / k) * xs.reduce((a, b) => a + (b - mean) ** 2, 0)
  return [Math.sqrt(v), k - 1]
}

/** Student t quantile 0.975 for `dof` degrees of freedom (table to 30, then 1.96 + 2.4/dof). */
export function tQuantile975(dof: number): number {
  const T = [
    NaN,
    12.706,
    4.303,
    3.182,
    2.776,
    2.571,
    2.447,
    2.365,
    2.306,
    2.262,
    2.228,
    2.201,
    2.179,
    2.16,
    2.145,
    2.131,
    2.12,
    2.11,
    2.101,
    2.093,
    2.086,
    2.08,
    2.074,
    2.069,
    2.064,
    2.06,
    2.056,
    2.052,
    2.048,
    2.045,
    2.042,
  ]
  if (!(dof >= 1)) return NaN
  return dof <= 30 ? T[Math.floor(dof)]! : 1.96 + 2.4 / dof
}

/** Lag-1 autocorrelation of the level residuals within segments, clamped to [0, 0.995]. */
function lagOne(P: VeProblem, lev: Float64Array, w: Float64Array): number {
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

/**
 * Whether a constant wind can be told apart from CdA: headings known and not mostly one way.
 * Both components when the headings spread over two axes; along the road only when they are
 * one axis ridden both ways (out-and-back: crosswind is then invisible); else none.
 */
function windIdentifiable(
  s: VeSeries,
  segs: Segment[],
): { dims: 0 | 1 | 2; axis: [number, number] } {
  const none = { dims: 0 as const, axis: [0, 0] as [number, number] }
  if (s.airspeed) return none
  let sx = 0
  let sy = 0
  let sxx = 0
  let sxy = 0
  let syy = 0
  let sd = 0
  let known = 0
  let all = 0
  for (const g of segs) {
    for (let i = g.a + 1; i < g.b; i++) {
      all++
      const h = s.heading[i]!
      if (!Number.isFinite(h)) continue
      known++
      const d = s.speed[i]! * s.dt[i]!
      const e = Math.sin(h)
      const n = Math.cos(h)
      sx += d * e
      sy += d * n
      sxx += d * e * e
      sxy += d * e * n
      syy += d * n * n
      sd += d
    }
  }
  if (!(all > 0 && known >= 0.9 * all && sd > 0 && Math.hypot(sx, sy) / sd < 0.7)) return none
  const a = sxx / sd
  const b = sxy / sd
  const c = syy / sd
  const minor = 0.5 * (a + c) - Math.sqrt(0.25 * (a - c) ** 2 + b * b)
  if (minor > 0.12) return { dims: 2, axis: [0, 0] }
  const th = 0.5 * Math.atan2(2 * b, a - c)
  return { dims: 1, axis: [Math.cos(th), Math.sin(th)] }
}

/**
 * Least-squares fit of CdA (per group), Crr (unless fixed) and, where headings vary enough, a
 * constant wind, to the measured elevation (flat when the series has none: a velodrome), each
 * piece with its own elevation offset. A piece is cut where samples are unusable or masked out
 * (a stop or braking loses energy the model does not know), so masked samples also break the
 * trace, and each part gets its own offset. Robust: Huber IRLS (k = 1.345 robust SDs).
 * Intervals: moving-block bootstrap of the residuals around the fitted profile (seeded).
 */
export function fitVirtualElevation(s: VeSeries, pieces: VePiece[], o: VeFitOptions): VeFitResult {
  const groups = o.groups ?? 1
  const segs = buildSegments(s, pieces, o.mask)
  const warnings: string[] = []
  const mg = o.massKg * G0
  const c = modelConstants(o, o.massKg)
  const kH = o.huberK ?? 1.345
  let crrFree = o.crr === undefined
  const windId =
    (o.fitWind ?? true) ? windIdentifiable(s, segs) : { dims: 0, axis: [0, 0] as [number, number] }
  const windFree = windId.dims > 0
  const windAxis: [number, number] | null = windId.dims === 1 ? windId.axis : null
  const groupUsed = new Uint8Array(groups)
  for (const g of segs) groupUsed[g.group] = 1
  for (let g = 0; g < groups; g++) if (!groupUsed[g]) warnings.push(`group ${g}: no usable samples`)

  const emptyResult = (): VeFitResult => ({
    cda: new Array<number>(groups).fill(NaN),
    cdaCi95: Array.from({ length: groups }, () => [NaN, NaN] as [number, number]),
    crr: o.crr ?? NaN,
    crrCi95: [o.crr ?? NaN, o.crr ?? NaN],
    crrFixed: !crrFree,
    windE: 0,
    windN: 0,
    windFitted: false,
    offsets: pieces.map(() => NaN),
    residuals: new Float64Array(s.n).fill(NaN),
    phi: 0,
    cdaSe: new Array<number>(groups).fill(NaN),
    cdaSeOwn: new Array<number>(groups).fill(NaN),
    blocks: [],
    cdaDof: new Array<number>(groups).fill(0),
    crrSe: NaN,
    crrDof: 0,
    rmseM: NaN,
    pieceRmseM: pieces.map(() => NaN),
    samplesUsed: 0,
    iterations: 0,
    bootstrapCda: [],
    bootstrapCrr: new Float64Array(0),
    warnings,
  })
  if (segs.length === 0) {
    warnings.push('no usable samples (moving, with power and speed) to fit')
    return emptyResult()
  }

  const base = new VeProblem(
    segs,
    groups,
    c.fw,
    crrFree,
    false,
    undefined,
    s,
    mg,
    c,
    o.drivetrainEfficiency,
  )
  const m = base.m
  const alt = new Float64Array(m)
  for (const g of segs) {
    for (let i = g.a, j = g.ja; i < g.b; i++, j++) alt[j] = s.elevation ? s.elevation[i]! : 0
  }
  const w = new Float64Array(m)
  const res = new Float64Array(m)
  let windOn = windFree
  const initWeights = (): void => {
    for (let j = 0; j < m; j++) w[j] = Number.isFinite(alt[j]) ? 1 : 0
  }
  const start = (): FitState => ({
    cda: new Float64Array(groups).fill(0.3),
    crr: o.crr ?? FALLBACK_CRR,
    wE: windOn ? 0 : (o.windE ?? 0),
    wN: windOn ? 0 : (o.windN ?? 0),
    offsets: new Float64Array(segs.length),
  })
  let P = new VeProblem(segs, groups, c.fw, crrFree, windOn, base)
  P.axis = windAxis
  let st = start()
  const lev = new Float64Array(m)
  const gls = o.gls ?? true
  // Ordinary least squares without wind first (a good start), with wind, then GLS with the AR(1)
  // coefficient of the residuals (Cochrane–Orcutt, two rounds).
  const fitAll = (): number => {
    P.phi = 0
    initWeights()
    if (windOn) {
      const P0 = new VeProblem(segs, groups, c.fw, crrFree, false, base)
      if (gaussNewton(P0, alt, st, w, res, kH, 6) < 0) return -1
      initWeights()
    }
    let r = gaussNewton(P, alt, st, w, res, kH, 40)
    // Elevation spikes (GPS): samples far off the first fit's profile are ignored.
    if (r >= 0 && s.elevation) {
      residuals(P, alt, st, w, res, lev)
      const dev: number[] = []
      for (let j = 0; j < m; j++) if (Number.isFinite(alt[j])) dev.push(lev[j]!)
      const mid = median(dev)
      const mad = median(dev.map((x) => Math.abs(x - mid)))
      const cut = Math.max(SPIKE_MIN_M, SPIKE_MADS * 1.4826 * mad)
      let spikes = 0
      for (let j = 0; j < m; j++) {
        if (Number.isFinite(alt[j]) && Math.abs(lev[j]! - mid) > cut) {
          alt[j] = NaN
          spikes++
        }
      }
      if (spikes > 0) {
        warnings.push(
          `${spikes} elevation samples more than ${cut.toFixed(1)} m off the profile ignored`,
        )
        initWeights()
        r = gaussNewton(P, alt, st, w, res, kH, 40)
      }
    }
    for (let round = 0; gls && r >= 0 && round < 2; round++) {
      residuals(P, alt, st, w, res, lev)
      P.phi = lagOne(P, lev, w)
      initWeights()
      r = gaussNewton(P, alt, st, w, res, kH, 40)
    }
    return r
  }
  const refit = (): number => {
    P = new VeProblem(segs, groups, c.fw, crrFree, windOn, base)
    P.axis = windAxis
    st = start()
    return fitAll()
  }
  let it = fitAll()
  if (windOn && it >= 0 && !(Math.hypot(st.wE, st.wN) <= MAX_FITTED_WIND_MPS)) {
    warnings.push(
      `fitted wind ${Math.hypot(st.wE, st.wN).toFixed(1)} m/s is implausible: fitted without wind`,
    )
    windOn = false
    it = refit()
  }
  const implausible = crrFree && it >= 0 && !(st.crr >= CRR_RANGE[0] && st.crr <= CRR_RANGE[1])
  if (crrFree && (it < 0 || implausible)) {
    warnings.push(
      implausible
        ? `fitted Crr ${st.crr.toFixed(4)} is implausible (too little speed variation): held at ${FALLBACK_CRR}`
        : `Crr could not be separated from CdA (too little speed variation): held at ${FALLBACK_CRR}`,
    )
    crrFree = false
    it = refit()
    if (windOn && it >= 0 && !(Math.hypot(st.wE, st.wN) <= MAX_FITTED_WIND_MPS)) {
      windOn = false
      it = refit()
    }
  }
  if (it < 0) {
    warnings.push('CdA could not be fitted (the data do not determine it)')
    return emptyResult()
  }
  residuals(P, alt, st, w, res, lev)

  // Summary of the fit (level residuals: measured − virtual elevation), back in sample indices.
  let n = 0
  let ss = 0
  const pieceSs = new Float64Array(pieces.length)
  const pieceN = new Float64Array(pieces.length)
  const residOut = new Float64Array(s.n).fill(NaN)
  for (const g of segs) {
    for (let i = g.a, j = g.ja; i < g.b; i++, j++) {
      if (!Number.isFinite(alt[j])) continue
      const r = lev[j]!
      residOut[i] = r
      ss += r * r
      n++
      pieceSs[g.piece]! += r * r
      pieceN[g.piece]!++
    }
  }
  const offsets = pieces.map(() => NaN)
  segs.forEach((g, si) => {
    if (Number.isNaN(offsets[g.piece]!)) offsets[g.piece] = st.offsets[si]!
  })

  // Bootstrap: moving blocks of the innovations, turned back into AR(1) elevation errors around
  // the fitted profile, refitted with φ and the Huber scale held.
  const B = o.resamples ?? 200
  const bootCda = Array.from({ length: groups }, () => new Float64Array(B).fill(NaN))
  const bootCrr = new Float64Array(B).fill(NaN)
  const cdaCi95: Array<[number, number]> = []
  let crrCi95: [number, number] = [st.crr, st.crr]
  const cdaSe = new Array<number>(groups).fill(NaN)
  const cdaDof = new Array<number>(groups).fill(0)
  const cdaSeOwn = new Array<number>(groups).fill(NaN)
  const blocks: NonNullable<VeFitResult['blocks']> = []
  let crrSe = crrFree ? NaN : 0
  let crrDof = 0
  const interval = o.interval ?? 'jackknife'
  if (B > 0 && n > 10 && interval === 'jackknife') {
    // Delete-a-block jackknife: contiguous blocks of ≈ blockS seconds (at least 4, at most 20
    // per group) are left out in turn and the fit is repeated (φ and the Huber scale held);
    // variance (G − 1)/G·Σ(θ₋ₖ − θ̄)², interval θ̂ ± t(0.975, G − 1)·SE.
    const scale = huberWeights(P, alt, res, kH, new Float64Array(m))
    const medDt = median(s.dt.subarray(1)) || 1
    const blockLen = Math.max(1, Math.round((o.blockS ?? 120) / medDt))
    const alt2 = new Float64Array(m)
    const w2 = new Float64Array(m)
    const res2 = new Float64Array(m)
    const st2: FitState = {
      ...st,
      cda: Float64Array.from(st.cda),
      offsets: Float64Array.from(st.offsets),
    }
    const leaveOut = (positions: Int32Array, lo: number, hi: number, Q: VeProblem = P): boolean => {
      alt2.set(alt)
      for (let k = lo; k < hi; k++) alt2[positions[k]!] = NaN
      st2.cda.set(st.cda)
      st2.crr = st.crr
      st2.wE = st.wE
      st2.wN = st.wN
      w2.set(w)
      return gaussNewton(Q, alt2, st2, w2, res2, kH, Q.windFree ? 6 : 4, scale) >= 0
    }
    const blocksOf = (count: number): number =>
      Math.max(4, Math.min(20, Math.round(count / blockLen)))
    const byGroup: number[][] = Array.from({ length: groups }, () => [])
    for (const g of segs)
      for (let j = g.ja; j < g.jb; j++) if (Number.isFinite(alt[j])) byGroup[g.group]!.push(j)
    const all = Int32Array.from(byGroup.flat().sort((x, y) => x - y))
    // Crr (shared by the groups): blocks over all the samples; with one group the same pass gives CdA.
    // Session blocks over all the samples: Crr's (and with one group CdA's) interval, and the
    // replicates of every group's CdA. With Crr and wind held and `o.sessionBlocks` given,
    // replicate k refits all the data with the session's block-k Crr and wind: the spread of
    // derived quantities (ΔCdA) over them is the shared parameters' share of their variance.
    const held = o.sessionBlocks
    if (crrFree || groups === 1 || held || windOn) {
      const G = blocksOf(all.length)
      const crrs: number[] = []
      const cdas: number[] = []
      for (let k = 0; k < G; k++) {
        const lo = Math.floor((k * all.length) / G)
        const hi = Math.floor(((k + 1) * all.length) / G)
        const hb = held && held.length === G ? held[k]! : null
        alt2.set(alt)
        // Held replicates keep all the data: they carry only the shared parameters' variation
        // (each run's own error is in its per-group interval).
        if (!hb) for (let x = lo; x < hi; x++) alt2[all[x]!] = NaN
        st2.cda.set(st.cda)
        st2.crr = hb && !crrFree ? hb.crr : st.crr
        st2.wE = hb && !P.windFree ? hb.windE : st.wE
        st2.wN = hb && !P.windFree ? hb.windN : st.wN
        w2.set(w)
        if (gaussNewton(P, alt2, st2, w2, res2, kH, P.windFree ? 6 : 4, scale) < 0) continue
        crrs.push(st2.crr)
        cdas.push(st2.cda[0]!)
        blocks.push({ cda: Float64Array.from(st2.cda), crr: st2.crr, windE: st2.wE, windN: st2.wN })
      }
      if (crrFree) [crrSe, crrDof] = jackknifeSe(crrs)
      if (groups === 1) [cdaSe[0], cdaDof[0]] = jackknifeSe(cdas)
    }
    for (let g = 0; groups > 1 && g < groups; g++) {
      const pos = Int32Array.from(byGroup[g]!)
      if (pos.length < 8) continue
      const G = blocksOf(pos.length)
      const cdas: number[] = []
      // With Crr and wind held, the groups share nothing: refit only this group's segments.
      let Q = P
      if (!P.crrFree && !P.windFree) {
        Q = new VeProblem(
          segs.filter((x) => x.group === g),
          groups,
          c.fw,
          false,
          false,
          base,
        )
        Q.phi = P.phi
      }
      for (let k = 0; k < G; k++) {
        const lo = Math.floor((k * pos.length) / G)
        if (!leaveOut(pos, lo, Math.floor(((k + 1) * pos.length) / G), Q)) continue
        cdas.push(st2.cda[g]!)
      }
      ;[cdaSe[g], cdaDof[g]] = jackknifeSe(cdas)
    }
    cdaSeOwn.splice(0, groups, ...cdaSe)
    // A fixed Crr's own uncertainty (from an earlier fit) carried into CdA by the sensitivity.
    if (!crrFree && o.crrSe !== undefined && o.crrSe > 0) {
      const h = Math.max(1e-5, o.crrSe)
      alt2.set(alt)
      st2.cda.set(st.cda)
      st2.crr = st.crr + h
      st2.wE = st.wE
      st2.wN = st.wN
      w2.set(w)
      if (gaussNewton(P, alt2, st2, w2, res2, kH, P.windFree ? 6 : 4, scale) >= 0) {
        for (let g = 0; g < groups; g++) {
          const dc = ((st2.cda[g]! - st.cda[g]!) / h) * o.crrSe
          cdaSe[g] = Math.sqrt(cdaSe[g]! ** 2 + dc * dc)
        }
      }
    }
    for (let g = 0; g < groups; g++) {
      const hw = tQuantile975(cdaDof[g]!) * cdaSe[g]!
      cdaCi95.push([st.cda[g]! - hw, st.cda[g]! + hw])
    }
    if (crrFree) {
      const hw = tQuantile975(crrDof) * crrSe
      crrCi95 = [st.crr - hw, st.crr + hw]
    }
  } else if (B > 0 && n > 10) {
    // Moving-block bootstrap of the innovations (interval: 'bootstrap').
    const scale = huberWeights(P, alt, res, kH, new Float64Array(m))
    const pool = new Float64Array(n)
    let np = 0
    for (let j = 0; j < m; j++) if (Number.isFinite(alt[j])) pool[np++] = res[j]!
    // Inflate for the parameters and offsets the fit used up.
    const infl = Math.sqrt(n / Math.max(1, n - P.k - segs.length))
    const medDt = median(s.dt.subarray(1))
    const L = Math.max(1, Math.min(np, Math.round((o.blockS ?? 30) / (medDt > 0 ? medDt : 1))))
    const rand = createRandom(o.seed ?? 1)
    const phi = P.phi
    const first = 1 / Math.sqrt(1 - phi * phi)
    const fitted = new Float64Array(m)
    for (let j = 0; j < m; j++) fitted[j] = alt[j]! - lev[j]!
    const alt2 = new Float64Array(m)
    const w2 = new Float64Array(m)
    const res2 = new Float64Array(m)
    const st2: FitState = {
      ...st,
      cda: Float64Array.from(st.cda),
      offsets: Float64Array.from(st.offsets),
    }
    for (let b = 0; b < B; b++) {
      for (const g of segs) {
        let k = 0
        let left = 0
        let e = NaN
        for (let j = g.ja; j < g.jb; j++) {
          if (!Number.isFinite(alt[j])) {
            alt2[j] = NaN
            e = NaN
            continue
          }
          if (left === 0) {
            k = Math.floor(rand() * (np - L + 1))
            left = L
          }
          const innov = infl * pool[k++]!
          left--
          e = Number.isFinite(e) ? phi * e + innov : first * innov
          alt2[j] = fitted[j]! + e
        }
      }
      st2.cda.set(st.cda)
      st2.crr = !crrFree && o.crrReplicates ? o.crrReplicates[b % o.crrReplicates.length]! : st.crr
      st2.wE = st.wE
      st2.wN = st.wN
      w2.set(w)
      if (gaussNewton(P, alt2, st2, w2, res2, kH, P.windFree ? 3 : 2, scale) < 0) continue
      for (let g = 0; g < groups; g++) bootCda[g]![b] = st2.cda[g]!
      bootCrr[b] = st2.crr
    }
    for (let g = 0; g < groups; g++) {
      cdaCi95.push([quantile(bootCda[g]!, 0.025), quantile(bootCda[g]!, 0.975)])
    }
    if (crrFree) crrCi95 = [quantile(bootCrr, 0.025), quantile(bootCrr, 0.975)]
  } else {
    for (let g = 0; g < groups; g++) cdaCi95.push([NaN, NaN])
    if (crrFree) crrCi95 = [NaN, NaN]
  }

  return {
    cda: Array.from(st.cda, (x, g) => (groupUsed[g] ? x : NaN)),
    cdaCi95,
    crr: st.crr,
    crrCi95,
    crrFixed: !crrFree,
    windE: st.wE,
    windN: st.wN,
    windFitted: P.windFree,
    offsets,
    residuals: residOut,
    rmseM: n > 0 ? Math.sqrt(ss / n) : NaN,
    pieceRmseM: Array.from(pieceSs, (x, p) => (pieceN[p]! > 0 ? Math.sqrt(x / pieceN[p]!) : NaN)),
    samplesUsed: n,
    iterations: it,
    phi: P.phi,
    cdaSe,
    cdaSeOwn,
    blocks,
    cdaDof,
    crrSe,
    crrDof,
    bootstrapCda: bootCda,
    bootstrapCrr: bootCrr,
    warnings,
  }
}
