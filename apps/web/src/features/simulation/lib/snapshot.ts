// A result version's `inputs`: the snapshot the server took when the run started (the rows as
// they were: the optimization, the course's segments and settings, the rider setup's columns).
import {
  optimizerInputOf,
  type OptimizationInputs,
  type OptimizerInput,
  type SegmentRow,
  type SetupLike,
} from './engine-input.ts'

export type Snapshot = {
  optimization: {
    id: string
    type: 'pacing' | 'equipment'
    name: string
    inputs: OptimizationInputs
  }
  course: {
    id: string
    name: string
    segments: SegmentRow[]
    stats: { distance: number; ascent: number; descent: number } | null
    settings: { surface?: 'smooth' | 'normal' | 'rough' } | null
  }
  /** The rider_setups row as stored (camelCase columns). */
  rider_setup: Record<string, unknown>
}

const n = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null)

/** The setup of a snapshot in the API's field names (the row is stored with column names). */
export function setupOfSnapshot(
  row: Record<string, unknown>,
): SetupLike & { name: string; bike_type: string } {
  const pick = (camel: string, snake: string) => row[camel] ?? row[snake]
  return {
    name: String(row.name ?? ''),
    bike_type: String(pick('bikeType', 'bike_type') ?? ''),
    rider_mass: n(pick('riderMass', 'rider_mass')) ?? Number.NaN,
    bike_mass: n(pick('bikeMass', 'bike_mass')) ?? Number.NaN,
    extra_mass: n(pick('extraMass', 'extra_mass')) ?? 0,
    positions: (row.positions as SetupLike['positions'] | undefined) ?? [],
    crr: row.crr as SetupLike['crr'],
    drivetrain_efficiency: n(pick('drivetrainEfficiency', 'drivetrain_efficiency')) ?? 0.976,
    wheel_inertia: n(pick('wheelInertia', 'wheel_inertia')) ?? 0.14,
    cp: n(pick('cp', 'cp')),
    w_prime: n(pick('wPrime', 'w_prime')),
    max_power: n(pick('maxPower', 'max_power')),
    durability: n(pick('durability', 'durability')),
    heat_acclimatised: pick('heatAcclimatised', 'heat_acclimatised') === true,
  }
}

export function snapshotOptimizerInput(s: Snapshot): OptimizerInput {
  return optimizerInputOf(
    s.course.segments,
    s.course.settings?.surface,
    setupOfSnapshot(s.rider_setup),
    s.optimization.inputs ?? {},
    s.optimization.type,
  )
}
