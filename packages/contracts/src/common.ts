import { z } from 'zod'

/** A uuid as the API shows ids of collection items and teams. */
export const idSchema = z.uuid({ message: 'must be an id (uuid)' })

export const timestampSchema = z.string()

/** Cursor pagination: `limit` (1–200, default 50) and the `next_cursor` of the previous page. */
export const pageQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(200).default(50),
  cursor: z.string().min(1).max(200).optional(),
})
export type PageQuery = z.infer<typeof pageQuerySchema>

/**
 * `owner=UID,TEAMID`: items owned by any of these (each must be the caller or one of the caller's
 * teams). Without it: everything the caller can see.
 */
export const ownerFilterSchema = z
  .string()
  .max(1000)
  .transform((s) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  )

export const listQuerySchema = pageQuerySchema.extend({ owner: ownerFilterSchema.optional() })
export type ListQuery = z.infer<typeof listQuerySchema>

export const pageOf = <T extends z.ZodType>(item: T) =>
  z.object({ items: z.array(item), next_cursor: z.string().nullable() })
export type Page<T> = { items: T[]; next_cursor: string | null }

/** Fields every owned collection item carries. `owner` is the user id or the team id. */
export const ownedItemFields = {
  id: idSchema,
  owner: z.string(),
  owner_type: z.enum(['user', 'team']),
  created_at: timestampSchema,
  updated_at: timestampSchema,
}

/** On create: whom the new item belongs to (the caller's uid by default, or one of their teams). */
export const ownerInputSchema = z.string().min(1).max(200).optional()

export const jsonObjectSchema = z.record(z.string(), z.unknown())

/** A finite number within [min, max], with a message that names the unit. */
export const ranged = (min: number, max: number, unit: string) => {
  const u = unit ? ` ${unit}` : ''
  return z
    .number({ message: unit ? `must be a number in ${unit}` : 'must be a number' })
    .refine(Number.isFinite, 'must be a finite number')
    .min(min, `must be at least ${min}${u}`)
    .max(max, `must be at most ${max}${u}`)
}
