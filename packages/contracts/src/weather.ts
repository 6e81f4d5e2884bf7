// Race-day weather of an optimization result (`result.weather`,
// docs/engine/weather.md): written by the run's job (apps/api/src/weather/race-day.ts) when the optimization has
// an event start, read by the result page. Either the forecast that was used (where and when it
// came from, how the arrival times were found, the predicted time's range for the forecast's
// spread, the conditions along the course) or why none was and the typed inputs applied.
// The fields marked optional are absent from results stored before they were added.
import { z } from 'zod'

/** One stretch of the wind strip (about 1/100 of the course): the conditions met there. */
export const weatherStretchSchema = z
  .object({
    start_m: z.number(),
    end_m: z.number(),
    /** When the rider is there (ISO UTC). */
    time: z.string(),
    /** At rider height. */
    wind_speed_mps: z.number(),
    wind_from_deg: z.number(),
    gust_mps: z.number().nullable(),
    temperature_c: z.number(),
    air_density_kg_m3: z.number(),
  })
  .strict()
export type WeatherStretch = z.infer<typeof weatherStretchSchema>

/** A forecast point along the course, with the wind the rider meets there (for the map). */
export const weatherPointSchema = z
  .object({
    distance_m: z.number(),
    lat: z.number(),
    lon: z.number(),
    time: z.string().optional(),
    wind_speed_mps: z.number().optional(),
    wind_speed_10m_mps: z.number().optional(),
    wind_from_deg: z.number().optional(),
  })
  .strict()
export type WeatherPoint = z.infer<typeof weatherPointSchema>

/** One optimization of the arrival-time iteration and how far its plan's arrivals moved. */
export const weatherRoundSchema = z
  .object({
    /** Whose arrival times the optimization read the forecast at. */
    arrivals: z.enum(['first-guess', 'plan']),
    time_s: z.number().nullable(),
    max_shift_s: z.number().nullable(),
  })
  .strict()

/** How the arrival times were found: a steady ride's first guess, then the plan's own rounds. */
export const weatherArrivalSchema = z
  .object({
    first_guess: z
      .object({
        power_w: z.number(),
        iterations: z.number().int(),
        converged: z.boolean(),
        time_s: z.number(),
      })
      .strict()
      .optional(),
    /** Arrivals that move by less than this between rounds are final (s). */
    tolerance_s: z.number().optional(),
    rounds: z.array(weatherRoundSchema).optional(),
    converged: z.boolean().optional(),
    /** Why the rounds stopped early (the optimizer's message). */
    stopped_by: z.string().optional(),
  })
  .strict()
export type WeatherArrival = z.infer<typeof weatherArrivalSchema>

/** The predicted time's range for the forecast's plausible spread (wind ± Δ m/s, direction ± Δ°). */
export const weatherSensitivitySchema = z
  .object({
    /** Whose time the range is: the plan's ridden in the changed forecasts, or a steady ride's. */
    of: z.enum(['plan', 'steady ride']).optional(),
    wind_delta_mps: z.number(),
    direction_delta_deg: z.number(),
    base_s: z.number(),
    min_s: z.number(),
    max_s: z.number(),
  })
  .strict()

export const weatherUsedSchema = z
  .object({
    status: z.literal('used'),
    /** e.g. "open-meteo:forecast". */
    source: z.string(),
    kind: z.enum(['forecast', 'archive']),
    /** The optimization's event start, local time at the course (`YYYY-MM-DDTHH:mm`). */
    event_start: z.string().optional(),
    start_utc: z.string(),
    utc_offset_s: z.number().optional(),
    issued_at: z.string(),
    points: z.array(weatherPointSchema).optional(),
    /** The 10 m wind × this = the wind at rider height. */
    wind_height_factor: z.number().optional(),
    /** Wind stretches typed by hand, which win over the forecast. */
    manual_wind_segments: z.number().int(),
    arrival: weatherArrivalSchema.optional(),
    sensitivity: weatherSensitivitySchema,
    strip: z.array(weatherStretchSchema),
  })
  .strict()

export const weatherUnavailableSchema = z
  .object({
    status: z.literal('unavailable'),
    /** A stable code: disabled, offline, malformed, not_covered, no_positions, invalid_start… */
    reason: z.string(),
    message: z.string(),
    event_start: z.string().optional(),
  })
  .strict()

export const raceDayWeatherSchema = z.discriminatedUnion('status', [
  weatherUsedSchema,
  weatherUnavailableSchema,
])
export type RaceDayWeatherRecord = z.infer<typeof raceDayWeatherSchema>
export type RaceDayWeatherUsed = z.infer<typeof weatherUsedSchema>

/**
 * GET /api/weather/course/:id?start=YYYY-MM-DDTHH:mm (local time at the course): the forecast
 * wind between the six forecast points, read where and when a rider at the assumed steady speed
 * is there, for the optimization page's instant preview and the wheel tool.
 */
export const courseForecastStretchSchema = z
  .object({
    start_m: z.number(),
    end_m: z.number(),
    /** Where the stretch's middle is (for a map arrow). */
    lat: z.number(),
    lon: z.number(),
    /** When the assumed rider is at the middle (ISO UTC). */
    time: z.string(),
    /** At rider height, and at 10 m as forecast. */
    wind_speed_mps: z.number(),
    wind_speed_10m_mps: z.number(),
    wind_from_deg: z.number(),
    gust_mps: z.number().nullable(),
  })
  .strict()
export type CourseForecastStretch = z.infer<typeof courseForecastStretchSchema>

export const courseForecastSchema = z.discriminatedUnion('status', [
  z
    .object({
      status: z.literal('used'),
      start: z.string(),
      start_utc: z.string(),
      issued_at: z.string(),
      source: z.string(),
      kind: z.enum(['forecast', 'archive']),
      wind_height_factor: z.number(),
      assumed_speed_mps: z.number(),
      stretches: z.array(courseForecastStretchSchema),
      /** Weighted by the stretches' lengths; the direction from the mean wind vector. */
      mean: z
        .object({
          wind_speed_10m_mps: z.number(),
          wind_speed_mps: z.number(),
          wind_from_deg: z.number(),
        })
        .strict(),
    })
    .strict(),
  z
    .object({
      status: z.literal('unavailable'),
      reason: z.string(),
      message: z.string(),
      start: z.string(),
    })
    .strict(),
])
export type CourseForecast = z.infer<typeof courseForecastSchema>
