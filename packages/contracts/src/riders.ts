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
  extras: setupExtrasSchema,
}

export const riderSetupSchema = z.object({ ...ownedItemFields, ...setupFields })
export type RiderSetup = z.infer<typeof riderSetupSchema>

/** POST /api/rider-setups. Defaults: extra_mass 0, η 0.976, wheel inertia 0.14 kg·m², 4 m/s². */
export const riderSetupCreateSchema = z
  .object({
    owner: ownerInputSchema,
    ...setupFields,
    bike_type: setupFields.bike_type.default('road_race'),
    extra_mass: setupFields.extra_mass.default(0),
    drivetrain_efficiency: setupFields.drivetrain_efficiency.default(0.976),
    wheel_inertia: setupFields.wheel_inertia.default(0.14),
    cp: setupFields.cp.default(null),
    w_prime: setupFields.w_prime.default(null),
    max_power: setupFields.max_power.default(null),
    max_lateral_acceleration: setupFields.max_lateral_acceleration.default(4),
    extras: setupFields.extras.default({}),
  })
  .strict()
export type RiderSetupCreate = z.input<typeof riderSetupCreateSchema>

export const riderSetupPatchSchema = z.object(setupFields).partial().strict()
export type RiderSetupPatch = z.infer<typeof riderSetupPatchSchema>
