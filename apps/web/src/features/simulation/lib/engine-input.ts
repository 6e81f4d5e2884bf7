// From the API's rows (a course's segments, a rider setup, an optimization's `inputs`) to the
// optimizer scenario: the engine's builder, the same one the server's run calls
// (apps/api/src/jobs/engine-inputs.ts), so the preview and the saved run parse the same scenario.
import type { PacingRules } from '@veloptima/contracts'
import {
  storedOptimizerInput,
  type CourseSegmentInput,
  type StoredSegmentRow,
  type StoredSetup,
  type StoredSurface,
} from '@veloptima/engine'

type Surface = StoredSurface

export type SegmentRow = StoredSegmentRow

export type SetupLike = StoredSetup

export type ConstraintInput =
  | { type: 'w_prime_balance' }
  | { type: 'normalized_power'; power_w: number }
  | { type: 'average_power'; power_w: number }
  /** The least-effort plan finishing in `time_s` (a pacing plan only). */
  | { type: 'target_time'; time_s: number }

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
  /** ΔCdA (m²) by yaw angle (°): [[yaw, Δ], …], in place of a constant ΔCdA. */
  cda_delta_by_yaw?: [number, number][]
  mass_delta_kg?: number
  crr?: number
  /** The power the rider can hold with this option, as a fraction of the setup's (e.g. 0.97). */
  power_factor?: number
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
  /** CP lowered by the heat (above 17 °C) and by the altitude along the course. */
  options?: { heat?: boolean; altitude?: boolean }
  /** The fuel plan's gut tolerance (g/h) and glycogen store (g). */
  fuel?: { gut_tolerance_g_per_h?: number; glycogen_store_g?: number }
  /** How the plan may ride: easy start, coasting, descent cap, stretches with their own limits. */
  rules?: PacingRules
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
  /** The setup the scenario was made from (the saved one with `rider_override` applied). */
  setup: SetupLike
}

/**
 * The optimizer input of a course, a setup and an optimization's inputs: the engine's one reading
 * of the stored format (packages/engine/src/optimize/stored-input.ts), the server's too. A bad
 * `rider_override` throws the engine's EngineInputError naming the field.
 */
export function optimizerInputOf(
  segments: readonly SegmentRow[],
  courseSurface: Surface | undefined,
  setup: SetupLike,
  inputs: OptimizationInputs,
  type: 'pacing' | 'equipment',
): OptimizerInput {
  return storedOptimizerInput(segments, courseSurface, setup, inputs, type)
}
