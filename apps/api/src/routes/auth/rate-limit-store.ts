import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit'
import type { Db } from '@veloptima/db'
import { countRequest, sweepRateLimits, type Counted } from './repository.ts'

type Callback = (error: Error | null, result?: Counted) => void

/** How often a store deletes the counters whose window ended. */
const SWEEP_EVERY_MS = 60_000

export { countRequest, sweepRateLimits }

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
