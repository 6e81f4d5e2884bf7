import { z } from 'zod'

/** Every API error body: a stable machine code and a message for the user. */
export const apiErrorSchema = z.object({
  code: z.string(),
  message: z.string(),
  details: z.unknown().optional(),
})
export type ApiError = z.infer<typeof apiErrorSchema>

export * from './common.ts'
export * from './users.ts'
export * from './feedback.ts'
export * from './teams.ts'
export * from './riders.ts'
export * from './simulation.ts'
export * from './race-plan.ts'
export * from './jobs.ts'
export * from './weather.ts'
export * from './aero.ts'
export * from './aero-planner.ts'
export * from './notifications.ts'
export * from './billing.ts'
