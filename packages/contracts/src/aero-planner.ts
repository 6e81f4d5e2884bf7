// The aero test planner before a test: GET /api/aero/planner. How many bracketed runs of the
// baseline and of a configuration resolve a ΔCdA (docs/engine/aero.md, "Test planner"), from the
// run-to-run scatter of the caller's stored sessions, and the calmest hours of the day at a place.
import { z } from 'zod'
import { DEFAULT_POWER, DEFAULT_RESOLVE_CDA } from '@veloptima/engine'
import { ranged } from './common.ts'

/** A query-string number in its range (the text read as a number; an empty text is missing). */
const queryNumber = (min: number, max: number, unit: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v)) : v),
    ranged(min, max, unit),
  )

/** The length of one run the page assumes by default, minutes. */
export const DEFAULT_RUN_MINUTES = 5
/** The hours of the day the page ranks by default (local time, start and end). */
export const DEFAULT_RIDE_HOURS = { from: 6, to: 21 } as const

const DATE = /^\d{4}-\d{2}-\d{2}$/
const isDate = (s: string) =>
  DATE.test(s) && new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) === s

export const aeroPlannerQuerySchema = z
  .object({
    /** ΔCdA to resolve, m². */
    delta: queryNumber(0.001, 0.05, 'm²').default(DEFAULT_RESOLVE_CDA),
    /** The chance of resolving a true ΔCdA of that size (0.8 = 80 %). */
    power: queryNumber(0.5, 0.99, '').default(DEFAULT_POWER),
    /** The length of one run, minutes (for the test's riding time). */
    run_minutes: queryNumber(1, 60, 'min').default(DEFAULT_RUN_MINUTES),
    /** The place of the test (both or neither) and its local date, for the day's hours. */
    lat: queryNumber(-90, 90, '°').optional(),
    lon: queryNumber(-180, 180, '°').optional(),
    date: z.string().refine(isDate, 'must be a date YYYY-MM-DD').optional(),
    /** The hours ranked: local slots starting from `from_hour` up to before `to_hour`. */
    from_hour: queryNumber(0, 23, 'h')
      .pipe(z.number().int('must be a whole hour'))
      .default(DEFAULT_RIDE_HOURS.from),
    to_hour: queryNumber(1, 24, 'h')
      .pipe(z.number().int('must be a whole hour'))
      .default(DEFAULT_RIDE_HOURS.to),
  })
  .strict()
  .superRefine((q, ctx) => {
    if ((q.lat === undefined) !== (q.lon === undefined)) {
      const missing = q.lat === undefined ? 'lat' : 'lon'
      ctx.addIssue({
        code: 'custom',
        path: [missing],
        message: 'the place needs both lat and lon',
      })
    }
    if (q.to_hour <= q.from_hour) {
      ctx.addIssue({ code: 'custom', path: ['to_hour'], message: 'must be after from_hour' })
    }
  })
export type AeroPlannerQuery = z.infer<typeof aeroPlannerQuerySchema>

/** One hour of the day at the place: the wind at rider height ranks it. */
export const aeroPlannerHourSchema = z
  .object({
    /** The hour's start, UTC (ISO 8601), and as the local clock at the place shows it (HH:mm). */
    time: z.string(),
    local_time: z.string(),
    /** Wind at rider height (1.5 m, docs/engine/weather.md) and at 10 m, m/s; where it comes from, °. */
    wind_speed_mps: z.number(),
    wind_speed_10m_mps: z.number(),
    wind_from_deg: z.number(),
    gust_mps: z.number().nullable(),
    temperature_c: z.number(),
    /** One of the day's three calmest hours. */
    calm: z.boolean(),
  })
  .strict()
export type AeroPlannerHour = z.infer<typeof aeroPlannerHourSchema>

export const aeroPlannerWeatherSchema = z.discriminatedUnion('status', [
  /** The server fetches no weather (WEATHER_PROVIDER=none). */
  z.object({ status: z.literal('disabled'), message: z.string() }).strict(),
  /** No place and date were given. */
  z.object({ status: z.literal('not_asked') }).strict(),
  z.object({ status: z.literal('unavailable'), reason: z.string(), message: z.string() }).strict(),
  z
    .object({
      status: z.literal('used'),
      date: z.string(),
      lat: z.number(),
      lon: z.number(),
      /** The place's offset from UTC on that day, s (as the provider knows its zone). */
      utc_offset_s: z.number(),
      issued_at: z.string(),
      source: z.string(),
      kind: z.enum(['forecast', 'archive']),
      wind_height_factor: z.number(),
      from_hour: z.number().int(),
      to_hour: z.number().int(),
      /** The hours between from_hour and to_hour, calmest first. */
      hours: z.array(aeroPlannerHourSchema),
    })
    .strict(),
])
export type AeroPlannerWeather = z.infer<typeof aeroPlannerWeatherSchema>

export const aeroPlannerSchema = z
  .object({
    delta_cda_m2: z.number(),
    power: z.number(),
    run_minutes: z.number(),
    /** The run-to-run scatter used, m², and where it came from. */
    run_sd_m2: z.number(),
    run_sd_source: z.enum(['sessions', 'default']),
    /** The caller's stored sessions with repeats of a configuration, their repeated runs and the
     * degrees of freedom pooled (zero each with the default). */
    scatter_from: z
      .object({
        sessions: z.number().int(),
        runs: z.number().int(),
        degrees_of_freedom: z.number().int(),
      })
      .strict(),
    /** Runs of the baseline and of the configuration each (engine `runsNeeded`). */
    runs_per_configuration: z.number().int(),
    /** The bracketed order, baseline first and last (A B A … B A): 2·n + 1 runs, and its riding time, s. */
    total_runs: z.number().int(),
    riding_time_s: z.number(),
    weather: aeroPlannerWeatherSchema,
  })
  .strict()
export type AeroPlanner = z.infer<typeof aeroPlannerSchema>
