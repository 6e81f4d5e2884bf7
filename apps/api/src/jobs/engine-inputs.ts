// From stored rows (course, rider setup, the optimization's inputs) to the engine's optimizer
// input. The snapshot a result keeps is made of the rows as they were; the engine input is derived
// from it (so a result can always be recomputed from its snapshot) through the engine's own
// scenario parser, whose errors name the field ("rider.mass_kg: expected a number > 0, got -5").
import {
  courseFromSegments,
  parseOptimizeScenario,
  type CourseSegmentInput,
  type OptimizeScenario,
} from '@veloptima/engine'
import type { courses, JsonObject, optimizations, riderSetups } from '@veloptima/db'

type CourseRow = typeof courses.$inferSelect
type SetupRow = typeof riderSetups.$inferSelect
type OptimizationRow = typeof optimizations.$inferSelect

/** Everything a result version was computed from, kept with it. */
export type RunSnapshot = {
  requested_by: string
  optimization: Pick<OptimizationRow, 'id' | 'type' | 'name' | 'inputs'>
  course: Pick<CourseRow, 'id' | 'name' | 'segments' | 'stats' | 'settings'>
  rider_setup: Omit<SetupRow, 'createdAt' | 'updatedAt' | 'ownerUid' | 'ownerTeam'>
}

export function snapshotOf(
  uid: string,
  optimization: OptimizationRow,
  course: CourseRow,
  setup: SetupRow,
): RunSnapshot {
  const { createdAt: _c, updatedAt: _u, ownerUid: _o, ownerTeam: _t, ...riderSetup } = setup
  return {
    requested_by: uid,
    optimization: {
      id: optimization.id,
      type: optimization.type,
      name: optimization.name,
      inputs: optimization.inputs,
    },
    course: {
      id: course.id,
      name: course.name,
      segments: course.segments,
      stats: course.stats,
      settings: course.settings,
    },
    rider_setup: riderSetup,
  }
}

/** What a worker thread receives: the scenario JSON and the course's segments. */
export type OptimizerInput = {
  scenario: JsonObject
  segments: CourseSegmentInput[]
  startAltitudeM: number
}

/** An equipment option as the optimization form stores it (ΔCdA m², Δmass kg, Crr factor). */
type OptionInput = { name: string; cda_delta?: number; mass_delta?: number; crr_factor?: number }

/**
 * The optimizer input of a snapshot, with the same reading of `optimizations.inputs` as the web
 * app's instant preview (apps/web …/simulation/lib/engine-input.ts), so that the saved run and the
 * preview agree. `inputs` holds (snake_case, SI units): `environment` {temperature_c (20 °C when
 * absent), pressure_pa, altitude_m, wind_speed_mps, wind_from_deg}, `constraint` {type:
 * w_prime_balance | normalized_power | average_power, power_w} (W′ balance when absent),
 * `max_targets` (12 when absent, 1–20), and for equipment `equipment` {groups: [{name, options:
 * [{name, cda_delta, mass_delta, crr_factor}]}]}, whose first option of each group is the baseline.
 * The highest power the plan may ask for is the setup's max power, else 2 × CP, else 1000 W.
 */
export function optimizerInputOf(snapshot: RunSnapshot): OptimizerInput {
  const inputs = (snapshot.optimization.inputs ?? {}) as Record<string, unknown>
  const setup = snapshot.rider_setup
  const crr = setup.crr
  const defaultSurface = snapshot.course.settings?.surface ?? 'normal'
  const segments: CourseSegmentInput[] = snapshot.course.segments.map((s) => ({
    lengthM: s.end - s.start,
    grade: s.grade,
    headingDeg: s.heading,
    ...(s.radius ? { radiusM: s.radius } : {}),
    // The setup's tyres give a Crr per surface; the engine takes a factor on the rider's Crr.
    crrFactor: crr.normal > 0 ? (crr[s.surface ?? defaultSurface] ?? crr.normal) / crr.normal : 1,
  }))
  // The first position is the one ridden; per-speed position switching is the engine's to add.
  const rider: Record<string, number> = {
    mass_kg: setup.riderMass + setup.extraMass,
    bike_mass_kg: setup.bikeMass,
    cda_m2: setup.positions[0]?.cda ?? Number.NaN,
    crr: crr.normal,
    drivetrain_efficiency: setup.drivetrainEfficiency,
    wheel_inertia_kg_m2: setup.wheelInertia,
    max_power_w: setup.maxPower ?? (setup.cp !== null ? Math.round(2 * setup.cp) : 1000),
  }
  if (setup.cp !== null) rider.cp_w = setup.cp
  if (setup.wPrime !== null) rider.w_prime_j = setup.wPrime
  const env = (inputs.environment ?? {}) as Record<string, unknown>
  const environment: Record<string, unknown> = { temperature_c: env.temperature_c ?? 20 }
  const names = {
    pressure_pa: 'pressure_pa',
    altitude_m: 'pressure_altitude_m',
    relative_humidity: 'relative_humidity',
    wind_speed_mps: 'wind_speed_mps',
    wind_from_deg: 'wind_from_deg',
  } as const
  for (const [from, to] of Object.entries(names)) {
    if (env[from] !== undefined) environment[to] = env[from]
  }
  const targets = typeof inputs.max_targets === 'number' ? inputs.max_targets : 12
  const scenario: JsonObject = {
    course: { file: 'course' },
    rider,
    environment,
    constraint: inputs.constraint ?? { type: 'w_prime_balance' },
    max_targets: Math.min(20, Math.max(1, Math.round(targets))),
  }
  if (inputs.min_power_w !== undefined) scenario.min_power_w = inputs.min_power_w
  if (snapshot.optimization.type === 'equipment') {
    scenario.equipment = equipmentOf(inputs.equipment, crr.normal)
  }
  return {
    scenario,
    segments,
    startAltitudeM: snapshot.course.segments[0]?.altitude ?? 0,
  }
}

/** The form's option groups → the engine's {groups, baseline} (first option = baseline). */
function equipmentOf(value: unknown, crr: number): unknown {
  const groups = (value as { groups?: unknown } | undefined)?.groups
  if (!Array.isArray(groups)) return value
  const out: Record<string, unknown[]> = {}
  const baseline: Record<string, string> = {}
  for (const group of groups as { name: string; options: OptionInput[] }[]) {
    const options = Array.isArray(group?.options) ? group.options : []
    out[group.name] = options.map((o) => ({
      name: o.name,
      cda_delta_m2: o.cda_delta ?? 0,
      mass_delta_kg: o.mass_delta ?? 0,
      ...(o.crr_factor !== undefined && o.crr_factor !== 1 ? { crr: crr * o.crr_factor } : {}),
    }))
    if (options[0]) baseline[group.name] = options[0].name
  }
  return { groups: out, baseline }
}

/** Parses (and so validates) an optimizer input; throws the engine's EngineInputError. */
export function parseOptimizerInput(input: OptimizerInput): OptimizeScenario {
  if (input.segments.length === 0) {
    throw Object.assign(new Error('course: the course has no segments'), { field: 'course' })
  }
  return parseOptimizeScenario(input.scenario, () =>
    courseFromSegments(input.segments, input.startAltitudeM),
  )
}
