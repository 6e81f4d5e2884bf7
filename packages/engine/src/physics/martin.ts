// Martin et al. (1998) power terms, each as a plain function of scalars (docs/engine/science.md §1.1).
// All return WHEEL power (W); crank power is the sum divided by the drivetrain efficiency.
// The simulation's step uses the same forces in per-metre form (`resistiveForce` in sim/step.ts).
import { G0, MARTIN } from './constants.ts'

/** P_AT = ½·ρ·(CdA + Fw)·Va²·Vg, Martin's tangential form (Va = Vg + w∥). */
export function aeroPower(
  rho: number,
  cdaM2: number,
  spokeDragAreaM2: number,
  airSpeedMps: number,
  groundSpeedMps: number,
): number {
  return (
    0.5 * rho * (cdaM2 + spokeDragAreaM2) * airSpeedMps * Math.abs(airSpeedMps) * groundSpeedMps
  )
}

/** P_RR = Vg·cos(atan G)·Crr·m·g */
export function rollingPower(
  groundSpeedMps: number,
  grade: number,
  crr: number,
  massKg: number,
): number {
  return groundSpeedMps * Math.cos(Math.atan(grade)) * crr * massKg * G0
}

/** P_WB = Vg·(91 + 8.7·Vg)·10⁻³ */
export function bearingPower(groundSpeedMps: number): number {
  return groundSpeedMps * (MARTIN.bearingA + MARTIN.bearingB * groundSpeedMps)
}

/** P_PE = Vg·m·g·sin(atan G) */
export function gravityPower(groundSpeedMps: number, grade: number, massKg: number): number {
  return groundSpeedMps * massKg * G0 * Math.sin(Math.atan(grade))
}

/** P_KE = ½·(m + I/r²)·(Vf² − Vi²)/(tf − ti) */
export function kineticPower(
  massKg: number,
  wheelInertiaKgM2: number,
  wheelRadiusM: number,
  vInitial: number,
  vFinal: number,
  durationS: number,
): number {
  const mEff = massKg + wheelInertiaKgM2 / (wheelRadiusM * wheelRadiusM)
  return (0.5 * mEff * (vFinal * vFinal - vInitial * vInitial)) / durationS
}

/** Ground speed for a given crank power in steady state on a uniform road (bisection, like scheibo `Vg`). */
export function steadySpeed(
  crankPowerW: number,
  p: {
    rho: number
    cdaM2: number
    spokeDragAreaM2?: number
    crr: number
    massKg: number
    grade: number
    drivetrainEfficiency: number
    headwindMps?: number
    bearings?: boolean
  },
): number {
  const fw = p.spokeDragAreaM2 ?? MARTIN.spokeDragAreaM2
  const w = p.headwindMps ?? 0
  const need = (v: number): number =>
    (aeroPower(p.rho, p.cdaM2, fw, v + w, v) +
      rollingPower(v, p.grade, p.crr, p.massKg) +
      (p.bearings === false ? 0 : bearingPower(v)) +
      gravityPower(v, p.grade, p.massKg)) /
    p.drivetrainEfficiency
  let lo = 0
  let hi = 100
  for (let k = 0; k < 200 && hi - lo > 1e-10; k++) {
    const mid = 0.5 * (lo + hi)
    if (need(mid) > crankPowerW) hi = mid
    else lo = mid
  }
  return 0.5 * (lo + hi)
}
