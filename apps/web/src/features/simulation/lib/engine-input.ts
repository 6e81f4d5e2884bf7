// From the API's rows (a course's segments, a rider setup, an optimization's `inputs`) to the
// engine's inputs, the way the server's run derives them (apps/api/src/jobs/engine-inputs.ts):
// the preview in the browser and the saved run must simulate the same ride.
import type { CourseSegmentInput, Environment, PacingConstraint, Rider } from '@veloptima/engine'

type Surface = 'smooth' | 'normal' | 'rough'

export type SegmentRow = {
  start: number
  end: number
  grade: number
  heading: number
  radius: number | null
  altitude: number
  surface?: Surface | undefined
}

export type SetupLike = {
  rider_mass: number
  bike_mass: number
  extra_mass: number
  positions: { cda: number }[]
  crr: Record<Surface, number>
  drivetrain_efficiency: number
  wheel_inertia: number
  cp: number | null
  w_prime: number | null
  max_power: number | null
}

export type ConstraintInput =
  | { type: 'w_prime_balance' }
  | { type: 'normalized_power'; power_w: number }
  | { type: 'average_power'; power_w: number }

export type EquipmentOptionInput = {
  name: string
  cda_delta: number
  mass_delta: number
  crr_factor: number
}

/** What an optimization stores in `inputs` (snake_case, SI units). */
export type OptimizationInputs = {
  environment?: {
    temperature_c?: number
    pressure_pa?: number
    altitude_m?: number
    wind_speed_mps?: number
    wind_from_deg?: number
  }
  constraint?: ConstraintInput
  max_targets?: number
  /** Equipment: groups of options, the first option of each group is the baseline. */
  equipment?: { groups: { name: string; options: EquipmentOptionInput[] }[] }
}

export type EngineInputs = {
  segments: CourseSegmentInput[]
  startAltitudeM: number
  rider: Rider
  environment: Environment
  constraint: PacingConstraint
  maxTargets: number
  /** Upper bound of the optimized power (W): the setup's max power, else 2 × CP, else 1000 W. */
  maxPowerW: number
}

export function engineInputsOf(
  segments: readonly SegmentRow[],
  courseSurface: Surface | undefined,
  setup: SetupLike,
  inputs: OptimizationInputs,
): EngineInputs {
  const crr = setup.crr
  const surface = courseSurface ?? 'normal'
  const engineSegments: CourseSegmentInput[] = segments.map((s) => ({
    lengthM: s.end - s.start,
    grade: s.grade,
    headingDeg: s.heading,
    ...(s.radius ? { radiusM: s.radius } : {}),
    crrFactor: crr.normal > 0 ? crr[s.surface ?? surface] / crr.normal : 1,
  }))
  const rider: Rider = {
    massKg: setup.rider_mass + setup.extra_mass,
    bikeMassKg: setup.bike_mass,
    cdaM2: setup.positions[0]?.cda ?? Number.NaN,
    crr: crr.normal,
    drivetrainEfficiency: setup.drivetrain_efficiency,
    wheelInertiaKgM2: setup.wheel_inertia,
  }
  if (setup.cp !== null) rider.cpW = setup.cp
  if (setup.w_prime !== null) rider.wPrimeJ = setup.w_prime
  if (setup.max_power !== null) rider.maxPowerW = setup.max_power
  const env = inputs.environment ?? {}
  const environment: Environment = {}
  if (env.temperature_c !== undefined) environment.temperatureC = env.temperature_c
  if (env.pressure_pa !== undefined) environment.pressurePa = env.pressure_pa
  if (env.altitude_m !== undefined) environment.pressureAltitudeM = env.altitude_m
  if (env.wind_speed_mps !== undefined) environment.windSpeedMps = env.wind_speed_mps
  if (env.wind_from_deg !== undefined) environment.windFromDeg = env.wind_from_deg
  const c = inputs.constraint ?? { type: 'w_prime_balance' }
  const constraint: PacingConstraint =
    c.type === 'w_prime_balance' ? c : { type: c.type, powerW: c.power_w }
  return {
    segments: engineSegments,
    startAltitudeM: segments[0]?.altitude ?? 0,
    rider,
    environment,
    constraint,
    maxTargets: Math.min(20, Math.max(1, Math.round(inputs.max_targets ?? 12))),
    maxPowerW: setup.max_power ?? (setup.cp !== null ? Math.round(2 * setup.cp) : 1000),
  }
}

/** The equipment combinations to compare: baseline, then each non-baseline option alone. */
export function equipmentVariants(inputs: OptimizationInputs): EquipmentOptionInput[] {
  const groups = inputs.equipment?.groups ?? []
  const variants: EquipmentOptionInput[] = [
    { name: 'Baseline', cda_delta: 0, mass_delta: 0, crr_factor: 1 },
  ]
  for (const g of groups) {
    const [base, ...others] = g.options
    for (const o of others) {
      variants.push({
        name: `${g.name}: ${o.name}`,
        cda_delta: o.cda_delta - (base?.cda_delta ?? 0),
        mass_delta: o.mass_delta - (base?.mass_delta ?? 0),
        crr_factor: o.crr_factor / (base?.crr_factor ?? 1),
      })
    }
  }
  return variants
}
