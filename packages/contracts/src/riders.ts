import { z } from 'zod'
import { ownedItemFields, ownerInputSchema, ranged } from './common.ts'

/** The rider profile (keyed by uid). Units: m, kg, W, J. */
export const riderProfileSchema = z.object({
  uid: z.string(),
  rider_name: z.string(),
  rider_height: z.number().nullable(),
  rider_weight: z.number().nullable(),
  cp: z.number().nullable(),
  w_prime: z.number().nullable(),
  updated_at: z.string(),
})
export type RiderProfile = z.infer<typeof riderProfileSchema>

/** PUT /api/rider-profiles/:uid. An omitted or empty rider_name means the display name. */
export const riderProfilePutSchema = z
  .object({
    rider_name: z.string().trim().max(100).nullable().optional(),
    rider_height: ranged(1.0, 2.5, 'm').nullable().optional(),
    rider_weight: ranged(25, 250, 'kg').nullable().optional(),
    cp: ranged(50, 700, 'W').nullable().optional(),
    w_prime: ranged(1000, 60000, 'J').nullable().optional(),
  })
  .strict()
export type RiderProfilePut = z.infer<typeof riderProfilePutSchema>

export const bikeTypeSchema = z.enum(['triathlon', 'time_trial', 'road_race', 'road_endurance'])

/** A position with its drag area (m²) and the speed range (m/s) where it is ridden. */
export const setupPositionSchema = z
  .object({
    name: z.string().trim().min(1).max(50),
    cda: ranged(0.1, 0.8, 'm²'),
    min_speed: ranged(0, 30, 'm/s'),
    max_speed: ranged(0, 30, 'm/s'),
  })
  .strict()
  .refine((p) => p.min_speed <= p.max_speed, {
    message: 'min_speed must not exceed max_speed',
    path: ['min_speed'],
  })

export const crrSchema = z
  .object({
    smooth: ranged(0.001, 0.03, ''),
    normal: ranged(0.001, 0.03, ''),
    rough: ranged(0.001, 0.05, ''),
  })
  .strict()

/** What the setup form keeps besides the physics: the rider's name and height, the tyre preset. */
export const setupExtrasSchema = z
  .object({
    rider_name: z.string().trim().max(100),
    rider_height: ranged(1.0, 2.5, 'm'),
    tyre: z.string().trim().max(50),
  })
  .partial()
  .strict()

const setupFields = {
  name: z.string().trim().min(1).max(100),
  bike_type: bikeTypeSchema,
  rider_mass: ranged(25, 250, 'kg'),
  bike_mass: ranged(3, 40, 'kg'),
  extra_mass: ranged(0, 30, 'kg'),
  positions: z.array(setupPositionSchema).min(1).max(4),
  crr: crrSchema,
  drivetrain_efficiency: ranged(0.8, 1, ''),
  wheel_inertia: ranged(0, 1, 'kg·m²'),
  cp: ranged(50, 700, 'W').nullable(),
  w_prime: ranged(1000, 60000, 'J').nullable(),
  max_power: ranged(100, 3000, 'W').nullable(),
  max_lateral_acceleration: ranged(1, 15, 'm/s²'),
  /** Fraction of CP and W′ lost per 1,000 kJ of work (0.06 = 6 %); null: no fade modelled. */
  durability: ranged(0, 0.5, '').nullable(),
  /** Acclimatised to heat: CP falls less with the temperature above 17 °C. */
  heat_acclimatised: z.boolean(),
  extras: setupExtrasSchema,
}

export const riderSetupSchema = z.object({ ...ownedItemFields, ...setupFields })
export type RiderSetup = z.infer<typeof riderSetupSchema>

/**
 * A value every pacing plan needs (CP, W′): a new setup must have it and a patch cannot clear it.
 * Stored setups from before keep reading with null (`riderSetupSchema`); `pacingGaps` names what
 * they lack.
 */
const neededForPacing = (min: number, max: number, unit: string, what: string) =>
  z
    .number({
      error: (issue) =>
        issue.input === undefined || issue.input === null
          ? `${what} is needed by every pacing plan: enter a value from ${min} to ${max} ${unit}`
          : `must be a number in ${unit}`,
    })
    .refine(Number.isFinite, 'must be a finite number')
    .min(min, `must be at least ${min} ${unit}`)
    .max(max, `must be at most ${max} ${unit}`)

const cpNeeded = neededForPacing(50, 700, 'W', 'the critical power (CP)')
const wPrimeNeeded = neededForPacing(1000, 60000, 'J', 'W′ (the work above CP)')

/** Max power, when given with CP, must be above it: a plan's ceiling below CP cannot use W′. */
function maxPowerAboveCp(
  s: { cp?: number | null | undefined; max_power?: number | null | undefined },
  ctx: z.RefinementCtx,
) {
  if (s.cp != null && s.max_power != null && !(s.max_power > s.cp)) {
    ctx.addIssue({
      code: 'custom',
      path: ['max_power'],
      message: `must be above cp (${s.cp} W)`,
    })
  }
}

/**
 * POST /api/rider-setups. CP and W′ are required; defaults: extra_mass 0, η 0.976, wheel inertia
 * 0.14 kg·m², 4 m/s², no max power (a plan's ceiling is then 2 × CP), no durability (no fade),
 * not heat-acclimatised.
 */
export const riderSetupCreateSchema = z
  .object({
    owner: ownerInputSchema,
    ...setupFields,
    bike_type: setupFields.bike_type.default('road_race'),
    extra_mass: setupFields.extra_mass.default(0),
    drivetrain_efficiency: setupFields.drivetrain_efficiency.default(0.976),
    wheel_inertia: setupFields.wheel_inertia.default(0.14),
    cp: cpNeeded,
    w_prime: wPrimeNeeded,
    max_power: setupFields.max_power.default(null),
    max_lateral_acceleration: setupFields.max_lateral_acceleration.default(4),
    durability: setupFields.durability.default(null),
    heat_acclimatised: setupFields.heat_acclimatised.default(false),
    extras: setupFields.extras.default({}),
  })
  .strict()
  .superRefine(maxPowerAboveCp)
export type RiderSetupCreate = z.input<typeof riderSetupCreateSchema>

/**
 * PATCH /api/rider-setups/:id: any fields, but CP and W′ cannot be cleared; max power against the
 * stored CP is checked by the service (`maxPowerAgainstStored`).
 */
export const riderSetupPatchSchema = z
  .object({ ...setupFields, cp: cpNeeded, w_prime: wPrimeNeeded })
  .partial()
  .strict()
  .superRefine(maxPowerAboveCp)
export type RiderSetupPatch = z.infer<typeof riderSetupPatchSchema>

/**
 * What the rider setup form sends, for a new setup and an edit alike: the setup's physics and the
 * form's extras, with CP and W′ (every pacing plan needs them) and max power above CP. Every body
 * it accepts is a valid `riderSetupCreateSchema` (with an owner added) and `riderSetupPatchSchema`;
 * the form reads its fields' ranges from it.
 */
export const riderSetupFormSchema = z
  .object({
    name: setupFields.name,
    bike_type: setupFields.bike_type,
    rider_mass: setupFields.rider_mass,
    bike_mass: setupFields.bike_mass,
    extra_mass: setupFields.extra_mass,
    positions: setupFields.positions,
    crr: setupFields.crr,
    drivetrain_efficiency: setupFields.drivetrain_efficiency,
    cp: cpNeeded,
    w_prime: wPrimeNeeded,
    max_power: setupFields.max_power,
    durability: setupFields.durability.default(null),
    heat_acclimatised: setupFields.heat_acclimatised.default(false),
    extras: setupFields.extras,
  })
  .strict()
  .superRefine(maxPowerAboveCp)
export type RiderSetupForm = z.infer<typeof riderSetupFormSchema>

/**
 * A patch that sets CP or max power keeps max power above CP with the stored values it does not
 * send (an old setup is renamed freely): the issue in the API's field words, or null.
 */
export function maxPowerAgainstStored(
  patch: { cp?: number | null | undefined; max_power?: number | null | undefined },
  stored: { cp: number | null; max_power: number | null },
): { path: ['max_power']; message: string } | null {
  if (patch.cp === undefined && patch.max_power === undefined) return null
  const cp = patch.cp !== undefined ? patch.cp : stored.cp
  const max = patch.max_power !== undefined ? patch.max_power : stored.max_power
  if (cp == null || max == null || max > cp) return null
  return { path: ['max_power'], message: `must be above cp (${cp} W)` }
}

/** How long (s) the effort lasts whose power is a setup's default max power. */
export const DEFAULT_MAX_POWER_EFFORT_S = 60

/**
 * The default max power of a setup: the power the rider holds for one minute by the critical
 * power relation P = CP + W′/t (Monod & Scherrer; docs/engine/science.md §3.1), in whole watts,
 * at least the lowest max power a setup accepts (100 W). Always above CP.
 */
export function defaultMaxPower(cpW: number, wPrimeJ: number): number {
  return Math.max(100, Math.round(cpW + wPrimeJ / DEFAULT_MAX_POWER_EFFORT_S))
}

/** A field a pacing optimization needs that a setup lacks (`label` in the form's words). */
export type PacingGap = {
  field: 'rider_mass' | 'positions' | 'cp' | 'w_prime'
  label: string
}

/**
 * What a rider setup lacks for a pacing optimization with the default W′-balance limit, empty
 * when one will run: the rider's mass, a CdA for every position, CP and W′ (the engine refuses
 * W′ balance without them, packages/engine/src/optimize/validate.ts). Max power may be absent:
 * the plan's ceiling is then 2 × CP (packages/engine/src/optimize/stored-input.ts). Used by the
 * home checklist; the API refuses to save a setup with these gaps (`riderSetupCreateSchema`).
 */
export function pacingGaps(s: {
  rider_mass: number | null | undefined
  positions: readonly { cda: number | null | undefined }[] | null | undefined
  cp: number | null | undefined
  w_prime: number | null | undefined
}): PacingGap[] {
  const gaps: PacingGap[] = []
  const positive = (x: number | null | undefined) => typeof x === 'number' && x > 0
  if (!positive(s.rider_mass)) gaps.push({ field: 'rider_mass', label: 'rider weight' })
  const positions = s.positions ?? []
  if (positions.length === 0 || !positions.every((p) => positive(p.cda))) {
    gaps.push({ field: 'positions', label: 'CdA of every position' })
  }
  if (!positive(s.cp)) gaps.push({ field: 'cp', label: 'CP' })
  if (!positive(s.w_prime)) gaps.push({ field: 'w_prime', label: 'W′' })
  return gaps
}
