import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import { lt, sql } from 'drizzle-orm'
import { rateLimits, type Db } from '@veloptima/db'

type Counted = { current: number; ttl: number }
type Callback = (error: Error | null, result?: Counted) => void

/** How often a store deletes the counters whose window ended. */
const SWEEP_EVERY_MS = 60_000

/**
 * Counts one request of `key` in its fixed window of `windowMs` (the window starts with the
 * first request and ends at `reset_at`), in one statement, so that concurrent requests on
 * several processes never lose a count. The database's clock decides, not the process's.
 * Returns the requests counted in the window so far (this one included) and the ms left.
 */
export async function countRequest(db: Db, key: string, windowMs: number): Promise<Counted> {
  const expired = sql`${rateLimits.resetAt} <= now()`
  const [row] = await db
    .insert(rateLimits)
    .values({ key, hits: 1, resetAt: sql`now() + ${windowMs} * interval '1 millisecond'` })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        hits: sql`case when ${expired} then 1 else ${rateLimits.hits} + 1 end`,
        resetAt: sql`case when ${expired} then excluded.reset_at else ${rateLimits.resetAt} end`,
      },
    })
    .returning({
      hits: rateLimits.hits,
      ttl: sql<number>`greatest(0, ceil(extract(epoch from (${rateLimits.resetAt} - now())) * 1000))::int`,
    })
  return { current: row!.hits, ttl: Number(row!.ttl) }
}

/** Deletes the counters whose window ended. */
export async function sweepRateLimits(db: Db) {
  await db.delete(rateLimits).where(lt(rateLimits.resetAt, sql`now()`))
}

/**
 * A store for @fastify/rate-limit that keeps the counters in the database (table rate_limits)
 * instead of the process's memory: every API process behind the balancer counts the same
 * requests, as the embedded provider's failed-login limits do (idp/rate-limit.ts). Each route's
 * limit counts apart ("<method> <url>|<client key>"). Fixed windows only (the plugin's
 * continueExceeding and exponentialBackoff options are not supported).
 */
export function storedRateLimitStore(db: Db): FastifyRateLimitStoreCtor {
  let lastSweep = 0
  const sweep = () => {
    if (Date.now() - lastSweep < SWEEP_EVERY_MS) return
    lastSweep = Date.now()
    sweepRateLimits(db).catch(() => {
      lastSweep = 0 // the database was away: try again at the next request
    })
  }

  class StoredRateLimitStore implements FastifyRateLimitStore {
    private readonly scope: string

    /** The plugin constructs the global store with its options; child() passes the route. */
    constructor(scope: unknown) {
      this.scope = typeof scope === 'string' ? scope : 'global'
    }

    incr(key: string, callback: Callback, timeWindow: number, _max: number) {
      sweep()
      countRequest(db, `${this.scope}|${key}`, timeWindow).then(
        (counted) => callback(null, counted),
        (error: Error) => callback(error),
      )
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]) {
      // The plugin passes the route's merged limit options, the route itself in routeInfo.
      const route =
        (routeOptions as { routeInfo?: { method?: unknown; url?: string } }).routeInfo ??
        routeOptions
      const method = [route.method ?? ''].flat().join(',')
      return new StoredRateLimitStore(`${method} ${route.url ?? routeOptions.path ?? ''}`)
    }
  }
  return StoredRateLimitStore
}
