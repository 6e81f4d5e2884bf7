// One segment of the forward simulation, integrated in distance (docs/engine/science.md §1.1).
//
// Scheme: energy balance over the segment with the mean speed ū = (v0 + v1)/2,
//   ½·mKE·(v1² − v0²) = (η·P/ū − F(ū))·ds,   t = ds/ū,
// where F is the resisting force along the road (aero with the full apparent-wind vector,
// rolling, bearings, gravity). Substituting v1 = 2ū − v0 gives one scalar equation in ū,
//   h(ū) = 2·mKE·ū²·(ū − v0)/ds + F(ū)·ū − η·P = 0,
// solved by a bracketed Newton iteration for its largest root (the physical branch).
// The scheme is second order in ds, exact for constant deceleration, works from a standing
// start (v0 = 0), and conserves energy by construction: crank work × η equals the change of
// potential and kinetic energy plus the losses, segment by segment.
// With kinetic energy off (mKE = 0) the speed is the segment's steady speed: v1 = ū.
//
// Partial derivatives of (v1, t, applied power) with respect to (v0, P) are returned too, from
// the implicit function theorem on h, so the pacing optimizer can run an exact adjoint sweep.
import type { SimModel } from './model.ts'
import { G0 } from '../physics/constants.ts'

export const STEP_FREE = 0
/** The exit speed was held at the cornering/braking envelope: power eased off or brakes used. */
export const STEP_CAPPED = 1
/** The rider cannot keep moving (stops within the segment or slows below the minimum speed). */
export const STEP_STALLED = 2

/** Output of `step`, reused between calls (no allocation in the hot loop). */
export interface StepResult {
  /** Exit speed (m/s). */
  v1: number
  /** Duration (s); Infinity when stalled. */
  t: number
  /** Mean ground speed ū (m/s). */
  vMean: number
  /** Crank power actually applied (W): the requested power, or less when capped. */
  power: number
  /** Energy dissipated by the brakes (J). */
  brakeJ: number
  status: number
  dv1dv0: number
  dv1dP: number
  dtdv0: number
  dtdP: number
  /** Derivatives of the applied power (1 and 0 unless capped). */
  dPdv0: number
  dPdP: number
}

export function createStepResult(): StepResult {
  return {
    v1: 0,
    t: 0,
    vMean: 0,
    power: 0,
    brakeJ: 0,
    status: STEP_FREE,
    dv1dv0: 0,
    dv1dP: 0,
    dtdv0: 0,
    dtdP: 0,
    dPdv0: 0,
    dPdP: 0,
  }
}

/** Resisting force along the road (N) on segment i at ground speed u. Aero acts along the
 * apparent wind; its along-track component is ½ρ(CdA+Fw)·Va·(u + w∥). */
export function resistiveForce(m: SimModel, i: number, u: number): number {
  const a = u + m.wPar[i]!
  const c = m.wPerp[i]!
  const va = Math.sqrt(a * a + c * c)
  return (
    m.mass * G0 * (m.sinT[i]! + m.crr[i]! * m.cosT[i]!) +
    m.bA +
    m.bB * u +
    m.halfCda * m.rho[i]! * va * a
  )
}

/** dF/du on segment i. */
export function resistiveForceDerivative(m: SimModel, i: number, u: number): number {
  const a = u + m.wPar[i]!
  const c = m.wPerp[i]!
  const va = Math.sqrt(a * a + c * c)
  return m.bB + m.halfCda * m.rho[i]! * (va > 1e-12 ? va + (a * a) / va : 0)
}

// h(u) and, through the module-level HP, h'(u): one square root per evaluation.
let HP = 0
function evalH(m: SimModel, i: number, u: number, v0: number, ds: number, etaP: number): number {
  const a = u + m.wPar[i]!
  const c = m.wPerp[i]!
  const va = Math.sqrt(a * a + c * c)
  const hr = m.halfCda * m.rho[i]!
  const f = m.mass * G0 * (m.sinT[i]! + m.crr[i]! * m.cosT[i]!) + m.bA + m.bB * u + hr * va * a
  const fp = m.bB + hr * (va > 1e-12 ? va + (a * a) / va : 0)
  const k = (2 * m.mKE) / ds
  HP = k * (3 * u * u - 2 * u * v0) + f + u * fp
  return k * u * u * (u - v0) + f * u - etaP
}

function stall(out: StepResult, power: number): void {
  out.v1 = 0
  out.t = Infinity
  out.vMean = 0
  out.power = power
  out.brakeJ = 0
  out.status = STEP_STALLED
  out.dv1dv0 = out.dv1dP = out.dtdv0 = out.dtdP = out.dPdv0 = 0
  out.dPdP = 1
}

/**
 * Crank power (W) needed to go from v0 to v1 over segment i (negative: braking needed).
 * With kinetic energy off, v1 is the steady speed and v0 is ignored.
 */
export function powerForSpeeds(m: SimModel, i: number, v0: number, v1: number): number {
  const ds = m.ds[i]!
  const u = m.mKE > 0 ? 0.5 * (v0 + v1) : v1
  const ke = m.mKE > 0 ? (0.5 * m.mKE * (v1 * v1 - v0 * v0)) / ds : 0
  return ((ke + resistiveForce(m, i, u)) * u) / m.eta
}

/** Holds the exit at speed `v1` (the envelope): eases off or brakes. */
function capTo(m: SimModel, i: number, v0: number, v1: number, out: StepResult): void {
  const ds = m.ds[i]!
  const ke = m.mKE > 0
  const u = ke ? 0.5 * (v0 + v1) : v1
  const k = ke ? (0.5 * m.mKE * (v1 * v1 - v0 * v0)) / ds : 0
  const f = resistiveForce(m, i, u)
  const etaP = (k + f) * u
  out.v1 = v1
  out.vMean = u
  out.t = ds / u
  out.status = STEP_CAPPED
  out.dv1dv0 = 0
  out.dv1dP = 0
  out.dtdv0 = ke ? (-ds / (u * u)) * 0.5 : 0
  out.dtdP = 0
  out.dPdP = 0
  if (etaP >= 0) {
    out.power = etaP / m.eta
    out.brakeJ = 0
    out.dPdv0 = ke
      ? (0.5 * (k + f) + u * ((-m.mKE * v0) / ds + 0.5 * resistiveForceDerivative(m, i, u))) / m.eta
      : 0
  } else {
    out.power = 0
    out.brakeJ = -etaP * out.t
    out.dPdv0 = 0
  }
}

/**
 * One midpoint solve over a length ds of segment i (no envelope, no minimum speed). Sets
 * out.v1, t, vMean and the free-case derivatives; status STEP_STALLED when there is no root.
 */
function solvePart(
  m: SimModel,
  i: number,
  v0: number,
  P: number,
  ds: number,
  out: StepResult,
  guess = 0,
): void {
  const etaP = m.eta * P
  const ke = m.mKE > 0
  // Newton from the entry speed, safeguarded by the bracket [lo, hi] it discovers. From the right
  // of the largest root h is convex, so the iterates approach the physical (largest) root.
  let lo = ke ? 0.5 * v0 : 0
  let hi = Infinity
  let u = guess > lo ? guess : v0 > 0 ? v0 : Math.cbrt((ds * etaP) / (2 * (m.mKE + 1))) + 0.5
  let f = 0
  for (let k = 0; k < 100; k++) {
    f = evalH(m, i, u, v0, ds, etaP)
    if (f > 0) hi = u
    else lo = u
    const du = HP > 0 ? -f / HP : NaN
    if (Math.abs(du) <= 1e-8 * (1 + u)) {
      u += du
      break
    }
    let next = u + du
    if (!(next > lo && next < hi)) next = hi < Infinity ? 0.5 * (lo + hi) : 2 * u + 1
    u = next
    if (hi - lo <= 1e-12 * (1 + u)) break
  }
  // No root at or above v0/2 (the rider stops inside) leaves a residual here.
  if (!(Math.abs(f) <= 1e-6 * (1 + etaP + Math.abs(HP) * u)) || !(u > 0)) {
    out.status = STEP_STALLED
    return
  }
  const v1 = ke ? 2 * u - v0 : u
  out.v1 = v1 > 0 ? v1 : 0
  out.vMean = u
  out.t = ds / u
  out.status = STEP_FREE
  const dudP = m.eta / HP
  const dudv0 = ke ? (2 * m.mKE * u * u) / (ds * HP) : 0
  out.dv1dP = ke ? 2 * dudP : dudP
  out.dv1dv0 = ke ? 2 * dudv0 - 1 : 0
  const dtdu = -ds / (u * u)
  out.dtdP = dtdu * dudP
  out.dtdv0 = dtdu * dudv0
}

/** Strong deceleration in one midpoint step overshoots (stiff relaxation): split the segment
 * into 2, 4, 8 … equal parts (down to about 1 m) until no part loses more than 40 % of its
 * entry speed. Only a part that stalls at the finest split is a real stall. */
const MIN_RATIO = 0.6
/** Mean speed (m/s) below which a segment never ends in practice (1 mm/s). */
const MIN_MEAN_SPEED = 1e-3

function solveSplit(m: SimModel, i: number, v0: number, P: number, out: StepResult): void {
  const ds = m.ds[i]!
  let maxParts = 2
  while (maxParts < 1 << 20 && ds / maxParts > 1) maxParts *= 2
  for (let parts = 2; parts <= maxParts; parts *= 2) {
    const d = ds / parts
    let v = v0
    let t = 0
    let dvdv0 = 1
    let dvdP = 0
    let dtdv0 = 0
    let dtdP = 0
    let ok = true
    for (let j = 0; j < parts; j++) {
      solvePart(m, i, v, P, d, out)
      if (out.status === STEP_STALLED && parts === maxParts) return
      if (out.status === STEP_STALLED || (out.v1 < MIN_RATIO * v && parts < maxParts)) {
        ok = false
        break
      }
      dtdP += out.dtdP + out.dtdv0 * dvdP
      dtdv0 += out.dtdv0 * dvdv0
      dvdP = out.dv1dP + out.dv1dv0 * dvdP
      dvdv0 = out.dv1dv0 * dvdv0
      t += out.t
      v = out.v1
    }
    if (!ok) continue
    out.v1 = v
    out.t = t
    out.vMean = ds / t
    out.dv1dv0 = dvdv0
    out.dv1dP = dvdP
    out.dtdv0 = dtdv0
    out.dtdP = dtdP
    return
  }
}

/**
 * Advances over segment i from entry speed v0 (m/s) with crank power P (W, ≥ 0).
 * Writes exit speed, duration, mean speed, applied power, braking energy, status and partial
 * derivatives into `out`. Never throws and never returns NaN for finite inputs.
 * Signature is stable: (model, segment index, entry speed, crank power, output). `guess`, when
 * positive, is where the Newton solve of the mean speed starts (e.g. this segment's mean speed in
 * the optimizer's previous, nearby plan): fewer iterations, the same root.
 */
export function step(
  m: SimModel,
  i: number,
  v0: number,
  P: number,
  out: StepResult,
  guess = 0,
): void {
  const r = m.rule
  if (r !== null) {
    // the rider's rules (sim/rules.ts): a held power, or a cap the asked power is above; the
    // applied power then does not depend on the asked one
    const f = r.fixed[i]!
    const c = f >= 0 ? f : r.cap[i]!
    if (f >= 0 || P > c) {
      stepAt(m, i, v0, c, out, guess)
      out.dv1dP = 0
      out.dtdP = 0
      out.dPdP = 0
      return
    }
  }
  stepAt(m, i, v0, P, out, guess)
}

function stepAt(
  m: SimModel,
  i: number,
  v0: number,
  P: number,
  out: StepResult,
  guess: number,
): void {
  const ke = m.mKE > 0
  solvePart(m, i, v0, P, m.ds[i]!, out, guess)
  if (ke && (out.status === STEP_STALLED || out.v1 < MIN_RATIO * v0)) solveSplit(m, i, v0, P, out)
  if (out.status === STEP_STALLED) return stall(out, P)
  const v1 = out.v1
  // Slowing below the minimum speed is a stall; so is "accelerating" from a standstill at a
  // crawl (no power from 0 m/s converges to a mean speed of ~0, i.e. an endless segment).
  if (v1 < m.minSpeed && (!ke || v1 < v0 || out.vMean < MIN_MEAN_SPEED)) return stall(out, P)
  const cap = ke ? m.vEnv[i + 1]! : Math.min(m.vEnv[i]!, m.vEnv[i + 1]!)
  if (v1 > cap) return capTo(m, i, v0, cap, out)
  out.power = P
  out.brakeJ = 0
  out.dPdP = 1
  out.dPdv0 = 0
}
