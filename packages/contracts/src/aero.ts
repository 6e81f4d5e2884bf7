import { z } from 'zod'
import {
  idSchema,
  jsonObjectSchema,
  ownedItemFields,
  ownerInputSchema,
  pageQuerySchema,
  ranged,
  timestampSchema,
} from './common.ts'

export const deviceSchema = z.object({
  ...ownedItemFields,
  serial: z.string(),
  name: z.string(),
  model: z.string().nullable(),
  firmware: z.string().nullable(),
  calibration: jsonObjectSchema,
})
export type Device = z.infer<typeof deviceSchema>
/**
 * A device's calibration: its factor (Aerosensor cal = 1/(1−Cp), about 1.4) under the name the app
 * writes (`calibration_factor`) or the older `factor` / `cal` the analysis also reads, 0.5–3.
 */
export const deviceCalibrationSchema = z
  .object({
    calibration_factor: ranged(0.5, 3, ''),
    factor: ranged(0.5, 3, ''),
    cal: ranged(0.5, 3, ''),
  })
  .partial()
  .strict()
const deviceBody = {
  serial: z.string().trim().min(1).max(100),
  name: z.string().trim().min(1).max(100),
  model: z.string().trim().max(100).nullable(),
  firmware: z.string().trim().max(100).nullable(),
  calibration: deviceCalibrationSchema,
}
export const deviceCreateSchema = z
  .object({
    owner: ownerInputSchema,
    ...deviceBody,
    model: deviceBody.model.default(null),
    firmware: deviceBody.firmware.default(null),
    calibration: deviceBody.calibration.default({}),
  })
  .strict()
export const devicePatchSchema = z.object(deviceBody).partial().strict()

export const sessionDeviceSchema = z
  .object({
    device_id: idSchema,
    role: z.string().max(50).optional(),
    calibration_factor: z.number().min(0.5).max(1.5).optional(),
  })
  .strict()

/**
 * What an analysis uses besides the data (stored in the session's `environment`, overridable per
 * analysis): SI units. Crr absent = fitted; air density absent = from temperature, pressure and
 * humidity, else the file's sensor channels, else the standard atmosphere at the recorded altitude.
 */
export const aeroAnalysisSettingsSchema = z
  .object({
    mass_kg: z.number().min(30).max(250),
    crr: z.number().min(0.0005).max(0.03).nullable(),
    drivetrain_efficiency: z.number().min(0.8).max(1),
    air_density_kg_m3: z.number().min(0.6).max(1.5).nullable(),
    temperature_c: z.number().min(-30).max(50).nullable(),
    pressure_pa: z.number().min(50_000).max(110_000).nullable(),
    humidity: z.number().min(0).max(1).nullable(),
    calibration_factor: z.number().min(0.5).max(3).nullable(),
    method: z.enum(['auto', 've', 'direct']),
    reference_speed_mps: z.number().min(2).max(30),
    reference_power_w: z.number().min(20).max(2000),
    /**
     * The wind during the test as stated (a forecast or a hand anemometer, at rider height): speed,
     * m/s, and the direction it blows FROM, degrees. On an out-and-back it separates the crosswind
     * from Crr; the wind along the road is still fitted.
     */
    wind_speed_mps: z.number().min(0).max(30).nullable(),
    wind_from_deg: z.number().min(0).max(360).nullable(),
    /** The session device whose data the analysis reads when a file carries several. */
    device_id: idSchema.nullable(),
  })
  .partial()
  .strict()
export type AeroAnalysisSettings = z.infer<typeof aeroAnalysisSettingsSchema>

/** The stated wind is both its speed and its direction, or neither: the field missing, or null. */
export function statedWindIssue(
  s: AeroAnalysisSettings,
): { field: string; message: string } | null {
  const speed = s.wind_speed_mps != null
  const from = s.wind_from_deg != null
  if (speed === from) return null
  return {
    field: speed ? 'wind_from_deg' : 'wind_speed_mps',
    message: `the stated wind needs both wind_speed_mps and wind_from_deg, got only ${
      speed ? `wind_speed_mps ${s.wind_speed_mps}` : `wind_from_deg ${s.wind_from_deg}`
    }`,
  }
}

export const aeroSessionSchema = z.object({
  ...ownedItemFields,
  name: z.string(),
  format: z.enum(['v5', 'v6']),
  started_at: timestampSchema.nullable(),
  location: z.string().nullable(),
  notes: z.string().nullable(),
  devices: z.array(sessionDeviceSchema),
  environment: jsonObjectSchema,
  source_file_id: z.string().nullable(),
})
export type AeroSession = z.infer<typeof aeroSessionSchema>
const sessionBody = {
  name: z.string().trim().min(1).max(200),
  format: z.enum(['v5', 'v6']),
  started_at: z.iso.datetime({ offset: true }).nullable(),
  location: z.string().max(200).nullable(),
  notes: z.string().max(10_000).nullable(),
  devices: z.array(sessionDeviceSchema).max(20),
  /** The analysis settings stored with the session, in their ranges; nothing else. */
  environment: aeroAnalysisSettingsSchema.superRefine((s, ctx) => {
    const issue = statedWindIssue(s)
    if (issue) ctx.addIssue({ code: 'custom', path: [issue.field], message: issue.message })
  }),
  source_file_id: idSchema.nullable(),
}
export const aeroSessionCreateSchema = z
  .object({ owner: ownerInputSchema, ...sessionBody })
  .partial()
  .required({ name: true })
  .strict()
/** The format is fixed at creation: it decides which data blocks the session holds. */
export const aeroSessionPatchSchema = z
  .object(sessionBody)
  .omit({ format: true })
  .partial()
  .strict()

export const aeroRunSchema = z.object({
  id: z.string(),
  session_id: z.string(),
  name: z.string(),
  position: z.number().int(),
  configuration: z.record(z.string(), z.string()),
  is_baseline: z.boolean(),
  start_time: z.number().nullable(),
  end_time: z.number().nullable(),
  lap: z.number().int().nullable(),
  results: jsonObjectSchema.nullable(),
  created_at: timestampSchema,
  updated_at: timestampSchema,
})
export type AeroRun = z.infer<typeof aeroRunSchema>
const runBody = {
  name: z.string().trim().min(1).max(200),
  position: z.number().int().min(0).max(10_000),
  configuration: z.record(z.string().max(50), z.string().max(200)),
  is_baseline: z.boolean(),
  start_time: z.number().min(0).nullable(),
  end_time: z.number().min(0).nullable(),
  lap: z.number().int().min(0).nullable(),
  results: jsonObjectSchema.nullable(),
}
const timeOrder = (r: { start_time?: number | null; end_time?: number | null }) =>
  r.start_time == null || r.end_time == null || r.start_time < r.end_time
export const aeroRunCreateSchema = z
  .object(runBody)
  .partial()
  .required({ name: true })
  .strict()
  .refine(timeOrder, { message: 'start_time must be before end_time', path: ['start_time'] })
export const aeroRunPatchSchema = z
  .object(runBody)
  .partial()
  .strict()
  .refine(timeOrder, { message: 'start_time must be before end_time', path: ['start_time'] })

export const aeroBlockKindSchema = z.enum(['cdam', 'run', 'raw'])
export const aeroDataBlockSchema = z.object({
  id: z.string(),
  session_id: z.string(),
  run_id: z.string().nullable(),
  device_id: z.string().nullable(),
  kind: aeroBlockKindSchema,
  sequence: z.number().int(),
  start_time: z.number().nullable(),
  end_time: z.number().nullable(),
  data: jsonObjectSchema,
  created_at: timestampSchema,
})
export type AeroDataBlock = z.infer<typeof aeroDataBlockSchema>
export const aeroDataBlockCreateSchema = z
  .object({
    run_id: idSchema.nullable().default(null),
    device_id: idSchema.nullable().default(null),
    kind: aeroBlockKindSchema,
    sequence: z.number().int().min(0).default(0),
    start_time: z.number().min(0).nullable().default(null),
    end_time: z.number().min(0).nullable().default(null),
    data: jsonObjectSchema,
  })
  .strict()
export const aeroDataBlockListQuerySchema = pageQuerySchema.extend({
  kind: aeroBlockKindSchema.optional(),
  run_id: idSchema.optional(),
})

/** POST /api/aero-sessions/:id/analyses: a new analysis version with these overrides. */
export const aeroAnalysisCreateSchema = aeroAnalysisSettingsSchema
  .extend({ label: z.string().trim().max(200).optional() })
  .strict()

/** The results an analysis stores on each run (`aero_runs.results`), SI units. */
export type AeroRunResults = {
  version: number
  /** The run was found by the analysis (lap, loop, out-and-back, whole file) rather than made by the user. */
  detected: boolean
  source: string
  method: 've' | 'direct'
  /** Null when withheld (`withheld` says why): no fit, or outside 0.1–0.8 m². */
  cda: number | null
  /** Null when the run cannot give an interval (`withheld` says why); never of zero width. */
  cda_ci95: [number, number] | null
  crr: number | null
  crr_ci95: [number, number] | null
  ve_rmse_m: number | null
  /** Drift-corrected CdA (equal to cda without a drift line). */
  corrected_cda: number | null
  delta_cda: number | null
  delta_cda_ci95: [number, number] | null
  watts_saved: number | null
  seconds_per_40km: number | null
  verdict: 'faster' | 'slower' | 'no_difference' | 'withheld' | null
  mean_speed_mps: number
  mean_power_w: number
  air_density: number
  calibration_factor: number | null
  flags: string[]
  /** Samples the fit used, and those it left out by reason (stops, braking, freewheeling). */
  samples_used?: number
  excluded_samples?: { stop: number; braking: number; freewheel: number }
  /** Quantities not reported (null above), each with the reason. */
  withheld?: { field: string; reason: string }[]
  /** The run's clock: runs of files recorded on different days are on different clocks. */
  clock?: number
  file_id: string | null
}

/** One analysis version (a `run` block in v6, a `raw` block in v5, with `data.type = "analysis"`). */
/** A lap of a session's file not taken as a run, on the session clock (s) and lap numbering. */
export type SkippedLapJson = {
  file_id: string | null
  lap: number
  label: string
  start_t: number
  end_t: number
  kind: 'recovery' | 'turnaround'
  reason: string
}

/** One tyre's rolling resistance in a tyre test (engine `AeroAnalysis.crrByTyre`). */
export type CrrByTyreJson = {
  tyre: string
  crr: number
  crr_ci95: [number, number] | null
  delta_crr: number
  delta_crr_ci95: [number, number] | null
}

export type AeroAnalysisVersion = {
  version: number
  block_id: string
  job_id: string
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled'
  progress: number
  message: string | null
  error: { code: string; message: string } | null
  label: string | null
  settings: AeroAnalysisSettings
  created_at: string
  summary: {
    crr: number
    /** The VE motion model used: 'road' or 'track' (velodrome); absent in versions made before it was stored. */
    ve_model?: 'road' | 'track'
    fitted_calibration_factor: number | null
    comparison: unknown
    /** The test planner's answer (engine `AeroPlan`): runs needed to resolve ΔCdA; absent in older versions. */
    plan?: unknown
    warnings: string[]
    runs: number
    /**
     * Laps of the files that are not taken as runs (recoveries, coast-downs, turnarounds), each
     * with the reason; a lap a run now covers is not listed. Absent in older versions.
     */
    skipped_laps?: SkippedLapJson[]
    /**
     * With runs on several tyres (a run configuration's `tyre` key) and Crr fitted: each tyre's
     * Crr and its difference from the first tyres', with their 95 % intervals (null: none).
     */
    crr_by_tyre?: CrrByTyreJson[]
    /** The historical air the analysis used when the session stated none (which weather, its
     * mean temperature, pressure and humidity), or why there was none; absent when not asked. */
    weather?:
      | {
          status: 'used'
          label: string
          temperature_c: number
          pressure_pa: number
          relative_humidity: number
        }
      | { status: 'unavailable'; reason: string; message: string }
  } | null
}

/** A file read into a session (`data.type = "source"` block). */
export type AeroSourceFile = {
  block_id: string
  file_id: string
  name: string
  format: string
  start_epoch_s: number | null
  /** Seconds from the session's t = 0 to this file's first sample. */
  offset_s: number
  duration_s: number
  samples: number
  laps: number
  channels: string[]
  devices: { serial: string; name?: string | null }[]
  configuration: Record<string, string>
}

/**
 * The web's add-run form as typed: the run's name and configuration, and its part of the data
 * (a time range of one file, "m:ss" texts, or a session-wide lap number).
 */
export const aeroRunFormSchema = z.object({
  name: z.string().trim().min(1),
  setup: z.string(),
  baseline: z.boolean(),
  mode: z.enum(['range', 'lap']),
  fileIndex: z.number().int().min(0),
  from: z.string(),
  to: z.string(),
  lap: z.number().int().min(0),
})
export type AeroRunForm = z.infer<typeof aeroRunFormSchema>
