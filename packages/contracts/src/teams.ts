import { z } from 'zod'
import { timestampSchema } from './common.ts'
import { teamRoleSchema } from './users.ts'

/** How long an invitation link stays valid. */
export const INVITATION_DAYS = 7

/** POST /api/teams/:id/invitations. Owners are made by transfer or role change, never invited. */
export const invitationCreateSchema = z
  .object({
    email: z.email().trim().max(254),
    role: z.enum(['admin', 'member']).default('member'),
  })
  .strict()

/** An invitation as its team's owners and admins see it (never with its token). */
export const invitationSchema = z.object({
  id: z.string(),
  team_id: z.string(),
  email: z.string(),
  role: teamRoleSchema,
  invited_by: z.string().nullable(),
  created_at: timestampSchema,
  expires_at: timestampSchema,
  status: z.enum(['pending', 'expired']),
})
export type Invitation = z.infer<typeof invitationSchema>

/**
 * The answer to creating an invitation. `link` is given only when it was not e-mailed
 * (no SMTP_URL): the inviter passes it on.
 */
export const invitationCreatedSchema = z.object({
  invitation: invitationSchema,
  emailed: z.boolean(),
  link: z.string().nullable(),
})
export type InvitationCreated = z.infer<typeof invitationCreatedSchema>

/** POST /api/invitations/inspect and /accept: the token from the link. */
export const invitationTokenSchema = z.object({ token: z.string().min(1).max(200) }).strict()

/** What the person holding a valid link sees before accepting. */
export const invitationPreviewSchema = z.object({
  team_name: z.string(),
  email: z.string(),
  role: teamRoleSchema,
  invited_by_name: z.string().nullable(),
  expires_at: timestampSchema,
  /** Whether the signed-in caller's e-mail is the invited one (case-insensitive). */
  email_matches: z.boolean(),
  /** Whether the caller is already in the team. */
  already_member: z.boolean(),
})
export type InvitationPreview = z.infer<typeof invitationPreviewSchema>

/** POST /api/teams/:id/transfer: the member who becomes owner; the caller stays as admin. */
export const teamTransferSchema = z.object({ uid: z.string().min(1) }).strict()

/** GET /api/teams/:id/contents: what deleting the team deletes with it. */
export const teamContentsSchema = z.object({
  courses: z.number().int(),
  rider_setups: z.number().int(),
  optimizations: z.number().int(),
  devices: z.number().int(),
  aero_sessions: z.number().int(),
  files: z.number().int(),
  members: z.number().int(),
  pending_invitations: z.number().int(),
})
export type TeamContents = z.infer<typeof teamContentsSchema>
