// From the API's rows (a course's segments, a rider setup, an optimization's `inputs`) to the
// optimizer scenario, exactly as the server's run builds it (apps/api/src/jobs/engine-inputs.ts):
// the preview in the browser and the saved run parse the same scenario with the engine's parser.
import type { CourseSegmentInput } from '@veloptima/engine'

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
  positions: { name?: string; cda: number; min_speed?: number; max_speed?: number }[]
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

export type WindSegmentInput = {
  start_m: number
  end_m: number
  wind_speed_mps: number
  wind_from_deg: number
}

/** An equipment option as the engine's scenario takes it (deltas against the setup). */
export type EquipmentOptionInput = {
  name: string
  cda_delta_m2?: number
  mass_delta_kg?: number
  crr?: number
}

/** What an optimization stores in `inputs` (the scenario's snake_case keys, SI units). */
export type OptimizationInputs = {
  environment?: {
    temperature_c?: number
    pressure_pa?: number
    pressure_altitude_m?: number
    wind_speed_mps?: number
    wind_from_deg?: number
    /** Wind on stretches of the course, replacing the course-wide wind there (distances in m). */
    wind_segments?: WindSegmentInput[]
    /** Event start, local time at the course, "YYYY-MM-DDTHH:mm" (for clock times on the plan). */
    event_start?: string
  }
  /** Changes to the rider setup for this optimization only (the saved setup is untouched). */
  rider_override?: Partial<SetupLike>
  constraint?: ConstraintInput
  max_targets?: number
  /** Equipment: options per group; `baseline` names each group's baseline option. */
  equipment?: {
    groups: Record<string, EquipmentOptionInput[]>
    baseline?: Record<string, string>
  }
}

export type OptimizerInput = {
  scenario: Record<string, unknown>
  segments: CourseSegmentInput[]
  startAltitudeM: number
}

/** The optimizer input of a course, a setup and an optimization's inputs. */
export function optimizerInputOf(
  segments: readonly SegmentRow[],
  courseSurface: Surface | undefined,
  setup: SetupLike,
  inputs: OptimizationInputs,
  type: 'pacing' | 'equipment',
): OptimizerInput {
  const crr = setup.crr
  const surface = courseSurface ?? 'normal'
  const engineSegments: CourseSegmentInput[] = segments.map((s) => ({
    lengthM: s.end - s.start,
    grade: s.grade,
    headingDeg: s.heading,
    ...(s.radius ? { radiusM: s.radius } : {}),
    crrFactor: crr.normal > 0 ? (crr[s.surface ?? surface] ?? crr.normal) / crr.normal : 1,
  }))
  const rider: Record<string, number> = {
    mass_kg: setup.rider_mass + setup.extra_mass,
    bike_mass_kg: setup.bike_mass,
    cda_m2: setup.positions[0]?.cda ?? Number.NaN,
    crr: crr.normal,
    drivetrain_efficiency: setup.drivetrain_efficiency,
    wheel_inertia_kg_m2: setup.wheel_inertia,
  }
  if (setup.cp !== null) rider.cp_w = setup.cp
  if (setup.w_prime !== null) rider.w_prime_j = setup.w_prime
  if (setup.max_power !== null) rider.max_power_w = setup.max_power
  const environment: Record<string, unknown> = { ...(inputs.environment ?? {}) }
  if (environment.temperature_c === undefined) environment.temperature_c = 20
  const scenario: Record<string, unknown> = { course: { file: 'course' }, rider, environment }
  const constraint =
    inputs.constraint ??
    (setup.cp !== null && setup.w_prime !== null ? { type: 'w_prime_balance' } : undefined)
  if (constraint !== undefined) scenario.constraint = constraint
  if (inputs.max_targets !== undefined) scenario.max_targets = inputs.max_targets
  if (type === 'equipment') scenario.equipment = inputs.equipment
  return { scenario, segments: engineSegments, startAltitudeM: segments[0]?.altitude ?? 0 }
}
