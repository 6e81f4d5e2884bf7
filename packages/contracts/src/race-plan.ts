// The race plan of a pacing optimization (`inputs` of simulation.ts): the longest target time,
// the effects that lower CP (heat, altitude), the fuel options and the rules the rider follows.
// The engine checks them again when a run starts (packages/engine/src/scenario-rules.ts).
import { z } from 'zod'
import { ranged } from './common.ts'

/** Longest target time a plan may ask for (s): one week. */
export const MAX_TARGET_TIME_S = 7 * 86400

/** `inputs.options`: CP lowered by the heat above 17 °C and by the altitude along the course. */
export const modelOptionsSchema = z
  .object({ heat: z.boolean(), altitude: z.boolean() })
  .partial()
  .strict()

/** `inputs.fuel`: what the gut takes (g of carbohydrate per hour) and the glycogen store (g). */
export const fuelInputSchema = z
  .object({
    gut_tolerance_g_per_h: ranged(30, 150, 'g/h'),
    glycogen_store_g: ranged(100, 1000, 'g'),
  })
  .partial()
  .strict()

/** Most stretches with their own limits in `inputs.rules.stretches`. */
export const MAX_RULE_STRETCHES = 50

/** A stretch of the course (m from the start) with its own power or speed limit or fixed power. */
const ruleStretchSchema = z
  .object({
    start_m: ranged(0, 1e7, 'm'),
    end_m: ranged(0, 1e7, 'm'),
    max_power_w: ranged(0, 3000, 'W').optional(),
    max_speed_mps: ranged(0.5, 30, 'm/s').optional(),
    power_w: ranged(0, 3000, 'W').optional(),
    label: z.string().trim().max(100).optional(),
  })
  .strict()
  .refine((r) => r.end_m > r.start_m, {
    message: 'must be more than start_m',
    path: ['end_m'],
  })
  .refine(
    (r) => r.max_power_w !== undefined || r.power_w !== undefined || r.max_speed_mps !== undefined,
    { message: 'needs max_power_w, power_w or max_speed_mps' },
  )

/**
 * `inputs.rules`: how the plan may ride. An easy start (the first `duration_s` at most
 * `max_cp_fraction` × CP), coasting on descents steeper than `descent_grade` (a negative grade)
 * and into braking points, a power cap on descents steeper than `grade`, and stretches with
 * their own limits. The engine checks them again when a run starts.
 */
export const pacingRulesSchema = z
  .object({
    easy_start: z
      .object({
        duration_s: ranged(0, 14_400, 's'),
        max_cp_fraction: ranged(0.3, 1.2, ''),
      })
      .strict(),
    coast: z
      .object({
        descent_grade: ranged(-0.3, 0, '').optional(),
        before_braking: z.boolean().optional(),
      })
      .strict(),
    descent_cap: z.object({ grade: ranged(-0.3, 0, ''), power_w: ranged(0, 3000, 'W') }).strict(),
    stretches: z.array(ruleStretchSchema).max(MAX_RULE_STRETCHES),
  })
  .partial()
  .strict()
export type PacingRules = z.infer<typeof pacingRulesSchema>
