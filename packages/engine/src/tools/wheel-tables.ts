/**
 * Wheel classes and their drag/side-force tables — OUR MODEL, built from published anchors
 * because no open machine-readable drag-vs-yaw table exists (docs/engine/science.md §8.1; decision record
 * docs/decisions/0004-wheel-drag-tables.md explains every number and its uncertainty).
 *
 * ΔCdA(β) is the change of the bike-and-rider axial drag area (m²) against the shallow 30 mm
 * baseline wheel in the same position, at apparent-wind yaw β (0–20° in 2.5° steps, symmetric;
 * held constant beyond 20°). CsA(β) is the wheel's own side-force area (m²): side force
 * F = ½·ρ·Va²·CsA(β). Uncertainty: ΔCdA ±40 %, CsA ±50 %.
 */

export const YAW_STEP_DEG = 2.5
export const YAW_MAX_DEG = 20

export const FRONT_WHEELS = ['30', '45', '60', '80'] as const
export const REAR_WHEELS = ['30', '45', '60', '80', 'disc'] as const
export type FrontWheel = (typeof FRONT_WHEELS)[number]
export type RearWheel = (typeof REAR_WHEELS)[number]
export type WheelClass = RearWheel

export type WheelSpec = {
  id: WheelClass
  label: string
  /** Rim depth, mm (a disc is the whole radius). */
  depthMm: number
  /** Typical mass of one wheel with rim tape, no tyre (kg). */
  frontMassKg: number | null
  rearMassKg: number
  /** ΔCdA vs the 30 mm wheel at β = 0, 2.5, …, 20° (m²). */
  frontDeltaCda: readonly number[] | null
  rearDeltaCda: readonly number[]
  /** Side-force area once the flow is fully turned (β ≥ 15°), m². */
  sideForceAreaMax: number
}

/**
 * Front anchors: the Silverstone front-wheel tests (seven wheels spread ≈15 W at 12°/40 km/h and
 * ≈30 W at 12°/50 km/h ⇒ ΔCdA spread ≈0.018 m², shallow box rim to deepest) and "< 50 g at
 * 30 mph" (≈0.0045 m²) between race wheels below ≈10°; shapes from Parcours/FLO (differences
 * grow from 7.5–10° upward, deep rims keep gaining to 15–20° through "sail").
 * Rear: half the front change (shielded by frame and legs; our assumption), disc fastest at
 * every yaw (Parcours A2 tunnel).
 */
const F45 = [-0.001, -0.0012, -0.0018, -0.0028, -0.0038, -0.0045, -0.0048, -0.0048, -0.0046]
const F60 = [-0.0018, -0.0022, -0.0032, -0.005, -0.0068, -0.008, -0.0086, -0.0088, -0.0086]
const F80 = [-0.0025, -0.003, -0.0045, -0.007, -0.0095, -0.0112, -0.0122, -0.0128, -0.0128]
const half = (t: readonly number[]) => t.map((x) => Math.round(x * 0.5 * 1e5) / 1e5)
const ZERO = [0, 0, 0, 0, 0, 0, 0, 0, 0]
const DISC = [-0.003, -0.0036, -0.005, -0.0068, -0.0088, -0.0105, -0.0118, -0.0128, -0.0135]

export const WHEELS: Readonly<Record<WheelClass, WheelSpec>> = {
  '30': {
    id: '30',
    label: '30 mm (shallow baseline)',
    depthMm: 30,
    frontMassKg: 0.65,
    rearMassKg: 0.8,
    frontDeltaCda: ZERO,
    rearDeltaCda: ZERO,
    sideForceAreaMax: 0.03,
  },
  '45': {
    id: '45',
    label: '45 mm',
    depthMm: 45,
    frontMassKg: 0.7,
    rearMassKg: 0.85,
    frontDeltaCda: F45,
    rearDeltaCda: half(F45),
    sideForceAreaMax: 0.04,
  },
  '60': {
    id: '60',
    label: '60 mm',
    depthMm: 60,
    frontMassKg: 0.76,
    rearMassKg: 0.92,
    frontDeltaCda: F60,
    rearDeltaCda: half(F60),
    sideForceAreaMax: 0.05,
  },
  '80': {
    id: '80',
    label: '80 mm',
    depthMm: 80,
    frontMassKg: 0.86,
    rearMassKg: 1.02,
    frontDeltaCda: F80,
    rearDeltaCda: half(F80),
    sideForceAreaMax: 0.062,
  },
  disc: {
    id: 'disc',
    label: 'Disc (rear only)',
    depthMm: 311,
    frontMassKg: null,
    rearMassKg: 1.1,
    frontDeltaCda: null,
    rearDeltaCda: DISC,
    sideForceAreaMax: 0.095,
  },
}

/** Linear interpolation in a 0…20° table; |β| is used (symmetric), held beyond 20°. */
export function interpolateYawTable(table: readonly number[], yawDeg: number): number {
  const b = Math.min(Math.abs(yawDeg), YAW_MAX_DEG) / YAW_STEP_DEG
  const i = Math.min(Math.floor(b), table.length - 2)
  const f = b - i
  return table[i]! * (1 - f) + table[i + 1]! * f
}

/** ΔCdA (m²) of a front+rear pair against the 30/30 baseline at yaw β (degrees). */
export function pairDeltaCda(front: FrontWheel, rear: RearWheel, yawDeg: number): number {
  return (
    interpolateYawTable(WHEELS[front].frontDeltaCda!, yawDeg) +
    interpolateYawTable(WHEELS[rear].rearDeltaCda, yawDeg)
  )
}

/**
 * Side-force area (m²) of a wheel at yaw β: grows linearly up to 15° (attached flow, like a
 * thin aerofoil) and holds there (the rim stalls); our model, ±50 %.
 */
export function sideForceArea(wheel: WheelClass, yawDeg: number): number {
  return WHEELS[wheel].sideForceAreaMax * Math.min(1, Math.abs(yawDeg) / 15)
}

/** Extra mass (kg) of a pair against the 30/30 baseline. */
export function pairExtraMassKg(front: FrontWheel, rear: RearWheel): number {
  return (
    WHEELS[front].frontMassKg! -
    WHEELS['30'].frontMassKg! +
    WHEELS[rear].rearMassKg -
    WHEELS['30'].rearMassKg
  )
}

/** Drag force (N) ⇄ ΔCdA (m²) at an air speed: ΔCdA = 2F/(ρv²) (docs/engine/science.md §8.1). */
export function dragAreaFromForce(forceN: number, airSpeedMps: number, rho = 1.225): number {
  return (2 * forceN) / (rho * airSpeedMps * airSpeedMps)
}

/** Power (W) to overcome a drag force at a speed (no wind). */
export function powerFromDragForce(forceN: number, speedMps: number): number {
  return forceN * speedMps
}

/** "Grams of drag" (the wind-tunnel habit, g-force of a mass) → newtons. */
export function gramsToNewtons(grams: number): number {
  return (grams / 1000) * 9.80665
}

/**
 * Wind-averaged drag area (Barry 2018, docs/engine/science.md §8.2): wind of speed w equally likely from all
 * directions φ, β(φ) = atan2(w·sinφ, v + w·cosφ), Va²(φ) = v² + w² + 2vw·cosφ,
 *   CdA_wa = (1/π)·∫₀^π CdA(β(φ))·Va²(φ)/v² dφ.
 * Integrated with the composite Simpson rule on `steps` (even) intervals.
 */
export function windAveragedCda(
  cdaOfYaw: (yawDeg: number) => number,
  groundSpeedMps: number,
  windSpeedMps: number,
  steps = 180,
): number {
  const v = groundSpeedMps
  const w = windSpeedMps
  const f = (phi: number) => {
    const beta = (Math.atan2(w * Math.sin(phi), v + w * Math.cos(phi)) * 180) / Math.PI
    return (cdaOfYaw(beta) * (v * v + w * w + 2 * v * w * Math.cos(phi))) / (v * v)
  }
  const h = Math.PI / steps
  let sum = f(0) + f(Math.PI)
  for (let k = 1; k < steps; k++) sum += (k % 2 === 1 ? 4 : 2) * f(k * h)
  return (sum * h) / 3 / Math.PI
}
