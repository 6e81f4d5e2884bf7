import { sql } from 'drizzle-orm'
import { check, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core'
import { createdAt } from './columns.ts'
import { teams, users } from './identity.ts'

/** The Stripe customer of a user or a team, reused by every Checkout session of that holder. */
export const stripeCustomers = pgTable(
  'stripe_customers',
  {
    /** Stripe's customer id (cus_…). */
    customerId: text('customer_id').primaryKey(),
    uid: text('uid')
      .unique()
      .references(() => users.uid, { onDelete: 'cascade' }),
    teamId: uuid('team_id')
      .unique()
      .references(() => teams.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [check('stripe_customers_one_holder', sql`num_nonnulls(${t.uid}, ${t.teamId}) = 1`)],
)

/** Stripe webhook events already applied, by id: a replayed or duplicated event changes nothing. */
export const stripeEvents = pgTable('stripe_events', {
  /** Stripe's event id (evt_…). */
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  /** The event's `created`. */
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
})
