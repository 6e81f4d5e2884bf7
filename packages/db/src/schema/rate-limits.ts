import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core'

/**
 * Request counters of the API's per-address rate limits (e.g. POST /api/auth/custom-token),
 * shared by every API process behind the balancer (docs/deployment.md): one
 * row per limited route and client key, counting the requests of the current fixed window,
 * which ends at `reset_at`. Rows whose window ended are swept.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    /** "<route>|<client key>", e.g. "POST /api/auth/custom-token|203.0.113.7". */
    key: text('key').primaryKey(),
    hits: integer('hits').notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('rate_limits_reset_at').on(t.resetAt)],
)
