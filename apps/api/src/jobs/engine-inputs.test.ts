// A run's snapshot records the setup that produces the result (the saved row with the
// optimization's rider_override applied), and the engine input derived from the snapshot is the
// one builder's (packages/engine/src/optimize/stored-input.ts), the browser preview's too.
import { describe, expect, it } from 'vitest'
import type { courses, optimizations, riderSetups } from '@veloptima/db'
import { EngineInputError, storedOptimizerInput } from '@veloptima/engine'
import {
  optimizerInputOf,
  parseOptimizerInput,
  snapshotOf,
  storedSetupOf,
} from './engine-inputs.ts'

const now = new Date('2026-11-22T00:00:00Z')
const segments = Array.from({ length: 30 }, (_, i) => ({
  start: i * 100,
  end: (i + 1) * 100,
  grade: i < 15 ? 0 : 0.05,
  heading: 45,
  radius: null,
  altitude: 300 + Math.max(0, i - 15) * 5,
}))
const course = {
  id: 'c1',
  name: 'Out and up',
  segments,
  stats: { distance: 3000, ascent: 75, descent: 0 },
  settings: {},
} as unknown as typeof courses.$inferSelect
const setup = {
  id: 's1',
  ownerUid: 'u1',
  ownerTeam: null,
  name: 'TT bike',
  bikeType: 'time_trial',
  riderMass: 70,
  bikeMass: 8.5,
  extraMass: 1,
  positions: [
    { name: 'aero', cda: 0.23, min_speed: 7, max_speed: 30 },
    { name: 'base bar', cda: 0.3, min_speed: 0, max_speed: 7 },
  ],
  crr: { smooth: 0.003, normal: 0.004, rough: 0.006 },
  drivetrainEfficiency: 0.976,
  wheelInertia: 0.14,
  cp: 300,
  wPrime: 20000,
  maxPower: 900,
  maxLateralAcceleration: 4,
  extras: {},
  createdAt: now,
  updatedAt: now,
} as typeof riderSetups.$inferSelect
const optimization = (inputs: Record<string, unknown>) =>
  ({
    id: 'o1',
    type: 'pacing',
    name: 'Race day',
    inputs,
    courseId: 'c1',
    riderSetupId: 's1',
    ownerUid: 'u1',
    ownerTeam: null,
    createdAt: now,
    updatedAt: now,
  }) as unknown as typeof optimizations.$inferSelect

describe('run snapshot and engine input', () => {
  const override = {
    rider_mass: 64,
    positions: [{ name: 'aero', cda: 0.21, min_speed: 0, max_speed: 30 }],
  }
  const inputs = {
    rider_override: override,
    environment: {
      event_start: '2026-07-14T09:30',
      wind_segments: [{ start_m: 0, end_m: 1500, wind_speed_mps: 4, wind_from_deg: 45 }],
    },
  }
  const snapshot = snapshotOf('u1', optimization(inputs), course, setup)

  it('records the effective setup: the override’s values, the saved row’s others', () => {
    expect(snapshot.rider_setup.riderMass).toBe(64)
    expect(snapshot.rider_setup.positions).toEqual(override.positions)
    expect(snapshot.rider_setup.bikeMass).toBe(8.5)
    expect(snapshot.rider_setup.name).toBe('TT bike')
    expect(snapshot.optimization.inputs).toEqual(inputs)
    expect(setup.riderMass).toBe(70)
  })

  it('derives the same scenario as the one builder on the rows (the preview’s)', () => {
    const fromSnapshot = optimizerInputOf(snapshot)
    const direct = storedOptimizerInput(segments, undefined, storedSetupOf(setup), inputs, 'pacing')
    expect(fromSnapshot.scenario).toEqual(direct.scenario)
    const parsed = parseOptimizerInput(fromSnapshot)
    expect(parsed.input.rider.massKg).toBe(65)
    expect(parsed.input.rider.cdaM2).toBe(0.21)
    expect(parsed.input.environment!.windSegments).toHaveLength(1)
  })

  it('refuses a bad override naming rider_override and the value', () => {
    const bad = optimization({ rider_override: { rider_mass: -5 } })
    expect(() => snapshotOf('u1', bad, course, setup)).toThrow(EngineInputError)
    expect(() => snapshotOf('u1', bad, course, setup)).toThrow(/rider_override\.rider_mass.*-5/)
  })
})
