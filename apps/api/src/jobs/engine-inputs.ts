// From stored rows (course, rider setup, the optimization's inputs) to the engine's optimizer
// input. The snapshot a result keeps is made of the rows as they were; the engine input is derived
// from it (so a result can always be recomputed from its snapshot) through the engine's own
// scenario parser, whose errors name the field ("rider.mass_kg: expected a number > 0, got -5").
import {
  courseFromSegments,
  effectiveSetup,
  parseOptimizeScenario,
  storedOptimizerInput,
  type CourseSegmentInput,
  type OptimizeScenario,
  type StoredSetup,
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

/**
 * The snapshot of a run. Its `rider_setup` is the setup that produces the result: the saved row
 * with the optimization's `rider_override` applied (the override stays in the inputs too), so the
 * result's input view shows what was ridden. A bad override throws EngineInputError naming
 * `rider_override.<field>`.
 */
export function snapshotOf(
  uid: string,
  optimization: OptimizationRow,
  course: CourseRow,
  setup: SetupRow,
): RunSnapshot {
  const { createdAt: _c, updatedAt: _u, ownerUid: _o, ownerTeam: _t, ...saved } = setup
  const override = (optimization.inputs as { rider_override?: unknown } | null)?.rider_override
  const riderSetup = override === undefined ? saved : withOverride(saved, override)
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

/** The setup row (camelCase columns) with an override in the stored names applied. */
function withOverride(row: RunSnapshot['rider_setup'], override: unknown) {
  const e = effectiveSetup(storedSetupOf(row), override)
  return {
    ...row,
    riderMass: e.rider_mass,
    bikeMass: e.bike_mass,
    extraMass: e.extra_mass,
    positions: e.positions as typeof row.positions,
    crr: e.crr,
    drivetrainEfficiency: e.drivetrain_efficiency,
    wheelInertia: e.wheel_inertia,
    cp: e.cp,
    wPrime: e.w_prime,
    maxPower: e.max_power,
  }
}

/** What a worker thread receives: the scenario JSON and the course's segments. */
export type OptimizerInput = {
  scenario: JsonObject
  segments: CourseSegmentInput[]
  startAltitudeM: number
}

/** The setup row (camelCase columns) in the stored format's names (snake_case). */
export function storedSetupOf(setup: RunSnapshot['rider_setup']): StoredSetup {
  return {
    rider_mass: setup.riderMass,
    bike_mass: setup.bikeMass,
    extra_mass: setup.extraMass,
    positions: setup.positions,
    crr: setup.crr,
    drivetrain_efficiency: setup.drivetrainEfficiency,
    wheel_inertia: setup.wheelInertia,
    cp: setup.cp,
    w_prime: setup.wPrime,
    max_power: setup.maxPower,
    // snapshots kept from before these columns read as no fade and not acclimatised
    durability: setup.durability ?? null,
    heat_acclimatised: setup.heatAcclimatised ?? false,
  }
}

/**
 * The optimizer input of a snapshot: the engine's one reading of the stored rows
 * (storedOptimizerInput, packages/engine/src/optimize/stored-input.ts), the same the web app's
 * instant preview calls, so the saved run and the preview agree. The snapshot's setup is already
 * the effective one (snapshotOf applies `rider_override`; applying it again changes nothing).
 */
export function optimizerInputOf(snapshot: RunSnapshot): OptimizerInput {
  const { scenario, segments, startAltitudeM } = storedOptimizerInput(
    snapshot.course.segments,
    snapshot.course.settings?.surface,
    storedSetupOf(snapshot.rider_setup),
    snapshot.optimization.inputs as Record<string, unknown>,
    snapshot.optimization.type,
  )
  return { scenario: scenario as JsonObject, segments, startAltitudeM }
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
