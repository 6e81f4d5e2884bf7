import { z } from 'zod'
import { idSchema, timestampSchema } from './common.ts'

/** GET /api/users/:uid (the specification's users/{uid}). */
export const userSchema = z.object({
  uid: z.string(),
  email: z.string(),
  display_name: z.string(),
  photo_url: z.string().nullable(),
  current_team: z.string().nullable(),
  trial_used: z.boolean(),
  trial_ends_at: timestampSchema.nullable(),
  use_imperial_units: z.boolean(),
})
export type User = z.infer<typeof userSchema>

/** PATCH /api/users/:uid: any of these. `current_team` must be a team the caller belongs to. */
export const userPatchSchema = z
  .object({
    current_team: idSchema.nullable(),
    use_imperial_units: z.boolean(),
    display_name: z.string().trim().min(1).max(100),
  })
  .partial()
  .strict()
export type UserPatch = z.infer<typeof userPatchSchema>

/** Length of the free trial (once per user). */
export const TRIAL_DAYS = 14

export const teamRoleSchema = z.enum(['owner', 'admin', 'member'])
export type TeamRole = z.infer<typeof teamRoleSchema>

/** GET /api/teams/:id (the specification's teams/{teamId}). */
export const teamSchema = z.object({ id: z.string(), name: z.string() })
export type Team = z.infer<typeof teamSchema>

/** GET /api/teams: the caller's teams with the caller's role. */
export const myTeamSchema = teamSchema.extend({ role: teamRoleSchema })
export type MyTeam = z.infer<typeof myTeamSchema>

export const teamCreateSchema = z.object({ name: z.string().trim().min(1).max(100) }).strict()
export const teamPatchSchema = teamCreateSchema

export const teamMemberSchema = z.object({
  uid: z.string(),
  email: z.string(),
  display_name: z.string(),
  role: teamRoleSchema,
  created_at: timestampSchema,
})
export type TeamMember = z.infer<typeof teamMemberSchema>

/** POST /api/teams/:id/members: by e-mail (the person must have signed in once) or uid. */
export const teamMemberAddSchema = z
  .object({
    email: z.email().optional(),
    uid: z.string().min(1).optional(),
    role: teamRoleSchema.default('member'),
  })
  .strict()
  .refine((v) => Boolean(v.email) !== Boolean(v.uid), 'give exactly one of email or uid')

export const teamMemberPatchSchema = z.object({ role: teamRoleSchema }).strict()

/** GET /api/subscriptions: plans held by the caller or the caller's teams. */
export const subscriptionSchema = z.object({
  id: z.string(),
  plan: z.enum(['individual', 'team', 'aero']),
  period: z.enum(['month', 'year']),
  status: z.enum(['active', 'cancelled', 'expired']),
  uid: z.string().nullable(),
  team_id: z.string().nullable(),
  starts_at: timestampSchema,
  ends_at: timestampSchema,
})
export type Subscription = z.infer<typeof subscriptionSchema>

/** POST /api/feedback (the built-in feedback form). */
export const feedbackCreateSchema = z
  .object({
    text: z.string().trim().min(1, 'write something').max(5000),
    rating: z.number().int().min(1).max(5).optional(),
    page: z.string().max(500).optional(),
  })
  .strict()
export type FeedbackCreate = z.infer<typeof feedbackCreateSchema>
