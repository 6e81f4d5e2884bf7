import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Hourly weather at a rounded position, shared by every process (docs/engine/weather.md):
 * one row per (source, position rounded to 0.01°, hour). `values` holds the provider's hourly
 * variables in SI units; a row is served until `expires_at` (forecasts about an hour, archive
 * data long).
 */
export const weatherCache = pgTable(
  'weather_cache',
  {
    /** Provider and product, e.g. "open-meteo:forecast" or "open-meteo:archive". */
    source: text('source').notNull(),
    /** Latitude and longitude in hundredths of a degree (rounded). */
    latE2: integer('lat_e2').notNull(),
    lonE2: integer('lon_e2').notNull(),
    /** Start of the hour (UTC). */
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    /** {windSpeedMps, windFromDeg, gustMps, temperatureC, relativeHumidity, surfacePressurePa, elevationM} */
    values: jsonb('values').$type<WeatherCacheValues>().notNull(),
    fetchedAt: timestamp('fetched_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.source, t.latE2, t.lonE2, t.hour] }),
    index('weather_cache_expires_at').on(t.expiresAt),
  ],
)

export type WeatherCacheValues = {
  windSpeedMps: number
  windFromDeg: number
  gustMps: number | null
  temperatureC: number
  relativeHumidity: number
  surfacePressurePa: number
  elevationM: number
  /** The place's offset from UTC at the time of the answer (s), from the provider's timezone=auto. */
  utcOffsetS?: number
}
