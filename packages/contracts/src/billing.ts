import { z } from 'zod'
import { timestampSchema } from './common.ts'

/** The plans of the pricing page (kinds of the `subscriptions` table). */
export const planKindSchema = z.enum(['individual', 'team', 'aero'])
export type PlanKind = z.infer<typeof planKindSchema>
export const planPeriodSchema = z.enum(['month', 'year'])
export type PlanPeriod = z.infer<typeof planPeriodSchema>

/** Most seats one team plan sells. */
export const MAX_SEATS = 500

/** POST /api/billing/checkout: a team plan names its team and its seats (members allowed). */
export const checkoutRequestSchema = z
  .object({
    plan: planKindSchema,
    period: planPeriodSchema,
    seats: z.number().int().min(1).max(MAX_SEATS).optional(),
    team_id: z.string().optional(),
  })
  .strict()
export type CheckoutRequest = z.infer<typeof checkoutRequestSchema>

/** POST /api/billing/checkout and /portal: where to send the browser (Stripe's hosted pages). */
export const billingRedirectSchema = z.object({ url: z.string() })
export type BillingRedirect = z.infer<typeof billingRedirectSchema>

/** POST /api/billing/portal: the portal of the caller's own customer, or of a team they own or administer. */
export const portalRequestSchema = z.object({ team_id: z.string().optional() }).strict()

/** One plan's price for one billing period, as the pricing page shows it. */
export const planPriceSchema = z.object({
  plan: planKindSchema,
  period: planPeriodSchema,
  /** In the currency's major unit (9.5 = 9.50), per seat for the Team plan. */
  amount: z.number().nonnegative(),
  per_seat: z.boolean(),
})
export type PlanPrice = z.infer<typeof planPriceSchema>

/**
 * GET /api/billing/config (public): the plans' prices, currency, periods and free trial (product
 * configuration, always present), whether online payment is on and which plans it can sell.
 */
export const billingConfigSchema = z.object({
  enabled: z.boolean(),
  /** The plans and periods that can be bought online here (empty without a payment provider). */
  plans: z.array(z.object({ plan: planKindSchema, period: planPeriodSchema })),
  /** ISO 4217 code, e.g. EUR. */
  currency: z.string().length(3),
  periods: z.array(planPeriodSchema).min(1),
  prices: z.array(planPriceSchema),
  trial_days: z.number().int().positive(),
})
export type BillingConfig = z.infer<typeof billingConfigSchema>

/** A plan held by the caller or by one of their teams (GET /api/billing/subscriptions). */
export const billingSubscriptionSchema = z.object({
  id: z.string(),
  plan: planKindSchema,
  period: planPeriodSchema,
  /** Ours: active until ends_at, or cancelled / expired. */
  status: z.enum(['active', 'cancelled', 'expired']),
  /** Stripe's (active, trialing, past_due, canceled, …); null for a plan an administrator granted. */
  stripe_status: z.string().nullable(),
  team_id: z.string().nullable(),
  seats: z.number().nullable(),
  starts_at: timestampSchema,
  ends_at: timestampSchema,
  /**
   * Cancelled (Stripe's cancel_at_period_end, or a cancel_at): the plan ends at ends_at instead of
   * renewing.
   */
  cancel_at_period_end: z.boolean(),
  /** True while the plan gives its claims (active and within its period). */
  current: z.boolean(),
  /** True when the plan lapses at ends_at (cancelled at period end, or payment past due). */
  lapsing: z.boolean(),
})
export type BillingSubscription = z.infer<typeof billingSubscriptionSchema>

/** GET /api/billing/status?session_id=: has the Checkout session's webhook arrived yet. */
export const checkoutStatusSchema = z.object({
  status: z.enum(['pending', 'active']),
  subscription: billingSubscriptionSchema.nullable(),
})
export type CheckoutStatus = z.infer<typeof checkoutStatusSchema>
