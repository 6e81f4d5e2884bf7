import { z } from 'zod'
import {
  idSchema,
  jsonObjectSchema,
  listQuerySchema,
  ownedItemFields,
  ownerInputSchema,
  ranged,
  timestampSchema,
} from './common.ts'

export const surfaceSchema = z.enum(['smooth', 'normal', 'rough'])

export const courseTrackSchema = z
  .object({
    lat: z.array(z.number()),
    lon: z.array(z.number()),
    ele: z.array(z.number()),
    distance: z.array(z.number()),
  })
  .refine(
    (t) => [t.lon, t.ele, t.distance].every((a) => a.length === t.lat.length),
    'lat, lon, ele and distance must have the same length',
  )

export const courseSegmentSchema = z.object({
  start: z.number(),
  end: z.number(),
  grade: z.number(),
  heading: z.number(),
  radius: z.number().nullable(),
  altitude: z.number(),
  surface: surfaceSchema.optional(),
  manual: z.boolean().optional(),
})

export const courseStatsSchema = z.object({
  distance: z.number(),
  ascent: z.number(),
  descent: z.number(),
  max_grade: z.number(),
  min_grade: z.number(),
  climbs: z
    .array(z.object({ start: z.number(), end: z.number(), ascent: z.number(), grade: z.number() }))
    .optional(),
})

/** Course sections (the stretches a pacing plan targets), contiguous from the first start. */
export const courseSectionsSchema = z
  .array(
    z
      .object({
        start_m: z.number().min(0),
        end_m: z.number(),
        name: z.string().trim().max(100).optional(),
      })
      .strict()
      .refine((s) => s.end_m > s.start_m, 'end_m must be greater than start_m'),
  )
  .min(1)
  .max(1000)
  .superRefine((sections, ctx) => {
    sections.forEach((s, i) => {
      const prev = sections[i - 1]
      if (prev && Math.abs(s.start_m - prev.end_m) > 1e-6)
        ctx.addIssue({
          code: 'custom',
          path: [i, 'start_m'],
          message: `section ${i + 1} starts at ${s.start_m} m but section ${i} ends at ${prev.end_m} m`,
        })
    })
  })
export type CourseSectionJson = z.infer<typeof courseSectionsSchema>[number]

export const courseSettingsSchema = z
  .object({
    surface: surfaceSchema.optional(),
    wind: z
      .object({ speed: z.number().min(0).max(40), direction: z.number().min(0).max(360) })
      .optional(),
    trim: z.object({ start: z.number().min(0), end: z.number().min(0) }).optional(),
    segmentation: z.enum(['coarse', 'medium', 'fine', 'manual']).optional(),
    sections: courseSectionsSchema.optional(),
  })
  .strict()

/** A course as listed (metadata and statistics). */
export const courseSummarySchema = z.object({
  ...ownedItemFields,
  owner: z.string().nullable(),
  owner_type: z.enum(['user', 'team', 'sample']),
  name: z.string(),
  sample: z.boolean(),
  source_file_id: z.string().nullable(),
  source_format: z.string().nullable(),
  stats: courseStatsSchema.nullable(),
  settings: courseSettingsSchema,
})
export type CourseSummary = z.infer<typeof courseSummarySchema>

/** GET /api/courses/:id: with track and segments. */
export const courseSchema = courseSummarySchema.extend({
  track: courseTrackSchema.nullable(),
  segments: z.array(courseSegmentSchema),
})
export type Course = z.infer<typeof courseSchema>

const courseBody = {
  name: z.string().trim().min(1).max(200),
  source_file_id: idSchema.nullable(),
  source_format: z.enum(['gpx', 'tcx', 'fit', 'json']).nullable(),
  track: courseTrackSchema.nullable(),
  segments: z.array(courseSegmentSchema).max(100_000),
  stats: courseStatsSchema.nullable(),
  settings: courseSettingsSchema,
}
export const courseCreateSchema = z
  .object({ owner: ownerInputSchema, ...courseBody })
  .partial()
  .required({ name: true })
  .strict()
export const coursePatchSchema = z.object(courseBody).partial().strict()

export const optimizationTypeSchema = z.enum(['pacing', 'equipment'])

export const optimizationSchema = z.object({
  ...ownedItemFields,
  type: optimizationTypeSchema,
  name: z.string(),
  course_id: z.string().nullable(),
  rider_setup_id: z.string().nullable(),
  inputs: jsonObjectSchema,
})
export type Optimization = z.infer<typeof optimizationSchema>

/** A stretch of the course with its own wind (distances from the course start, m). */
export const windSegmentSchema = z
  .object({
    start_m: ranged(0, 1e7, 'm'),
    end_m: ranged(0, 1e7, 'm'),
    wind_speed_mps: ranged(0, 60, 'm/s'),
    wind_from_deg: ranged(0, 360, '°'),
  })
  .strict()
  .refine((w) => w.end_m > w.start_m, {
    message: 'must be more than start_m',
    path: ['end_m'],
  })

/** A position in a setup override (the name may be left out). */
const overridePositionSchema = z
  .object({
    name: z.string().trim().min(1).max(50).optional(),
    cda: ranged(0.1, 0.8, 'm²'),
    min_speed: ranged(0, 30, 'm/s').optional(),
    max_speed: ranged(0, 30, 'm/s').optional(),
  })
  .refine((p) => (p.min_speed ?? 0) <= (p.max_speed ?? Infinity), {
    message: 'must not be less than min_speed',
    path: ['max_speed'],
  })

/**
 * `inputs.rider_override`: setup values for this optimization only, in the setup's names and
 * ranges (the saved setup is untouched).
 */
export const setupOverrideSchema = z
  .object({
    rider_mass: ranged(25, 250, 'kg'),
    bike_mass: ranged(3, 40, 'kg'),
    extra_mass: ranged(0, 30, 'kg'),
    positions: z.array(overridePositionSchema).min(1).max(4),
    crr: z
      .object({
        smooth: ranged(0.001, 0.03, ''),
        normal: ranged(0.001, 0.03, ''),
        rough: ranged(0.001, 0.05, ''),
      })
      .partial()
      .strict(),
    drivetrain_efficiency: ranged(0.8, 1, ''),
    wheel_inertia: ranged(0, 1, 'kg·m²'),
    cp: ranged(50, 700, 'W').nullable(),
    w_prime: ranged(1000, 60000, 'J').nullable(),
    max_power: ranged(100, 3000, 'W').nullable(),
  })
  .partial()
  .strict()

/**
 * An optimization's `inputs`, checked where this format adds fields (wind per stretch, event
 * start, setup override); the rest is the engine's to check when a run starts
 * (packages/engine/src/optimize/stored-input.ts reads it all).
 */
export const optimizationInputsSchema = z.looseObject({
  environment: z
    .looseObject({
      wind_segments: z
        .array(windSegmentSchema)
        .max(200)
        .superRefine((list, ctx) => {
          for (let i = 1; i < list.length; i++) {
            if (list[i]!.start_m < list[i - 1]!.end_m) {
              ctx.addIssue({
                code: 'custom',
                message: `must not start before the previous stretch's end_m (${list[i - 1]!.end_m}): stretches are sorted and do not overlap`,
                path: [i, 'start_m'],
              })
            }
          }
        })
        .optional(),
      event_start: z
        .string()
        .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'must be a local date and time YYYY-MM-DDTHH:mm')
        .optional(),
    })
    .optional(),
  rider_override: setupOverrideSchema.optional(),
})

const optimizationBody = {
  name: z.string().trim().min(1).max(200),
  course_id: idSchema.nullable(),
  rider_setup_id: idSchema.nullable(),
  inputs: optimizationInputsSchema,
}
export const optimizationCreateSchema = z
  .object({
    owner: ownerInputSchema,
    type: optimizationTypeSchema,
    ...optimizationBody,
    course_id: optimizationBody.course_id.default(null),
    rider_setup_id: optimizationBody.rider_setup_id.default(null),
    inputs: optimizationBody.inputs.default({}),
  })
  .strict()
export const optimizationPatchSchema = z.object(optimizationBody).partial().strict()
export const optimizationListQuerySchema = listQuerySchema.extend({
  type: optimizationTypeSchema.optional(),
})

export const jobStatusSchema = z.enum(['queued', 'running', 'succeeded', 'failed', 'cancelled'])

/** One result version: the inputs snapshot and every result. */
export const optimizationResultSchema = z.object({
  id: z.string(),
  optimization_id: z.string(),
  version: z.number().int(),
  label: z.string().nullable(),
  status: jobStatusSchema,
  progress: z.number(),
  inputs: jsonObjectSchema,
  result: jsonObjectSchema.nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  job_id: z.string().nullable(),
  export_file_id: z.string().nullable(),
  started_at: timestampSchema.nullable(),
  finished_at: timestampSchema.nullable(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
})
export type OptimizationResult = z.infer<typeof optimizationResultSchema>
/** The list leaves out the (large) inputs snapshot and result; GET one result for them. */
export const optimizationResultSummarySchema = optimizationResultSchema.omit({
  inputs: true,
  result: true,
})
export const optimizationResultPatchSchema = z
  .object({ label: z.string().trim().max(200).nullable() })
  .strict()

/** A stored file's metadata (upload and download are under /api/files too). */
export const fileMetaSchema = z.object({
  ...ownedItemFields,
  name: z.string(),
  content_type: z.string(),
  size: z.number(),
  sha256: z.string(),
  kind: z.string(),
})
export type FileMeta = z.infer<typeof fileMetaSchema>
export const fileMetaPatchSchema = z.object({ name: z.string().trim().min(1).max(255) }).strict()
