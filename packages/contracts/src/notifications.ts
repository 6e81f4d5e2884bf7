import { z } from 'zod'
import { jsonObjectSchema, pageQuerySchema, timestampSchema } from './common.ts'

/** The specification's notification (user, showed, type, title, text, download_blob). */
export const notificationSchema = z.object({
  id: z.string(),
  /** Monotonic: the live stream's event id. */
  seq: z.number().int(),
  user: z.string(),
  type: z.string(),
  title: z.string(),
  text: z.string(),
  /** A stored file id: GET /api/files/{download_blob}/download-url gives the link. */
  download_blob: z.string().nullable(),
  data: jsonObjectSchema.nullable(),
  showed: z.boolean(),
  created_at: timestampSchema,
})
export type Notification = z.infer<typeof notificationSchema>

export const notificationListQuerySchema = pageQuerySchema.extend({
  showed: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
})

/** PATCH /api/notifications/:id: merge semantics (only the fields given change). */
export const notificationPatchSchema = z.object({ showed: z.boolean() }).partial().strict()

/**
 * GET /api/live (Server-Sent Events). Events:
 * - `rider-profile`: data is the caller's RiderProfile or null (sent on connect and on change);
 * - `notification`: data is a Notification with showed=false; `id:` is its `seq`, so that
 *   EventSource's automatic reconnect (Last-Event-ID) resumes after the last one received;
 * - `job`: data is {id, kind, status, progress, message, subject_type, subject_id};
 * - `team-item`: data is {collection, team_id}: items of one of the caller's teams in that
 *   collection were created, edited, moved or deleted (reload that list);
 * - comments (`: ping`) as heartbeats.
 * The stream ends when the session token used to open it expires: open a new one with a fresh
 * token, passing the last event id received as `?last_event_id=` (a new EventSource does not
 * send the Last-Event-ID header; its own automatic reconnects do).
 */
export const liveEventNames = ['rider-profile', 'notification', 'job', 'team-item'] as const
export type LiveEventName = (typeof liveEventNames)[number]

export const liveTeamItemsSchema = z.object({
  collection: z.enum(['courses', 'rider-setups', 'optimizations', 'devices', 'aero-sessions']),
  team_id: z.string(),
})
export type LiveTeamItems = z.infer<typeof liveTeamItemsSchema>

export const liveJobSchema = z.object({
  id: z.string(),
  kind: z.string(),
  status: z.string(),
  progress: z.number(),
  message: z.string().nullable(),
  subject_type: z.string().nullable(),
  subject_id: z.string().nullable(),
  updated_at: z.string(),
})
export type LiveJob = z.infer<typeof liveJobSchema>
