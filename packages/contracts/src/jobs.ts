// Background jobs as the API shows them: GET /api/jobs/:id (and the cancel's answer), and the
// answer of POST /api/optimizations/:id/run that queues one.
import { z } from 'zod'
import { timestampSchema } from './common.ts'
import { jobStatusSchema } from './simulation.ts'

/** A job's state: progress 0–100, what it made when it succeeded, its error when it failed. */
export const jobStateSchema = z.object({
  id: z.string(),
  /** import | optimization | export … */
  kind: z.string(),
  state: jobStatusSchema,
  progress: z.number(),
  message: z.string().nullable(),
  attempts: z.number().int(),
  result_id: z.string().optional(),
  export_file_id: z.string().optional(),
  error: z.object({ code: z.string(), message: z.string() }).optional(),
  created_at: timestampSchema,
  started_at: timestampSchema.nullable(),
  finished_at: timestampSchema.nullable(),
})
export type JobState = z.infer<typeof jobStateSchema>

/** A queued run: its job and the result version it fills. */
export const runStartedSchema = z.object({
  job_id: z.string(),
  result_id: z.string(),
  version: z.number().int(),
  state: jobStatusSchema,
})
export type RunStarted = z.infer<typeof runStartedSchema>
