// The least-squares problem of a virtual-elevation fit: the usable stretches of the pieces
// (segments, each with its own offset), their cumulative energy, distance and aero integrals
// (`VeProblem`), the fit's state, a small linear solver and whether a constant wind can be fitted.
import { G0, MARTIN } from '../physics/constants.ts'
import type { VePiece, VeSeries } from './types.ts'
import { trackKinetic, type ModelConstants } from './ve-model.ts'

/** Solves the symmetric system A x = r (k×k, row-major) by Gaussian elimination; null if singular. */
export function solve(A: Float64Array, r: Float64Array, k: number): Float64Array | null {
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
export interface Segment {
  a: number
  b: number
  ja: number
  jb: number
  group: number
  piece: number
  /** Its rolling resistance's group (VePiece.crrGroup). */
  crrGroup: number
}

export function buildSegments(
  s: VeSeries,
  pieces: VePiece[],
  mask: Uint8Array | undefined,
): Segment[] {
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
          segs.push({
            a,
            b: i,
            ja: j,
            jb: j + i - a,
            group: p.group,
            piece: pi,
            crrGroup: p.crrGroup ?? 0,
          })
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
export class VeProblem {
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
  /** With Crr free: the rolling-resistance groups after the first, each fitted as a shift of Crr. */
  crrShifts = 0
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
    this.jt = new Float64Array(JT_STRIDE * this.m)
    this.scratch = new Float64Array(this.m)
    if (base) this.phi = base.phi
  }

  get k(): number {
    return this.iShift + (this.crrFree ? this.crrShifts : 0)
  }

  /** Index of the first Crr shift's column (after CdA, Crr and the wind). */
  get iShift(): number {
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

/** Columns per position of the filtered Jacobian: CdA, Crr, two wind components, a Crr shift. */
export const JT_STRIDE = 5

export interface FitState {
  cda: Float64Array
  crr: number
  /** Per rolling-resistance group, its Crr minus group 0's (index 0 stays 0). */
  crrShift: Float64Array
  wE: number
  wN: number
  offsets: Float64Array
}

/**
 * Whether a constant wind can be told apart from CdA: headings known and not mostly one way.
 * Both components when the headings spread over two axes; along the road only when they are
 * one axis ridden both ways (out-and-back: crosswind is then invisible); else none.
 */
export function windIdentifiable(
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
