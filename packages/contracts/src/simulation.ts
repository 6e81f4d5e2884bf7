import { z } from 'zod'
import {
  courseConsistencyIssues,
  segmentsIssues,
  statsIssues,
  trackIssues,
  type CourseIssue,
} from '@veloptima/engine'
import {
  idSchema,
  jsonObjectSchema,
  listQuerySchema,
  ownedItemFields,
  ownerInputSchema,
  ranged,
  timestampSchema,
} from './common.ts'
import {
  fuelInputSchema,
  MAX_TARGET_TIME_S,
  modelOptionsSchema,
  pacingRulesSchema,
} from './race-plan.ts'

export const surfaceSchema = z.enum(['smooth', 'normal', 'rough'])

/** Issues found by the engine's course checks, reported at their paths. */
const report = (ctx: z.RefinementCtx, issues: CourseIssue[], prefix: (string | number)[] = []) => {
  for (const i of issues)
    ctx.addIssue({ code: 'custom', path: [...prefix, ...i.path], message: i.message })
}

/** Most points a track or a list of segments may have (the import keeps ≤ 4,000 and ≤ 5,000). */
export const MAX_COURSE_POINTS = 100_000

/**
 * The map track: latitude −90…90°, longitude −180…180°, elevation −500…9,000 m, distance along
 * the course 0…2,000 km and never decreasing; no point jumps farther than the distance along
 * allows or lies off its neighbours' line (packages/engine/src/course/stored-check.ts).
 */
export const courseTrackSchema = z
  .object({
    lat: z.array(z.number()).max(MAX_COURSE_POINTS),
    lon: z.array(z.number()).max(MAX_COURSE_POINTS),
    ele: z.array(z.number()).max(MAX_COURSE_POINTS),
    distance: z.array(z.number()).max(MAX_COURSE_POINTS),
  })
  .strict()
  .refine(
    (t) => [t.lon, t.ele, t.distance].every((a) => a.length === t.lat.length),
    'lat, lon, ele and distance must have the same length',
  )
  .superRefine((t, ctx) => report(ctx, trackIssues(t)))

/** One segment's fields; the list's checks (ranges, order, grades over 100 m) are the engine's. */
export const courseSegmentSchema = z
  .object({
    start: z.number(),
    end: z.number(),
    grade: z.number(),
    heading: z.number(),
    radius: z.number().nullable(),
    altitude: z.number(),
    surface: surfaceSchema.optional(),
    manual: z.boolean().optional(),
  })
  .strict()

/** Segments as stored: contiguous, 0…2,000 km, grades within ±100 % each and ±50 % over 100 m. */
export const courseSegmentsSchema = z
  .array(courseSegmentSchema)
  .max(MAX_COURSE_POINTS)
  .superRefine((list, ctx) => report(ctx, segmentsIssues(list)))

/** Statistics: distance 0…2,000 km, ascent and descent 0…distance, grades within ±50 %. */
export const courseStatsSchema = z
  .object({
    distance: z.number(),
    ascent: z.number(),
    descent: z.number(),
    max_grade: z.number(),
    min_grade: z.number(),
    climbs: z
      .array(
        z
          .object({ start: z.number(), end: z.number(), ascent: z.number(), grade: z.number() })
          .strict(),
      )
      .max(1000)
      .optional(),
  })
  .strict()
  .superRefine((st, ctx) => report(ctx, statsIssues(st)))

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

/** POST /api/courses/import: the new course and what reading the file repaired. */
export const importedCourseSchema = courseSummarySchema.extend({
  segment_count: z.number().int(),
  cleaning: z.object({
    points_read: z.number().int(),
    points_used: z.number().int(),
    elevation_filled: z.number().int(),
    spikes_removed: z.number().int(),
    distance_source: z.enum(['positions', 'recorded']),
    position_spikes_removed: z.number().int(),
  }),
  /** What the import repaired, for the user (docs/limits-input.md). */
  warnings: z.array(z.string()),
})
export type ImportedCourse = z.infer<typeof importedCourseSchema>

/** GET /api/courses/:id: with track and segments. */
export const courseSchema = courseSummarySchema.extend({
  track: courseTrackSchema.nullable(),
  segments: z.array(courseSegmentSchema),
})
export type Course = z.infer<typeof courseSchema>

/** The course page's form: the name (required) and the road surface. */
export const courseFormSchema = z.object({
  name: z.string().trim().min(1, 'Name: enter a name for the course.'),
  surface: surfaceSchema,
})
export type CourseForm = z.input<typeof courseFormSchema>

const courseBody = {
  name: z.string().trim().min(1).max(200),
  source_file_id: idSchema.nullable(),
  source_format: z.enum(['gpx', 'tcx', 'fit', 'json']).nullable(),
  track: courseTrackSchema.nullable(),
  segments: courseSegmentsSchema,
  stats: courseStatsSchema.nullable(),
  settings: courseSettingsSchema,
}
/** The parts of one course sent together agree (stats' distance, track's end: the segments'). */
const consistent = (
  c: { track?: unknown; segments?: unknown; stats?: unknown },
  ctx: z.RefinementCtx,
) => report(ctx, courseConsistencyIssues(c as Parameters<typeof courseConsistencyIssues>[0]))
export const courseCreateSchema = z
  .object({ owner: ownerInputSchema, ...courseBody })
  .partial()
  .required({ name: true })
  .strict()
  .superRefine(consistent)
export const coursePatchSchema = z.object(courseBody).partial().strict().superRefine(consistent)

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
  .strict()
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

/** An equipment option in the engine's form: changes against the setup (packages/engine/src/optimize/equipment.ts). */
const equipmentOptionSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    cda_delta_m2: ranged(-0.2, 0.2, 'm²').optional(),
    /** ΔCdA by apparent-wind yaw: [[yaw °, ΔCdA m²], …] with yaw increasing. */
    cda_delta_by_yaw: z
      .array(z.tuple([ranged(0, 180, '°'), ranged(-0.2, 0.2, 'm²')]))
      .min(1)
      .max(50)
      .superRefine((rows, ctx) => {
        for (let i = 1; i < rows.length; i++) {
          if (!(rows[i]![0] > rows[i - 1]![0]))
            ctx.addIssue({
              code: 'custom',
              path: [i, 0],
              message: `yaw angles must increase (the row before is ${rows[i - 1]![0]}°)`,
            })
        }
      })
      .optional(),
    mass_delta_kg: ranged(-20, 50, 'kg').optional(),
    crr: ranged(0.0005, 0.05, '').optional(),
    power_factor: ranged(0.5, 1.5, '').optional(),
  })
  .strict()

/** The older list form of equipment, still read (packages/engine/src/optimize/stored-input.ts). */
const listEquipmentOptionSchema = z
  .object({
    name: z.string().trim().min(1).max(100),
    cda_delta: ranged(-0.2, 0.2, 'm²').optional(),
    mass_delta: ranged(-20, 50, 'kg').optional(),
    crr_factor: ranged(0.1, 10, '').optional(),
  })
  .strict()

/** Most option groups and options per group of an equipment optimization. */
export const MAX_EQUIPMENT_GROUPS = 10
export const MAX_EQUIPMENT_OPTIONS = 20

const engineEquipmentSchema = z
  .object({
    groups: z
      .record(
        z.string().trim().min(1).max(100),
        z.array(equipmentOptionSchema).min(1).max(MAX_EQUIPMENT_OPTIONS),
      )
      .refine((g) => Object.keys(g).length <= MAX_EQUIPMENT_GROUPS, {
        message: `expected at most ${MAX_EQUIPMENT_GROUPS} option groups`,
      }),
    baseline: z.record(z.string().max(100), z.string().max(100)).optional(),
  })
  .strict()
const listEquipmentSchema = z
  .object({
    groups: z
      .array(
        z
          .object({
            name: z.string().trim().min(1).max(100),
            options: z.array(listEquipmentOptionSchema).min(1).max(MAX_EQUIPMENT_OPTIONS),
          })
          .strict(),
      )
      .max(MAX_EQUIPMENT_GROUPS),
  })
  .strict()

/**
 * `inputs.equipment`: the engine's {groups: {name: [options]}, baseline}, or the older list form
 * when `groups` is a list; either is checked field by field (an error names the field).
 */
const equipmentInputSchema = z
  .custom<z.infer<typeof engineEquipmentSchema> | z.infer<typeof listEquipmentSchema>>()
  .superRefine((value, ctx) => {
    const list = Array.isArray((value as { groups?: unknown } | null)?.groups)
    const r = (list ? listEquipmentSchema : engineEquipmentSchema).safeParse(value)
    if (r.success) return
    for (const issue of r.error.issues)
      ctx.addIssue({ code: 'custom', path: issue.path as PropertyKey[], message: issue.message })
  })

/**
 * The pacing constraint: W′ balance, a normalized or average power, the work (J), or a target
 * time (s: the least-effort plan finishing in that time; a pacing plan only).
 */
const constraintInputSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('w_prime_balance') }).strict(),
  z.object({ type: z.literal('normalized_power'), power_w: ranged(1, 3000, 'W') }).strict(),
  z.object({ type: z.literal('average_power'), power_w: ranged(1, 3000, 'W') }).strict(),
  z.object({ type: z.literal('work'), work_j: ranged(1, 1e9, 'J') }).strict(),
  z.object({ type: z.literal('target_time'), time_s: ranged(60, MAX_TARGET_TIME_S, 's') }).strict(),
])

/** The air and wind of an optimization (SI units; ranges in docs/limits-input.md). */
const environmentInputSchema = z
  .object({
    temperature_c: ranged(-60, 60, '°C'),
    pressure_pa: ranged(30_000, 120_000, 'Pa'),
    pressure_altitude_m: ranged(-500, 9000, 'm'),
    /** The older name of pressure_altitude_m. */
    altitude_m: ranged(-500, 9000, 'm'),
    relative_humidity: ranged(0, 1, ''),
    wind_speed_mps: ranged(0, 60, 'm/s'),
    wind_from_deg: ranged(0, 360, '°'),
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
      }),
    event_start: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, 'must be a local date and time YYYY-MM-DDTHH:mm'),
  })
  .partial()
  .strict()

/**
 * An optimization's `inputs` (what packages/engine/src/optimize/stored-input.ts reads): every
 * field named, every number within its range, nothing else (an unknown key is refused, so nothing
 * unread is stored and copied into every result).
 */
export const optimizationInputsSchema = z
  .object({
    environment: environmentInputSchema,
    rider_override: setupOverrideSchema,
    constraint: constraintInputSchema,
    /** Power targets of the plan (12 when absent). */
    max_targets: z
      .number()
      .int('must be a whole number')
      .min(1, 'must be at least 1')
      .max(20, 'must be at most 20'),
    /** The lowest power the plan may ask for. */
    min_power_w: ranged(0, 3000, 'W'),
    equipment: equipmentInputSchema,
    options: modelOptionsSchema,
    fuel: fuelInputSchema,
    rules: pacingRulesSchema,
  })
  .partial()
  .strict()

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
/** GET /api/files/:id/download-url: a short-lived signed URL of the file. */
export const downloadUrlSchema = z.object({ url: z.string(), expires_at: timestampSchema })
export type DownloadUrl = z.infer<typeof downloadUrlSchema>
