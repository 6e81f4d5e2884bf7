import { sql } from 'drizzle-orm'
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgEnum,
  pgTable,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core'
import { createdAt, generatedId } from './columns.ts'
import { teams, users } from './identity.ts'
import type { CrrBySurface, JsonObject, SetupPosition } from './json-types.ts'
import { ownerColumns, ownerConstraints, timestamps } from './owner.ts'

/** The signed-in user's own rider profile (the specification's rider profile, keyed by uid). */
export const riderProfiles = pgTable(
  'rider_profiles',
  {
    uid: text('uid')
      .primaryKey()
      .references(() => users.uid, { onDelete: 'cascade' }),
    /** Null means "the user's display name" (the specification's default). */
    riderName: text('rider_name'),
    /** m */
    riderHeight: doublePrecision('rider_height'),
    /** kg */
    riderWeight: doublePrecision('rider_weight'),
    /** Critical power, W */
    cp: doublePrecision('cp'),
    /** W′, J */
    wPrime: doublePrecision('w_prime'),
    ...timestamps(),
  },
  (t) => [
    check('rider_profiles_height', sql`${t.riderHeight} is null or ${t.riderHeight} > 0`),
    check('rider_profiles_weight', sql`${t.riderWeight} is null or ${t.riderWeight} > 0`),
  ],
)

export const bikeType = pgEnum('bike_type', [
  'triathlon',
  'time_trial',
  'road_race',
  'road_endurance',
])

/** Everything the engine needs about a rider on a bike (DESIGN.md §2 "Rider setup"). */
export const riderSetups = pgTable(
  'rider_setups',
  {
    id: generatedId(),
    ...ownerColumns(),
    name: text('name').notNull(),
    bikeType: bikeType('bike_type').notNull().default('road_race'),
    /** kg */
    riderMass: doublePrecision('rider_mass').notNull(),
    /** Bike mass, kg */
    bikeMass: doublePrecision('bike_mass').notNull(),
    /** Kit, bottles and anything else carried, kg */
    extraMass: doublePrecision('extra_mass').notNull().default(0),
    /** One or two (at most four) positions with CdA and speed range. */
    positions: jsonb('positions').$type<SetupPosition[]>().notNull(),
    crr: jsonb('crr').$type<CrrBySurface>().notNull(),
    /** Fraction of pedal power reaching the wheel (0.9–1). */
    drivetrainEfficiency: doublePrecision('drivetrain_efficiency').notNull().default(0.976),
    /** Moment of inertia of both wheels, kg·m² */
    wheelInertia: doublePrecision('wheel_inertia').notNull().default(0.14),
    /** W */
    cp: doublePrecision('cp'),
    /** J */
    wPrime: doublePrecision('w_prime'),
    /** Maximal (sprint) power, W */
    maxPower: doublePrecision('max_power'),
    /** Cornering limit: maximal lateral acceleration, m/s² */
    maxLateralAcceleration: doublePrecision('max_lateral_acceleration').notNull().default(4),
    /** Fraction of CP and W′ lost per 1,000 kJ of work (0–0.5); null: no fade modelled. */
    durability: doublePrecision('durability'),
    /** Acclimatised to heat: CP falls less with the temperature above 17 °C. */
    heatAcclimatised: boolean('heat_acclimatised').notNull().default(false),
    /** Power–duration points, gearing, CdA-vs-yaw tables and other optional engine inputs. */
    extras: jsonb('extras').$type<JsonObject>().notNull().default({}),
    ...timestamps(),
  },
  (t) => [
    ...ownerConstraints('rider_setups', t),
    check(
      'rider_setups_durability',
      sql`${t.durability} is null or (${t.durability} >= 0 and ${t.durability} <= 0.5)`,
    ),
  ],
)

export const planKind = pgEnum('plan_kind', ['individual', 'team', 'aero'])
export const planPeriod = pgEnum('plan_period', ['month', 'year'])
export const subscriptionStatus = pgEnum('subscription_status', ['active', 'cancelled', 'expired'])

/**
 * A plan held by a user or a team (the trial lives on `users`: trial_used, trial_ends_at).
 * Claims are derived from the active subscriptions of the user and of their teams.
 */
export const subscriptions = pgTable(
  'subscriptions',
  {
    id: generatedId(),
    uid: text('uid').references(() => users.uid, { onDelete: 'cascade' }),
    teamId: uuid('team_id').references(() => teams.id, { onDelete: 'cascade' }),
    plan: planKind('plan').notNull(),
    period: planPeriod('period').notNull(),
    status: subscriptionStatus('status').notNull().default('active'),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    /** Stripe's subscription id (sub_…) when the plan was bought; null when an administrator granted it. */
    stripeSubscriptionId: text('stripe_subscription_id').unique(),
    /** Stripe's own status (active, trialing, past_due, canceled, …), as last received. */
    stripeStatus: text('stripe_status'),
    /** `created` of the newest Stripe event applied: an older event never overwrites this row. */
    stripeEventAt: timestamp('stripe_event_at', { withTimezone: true }),
    /** Team plans: the members allowed (Stripe's quantity). */
    seats: integer('seats'),
    /**
     * Stripe's cancel_at_period_end (or a cancel_at): the plan was cancelled and ends at ends_at
     * instead of renewing.
     */
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    ...timestamps(),
  },
  (t) => [
    check('subscriptions_one_holder', sql`num_nonnulls(${t.uid}, ${t.teamId}) = 1`),
    index('subscriptions_uid_idx').on(t.uid),
    index('subscriptions_team_idx').on(t.teamId),
  ],
)

/** Messages from the built-in feedback form. */
export const feedback = pgTable(
  'feedback',
  {
    id: generatedId(),
    uid: text('uid').references(() => users.uid, { onDelete: 'set null' }),
    email: text('email'),
    text: text('text').notNull(),
    /** 1–5 */
    rating: integer('rating'),
    /** The route the user was on. */
    page: text('page'),
    createdAt: createdAt(),
  },
  (t) => [check('feedback_rating', sql`${t.rating} is null or ${t.rating} between 1 and 5`)],
)
