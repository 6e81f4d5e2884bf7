// The weather cache: hourly values by (source, position rounded to 0.01°, hour), shared by every
// process and served until each row expires.
import { and, eq, gt, gte, inArray, lte, sql } from 'drizzle-orm'
import { weatherCache, type Db } from '@veloptima/db'

export type WeatherCacheRow = typeof weatherCache.$inferSelect
export type NewWeatherCacheRow = typeof weatherCache.$inferInsert

/** A cell of the cache: latitude and longitude in hundredths of a degree. */
export type CacheCell = { lat: number; lon: number }

/** The unexpired rows of `source` at the cells' latitudes and longitudes within [from, to]. */
export async function freshCacheRows(
  db: Db,
  source: string,
  cells: CacheCell[],
  hours: { from: Date; to: Date },
  now: Date,
): Promise<WeatherCacheRow[]> {
  return db
    .select()
    .from(weatherCache)
    .where(
      and(
        eq(weatherCache.source, source),
        inArray(weatherCache.latE2, [...new Set(cells.map((k) => k.lat))]),
        inArray(weatherCache.lonE2, [...new Set(cells.map((k) => k.lon))]),
        gte(weatherCache.hour, hours.from),
        lte(weatherCache.hour, hours.to),
        gt(weatherCache.expiresAt, now),
      ),
    )
}

/** Writes cache rows, replacing the values, fetch time and expiry of those already there. */
export async function upsertCacheRows(db: Db, rows: NewWeatherCacheRow[]): Promise<void> {
  // In chunks of 1,000 rows (7,000 parameters), far under PostgreSQL's 65,535.
  for (let at = 0; at < rows.length; at += 1000) {
    await db
      .insert(weatherCache)
      .values(rows.slice(at, at + 1000))
      .onConflictDoUpdate({
        target: [weatherCache.source, weatherCache.latE2, weatherCache.lonE2, weatherCache.hour],
        set: {
          values: sql`excluded.values`,
          fetchedAt: sql`excluded.fetched_at`,
          expiresAt: sql`excluded.expires_at`,
        },
      })
  }
}

/** Removes the rows expired at `now`; returns how many. */
export async function deleteExpiredCacheRows(db: Db, now: Date): Promise<number> {
  const gone = await db
    .delete(weatherCache)
    .where(lte(weatherCache.expiresAt, now))
    .returning({ hour: weatherCache.hour })
  return gone.length
}
