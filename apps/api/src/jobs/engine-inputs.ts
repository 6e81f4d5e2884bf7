// From stored rows (course, rider setup, the optimization's inputs) to the engine's inputs.
// The snapshot a result keeps is made of the rows as they were; the engine input is derived from
// it, so a result can always be recomputed from its snapshot.
import { z } from 'zod'
import type { CourseSegmentInput, Environment, Rider } from '@veloptima/engine'
import type { courses, optimizations, riderSetups } from '@veloptima/db'
import type { EngineInput } from './tasks.ts'

type CourseRow = typeof courses.$inferSelect
type SetupRow = typeof riderSetups.$inferSelect
type OptimizationRow = typeof optimizations.$inferSelect

/** The part of `optimizations.inputs` a run reads (snake_case, SI units). */
export const runSettingsSchema = z.object({
  environment: z
    .object({
      temperature_c: z.number().optional(),
      pressure_pa: z.number().optional(),
      altitude_m: z.number().optional(),
      relative_humidity: z.number().optional(),
      wind_speed_mps: z.number().optional(),
      wind_from_deg: z.number().optional(),
    })
    .partial()
    .default({}),
  constraint: z
    .discriminatedUnion('type', [
      z.object({ type: z.literal('w_prime_balance') }),
      z.object({ type: z.literal('normalized_power'), power_w: z.number() }),
      z.object({ type: z.literal('average_power'), power_w: z.number() }),
    ])
    .optional(),
  /** Constant power for the constant-power result (W). */
  power_w: z.number().optional(),
})
export type RunSettings = z.infer<typeof runSettingsSchema>

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

const orUndefined = (v: number | null | undefined) => (v === null ? undefined : v)

/** The engine's course, rider and environment for a snapshot. */
export function engineInputOf(snapshot: RunSnapshot): EngineInput {
  const settings = runSettingsSchema.parse(snapshot.optimization.inputs ?? {})
  const setup = snapshot.rider_setup
  const crr = setup.crr
  const defaultSurface = snapshot.course.settings?.surface ?? 'normal'
  const segments: CourseSegmentInput[] = snapshot.course.segments.map((s) => ({
    lengthM: s.end - s.start,
    grade: s.grade,
    headingDeg: s.heading,
    ...(s.radius ? { radiusM: s.radius } : {}),
    crrFactor: crr.normal > 0 ? crr[s.surface ?? defaultSurface] / crr.normal : 1,
  }))
  // The first position is the one ridden; per-speed position switching is the engine's to add.
  const position = setup.positions[0]
  const rider: Rider = {
    massKg: setup.riderMass + setup.extraMass,
    bikeMassKg: setup.bikeMass,
    cdaM2: position?.cda ?? Number.NaN,
    crr: crr.normal,
    drivetrainEfficiency: setup.drivetrainEfficiency,
    wheelInertiaKgM2: setup.wheelInertia,
    cpW: orUndefined(setup.cp),
    wPrimeJ: orUndefined(setup.wPrime),
    maxPowerW: orUndefined(setup.maxPower),
  }
  for (const key of Object.keys(rider) as (keyof Rider)[]) {
    if (rider[key] === undefined) delete rider[key]
  }
  const env = settings.environment
  const environment: Environment = {}
  if (env.temperature_c !== undefined) environment.temperatureC = env.temperature_c
  if (env.pressure_pa !== undefined) environment.pressurePa = env.pressure_pa
  if (env.altitude_m !== undefined) environment.pressureAltitudeM = env.altitude_m
  if (env.relative_humidity !== undefined) environment.relativeHumidity = env.relative_humidity
  if (env.wind_speed_mps !== undefined) environment.windSpeedMps = env.wind_speed_mps
  if (env.wind_from_deg !== undefined) environment.windFromDeg = env.wind_from_deg
  return {
    segments,
    startAltitudeM: snapshot.course.segments[0]?.altitude ?? 0,
    rider,
    environment,
  }
}
