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

/**
 * The optimizer input of a snapshot. `optimizations.inputs` may hold (snake_case, SI units):
 * `environment` (the scenario's keys: temperature_c — 20 °C when neither it nor air_density_kg_m3
 * is given —, pressure_pa, relative_humidity, pressure_altitude_m, wind_speed_mps, wind_from_deg),
 * `constraint` ({type: w_prime_balance | normalized_power | average_power | work, …}; W′ balance
 * when absent and the setup has CP and W′), `max_targets`, `min_power_w`, and for equipment
 * optimizations `equipment` ({groups: {name: [options]}, baseline: {group: option}}).
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
  }
  if (setup.cp !== null) rider.cp_w = setup.cp
  if (setup.wPrime !== null) rider.w_prime_j = setup.wPrime
  if (setup.maxPower !== null) rider.max_power_w = setup.maxPower
  const environment = { ...((inputs.environment ?? {}) as Record<string, unknown>) }
  if (environment.temperature_c === undefined && environment.air_density_kg_m3 === undefined) {
    environment.temperature_c = 20
  }
  const scenario: JsonObject = { course: { file: 'course' }, rider, environment }
  const constraint =
    inputs.constraint ??
    (setup.cp !== null && setup.wPrime !== null ? { type: 'w_prime_balance' } : undefined)
  if (constraint !== undefined) scenario.constraint = constraint
  for (const key of ['max_targets', 'min_power_w'] as const) {
    if (inputs[key] !== undefined) scenario[key] = inputs[key]
  }
  if (snapshot.optimization.type === 'equipment') scenario.equipment = inputs.equipment
  return {
    scenario,
    segments,
    startAltitudeM: snapshot.course.segments[0]?.altitude ?? 0,
  }
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
