/** Standard gravity (m/s²), docs/engine/science.md conventions. */
export const G0 = 9.80665

/** Martin et al. (1998) coefficients as carried by scheibo/calc and jmackie/rouleur (docs/engine/science.md §1.1). */
export const MARTIN = {
  /** Incremental drag area of spokes / wheel rotation (m²), added to CdA. */
  spokeDragAreaM2: 0.0044,
  /** Moment of inertia of both wheels (kg·m²). */
  wheelInertiaKgM2: 0.14,
  /** Tyre outside radius (m). */
  wheelRadiusM: 0.311,
  /** Drivetrain (chain) efficiency. */
  drivetrainEfficiency: 0.976,
  /** Wheel-bearing friction force F = A + B·v (N): P_WB = v·(91 + 8.7·v)·1e-3 W. */
  bearingA: 0.091,
  bearingB: 0.0087,
} as const

/** Braking deceleration on level dry pavement, AASHTO design value (docs/engine/science.md §5). */
export const AASHTO_BRAKING_MPS2 = 3.4

/** Default comfortable lateral friction limit (lean ≈ 31°), docs/engine/science.md §5 recommendation 0.5–0.7 dry. */
export const DEFAULT_LATERAL_MU = 0.6

const DEG = Math.PI / 180
export const degToRad = (d: number): number => d * DEG
export const radToDeg = (r: number): number => r / DEG
