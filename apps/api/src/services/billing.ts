import Stripe from 'stripe'
import type { Db } from '@veloptima/db'
import {
  checkoutRequestSchema,
  portalRequestSchema,
  type BillingConfig,
  type CheckoutStatus,
  type PlanKind,
  type PlanPeriod,
  type BillingSubscription,
} from '@veloptima/contracts'
import type { Config } from '../config.ts'
import { AppError, badRequest, notFound } from '../errors.ts'
import * as repo from '../repositories/billing.ts'
import type { TeamService } from './teams.ts'
import { parse } from './validation.ts'

const PLANS: PlanKind[] = ['individual', 'team', 'aero']
const PERIODS: PlanPeriod[] = ['month', 'year']
const PLAN_NAMES: Record<PlanKind, string> = {
  individual: 'Individual',
  team: 'Team',
  aero: 'Aero add-on',
}

/** The price id of each plan and period from the configuration (STRIPE_PRICE_<PLAN>_<PERIOD>). */
export function priceIds(config: Config): Map<string, string> {
  const prices = new Map<string, string>()
  for (const plan of PLANS) {
    for (const period of PERIODS) {
      const key = `STRIPE_PRICE_${plan.toUpperCase()}_${period.toUpperCase()}` as keyof Config
      const id = config[key]
      if (typeof id === 'string' && id) prices.set(`${plan}/${period}`, id)
    }
  }
  return prices
}

/** The list price of a plan for a period (PLAN_PRICE_<PLAN>_<PERIOD>), per seat for a team. */
export function listPrice(config: Config, plan: PlanKind, period: PlanPeriod): number {
  const key = `PLAN_PRICE_${plan.toUpperCase()}_${period.toUpperCase()}` as keyof Config
  return config[key] as number
}

/** The official SDK client, or undefined when billing is off (no STRIPE_SECRET_KEY). */
export function createStripe(config: Config): Stripe | undefined {
  if (!config.STRIPE_SECRET_KEY) return undefined
  const api = config.STRIPE_API_URL ? new URL(config.STRIPE_API_URL) : undefined
  return new Stripe(config.STRIPE_SECRET_KEY, {
    maxNetworkRetries: 1,
    ...(api && {
      host: api.hostname,
      port: Number(api.port || (api.protocol === 'https:' ? 443 : 80)),
      protocol: api.protocol === 'https:' ? 'https' : 'http',
    }),
  })
}

const billingOff = () =>
  new AppError(
    'billing-disabled',
    'Online payment is not available on this server; your administrator can grant a plan.',
  )

/** Stripe's statuses that keep a plan's claims until the period's end. */
const RUNNING = new Set(['active', 'trialing', 'past_due'])
const ENDED = new Set(['canceled', 'unpaid', 'incomplete_expired'])

type Meta = Record<string, string | undefined> | null | undefined
type StripeSub = {
  id: string
  status: string
  customer: string | { id: string }
  metadata?: Meta
  start_date?: number
  cancel_at?: number | null
  cancel_at_period_end?: boolean
  ended_at?: number | null
  canceled_at?: number | null
  current_period_end?: number
  items?: {
    data?: { quantity?: number; current_period_end?: number; price?: { id?: string } }[]
  }
}
/** The seats a team plan's Checkout metadata names (a positive integer), else null. */
const seatsOf = (meta: Meta) => {
  const n = Number(meta?.seats)
  return Number.isInteger(n) && n > 0 ? n : null
}
const idOf = (x: string | { id: string } | null | undefined) =>
  typeof x === 'string' ? x : (x?.id ?? undefined)
const at = (seconds: number) => new Date(seconds * 1000)

/**
 * Subscriptions and payment through Stripe's official SDK: Checkout and portal sessions, and
 * the webhook that stores plans in `subscriptions` (idempotent by event id, an older event never
 * overwrites a newer state) and tells the holder's people to renew their claims.
 */
export class BillingService {
  private readonly prices: Map<string, string>

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly teams: TeamService,
    private readonly stripe = createStripe(config),
  ) {
    this.prices = priceIds(config)
  }

  get enabled(): boolean {
    return Boolean(this.stripe && this.prices.size > 0)
  }

  /**
   * GET /api/billing/config: the prices, currency, periods and trial of the configuration
   * (shown with or without payment) and the plans Stripe can sell here (none when it is off).
   */
  publicConfig(): BillingConfig {
    const periods = PERIODS.filter((p) => this.config.BILLING_PERIODS.includes(p))
    return {
      enabled: this.enabled,
      plans: this.enabled
        ? [...this.prices.keys()]
            .map((k) => {
              const [plan, period] = k.split('/') as [PlanKind, PlanPeriod]
              return { plan, period }
            })
            .filter((p) => periods.includes(p.period))
        : [],
      currency: this.config.BILLING_CURRENCY,
      periods,
      prices: PLANS.flatMap((plan) =>
        periods.map((period) => ({
          plan,
          period,
          amount: listPrice(this.config, plan, period),
          per_seat: plan === 'team',
        })),
      ),
      trial_days: this.config.TRIAL_DAYS,
    }
  }

  private client(): Stripe {
    if (!this.stripe || !this.enabled) throw billingOff()
    return this.stripe
  }

  /** POST /api/billing/checkout: a Checkout session (mode subscription) for the caller or a team. */
  async checkout(uid: string, email: string | undefined, input: unknown) {
    const stripe = this.client()
    const body = parse(checkoutRequestSchema, input)
    if (!this.config.BILLING_PERIODS.includes(body.period)) {
      throw badRequest(
        `period: ${body.period}ly billing is not offered here (offered: ${this.config.BILLING_PERIODS.join(', ')}).`,
      )
    }
    const price = this.prices.get(`${body.plan}/${body.period}`)
    if (!price) throw badRequest(`plan: ${body.plan} ${body.period}ly cannot be bought here.`)
    let holder: repo.Holder = { uid }
    if (body.plan === 'team') {
      if (!body.team_id) throw badRequest('team_id: expected the team the plan is for, got none.')
      if (!body.seats) throw badRequest('seats: expected the number of members allowed, got none.')
      await this.teams.manager(uid, body.team_id)
      holder = { teamId: body.team_id }
    } else if (body.team_id || body.seats) {
      throw badRequest(`team_id, seats: only a team plan has them, got a ${body.plan} plan.`)
    }
    const customer = await repo.customerOf(this.db, holder)
    const metadata = {
      plan: body.plan,
      period: body.period,
      ...(holder.uid
        ? { uid: holder.uid }
        : { team_id: holder.teamId!, seats: String(body.seats) }),
    }
    const returnUrl = `${this.config.publicUrl}/account/billing/return`
    const session = await stripe.checkout.sessions.create({
      mode: 'subscription',
      line_items: [{ price, quantity: body.seats ?? 1 }],
      client_reference_id: holder.uid ?? `team:${holder.teamId}`,
      metadata,
      subscription_data: { metadata },
      ...(customer ? { customer } : email ? { customer_email: email } : {}),
      success_url: `${returnUrl}?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${this.config.publicUrl}/pricing`,
    })
    if (!session.url) throw new AppError('stripe-error', 'Stripe gave no Checkout page.')
    return { url: session.url }
  }

  /** POST /api/billing/portal: Stripe's customer portal for the caller or a team they manage. */
  async portal(uid: string, input: unknown) {
    const stripe = this.client()
    const body = parse(portalRequestSchema, input ?? {})
    if (body.team_id) await this.teams.manager(uid, body.team_id)
    const holder: repo.Holder = body.team_id ? { teamId: body.team_id } : { uid }
    const customer = await repo.customerOf(this.db, holder)
    if (!customer) throw notFound('A subscription bought here')
    const session = await stripe.billingPortal.sessions.create({
      customer,
      return_url: `${this.config.publicUrl}/account`,
    })
    return { url: session.url }
  }

  /** GET /api/billing/subscriptions: the caller's plans and their teams'. */
  async list(uid: string, now = new Date()): Promise<{ items: BillingSubscription[] }> {
    const rows = await repo.subscriptionsOf(this.db, uid)
    return { items: rows.map((r) => subscriptionJson(r, now)) }
  }

  /** GET /api/billing/status?session_id=: whether the webhook of this Checkout session arrived. */
  async status(uid: string, sessionId: string, now = new Date()): Promise<CheckoutStatus> {
    const stripe = this.client()
    if (!/^cs_[A-Za-z0-9_]+$/.test(sessionId)) {
      throw badRequest(`session_id: expected a Checkout session id (cs_…), got "${sessionId}".`)
    }
    const session = await stripe.checkout.sessions.retrieve(sessionId)
    const ref = session.client_reference_id ?? ''
    if (ref !== uid) {
      if (!ref.startsWith('team:')) throw notFound('The Checkout session')
      await this.teams.membership(uid, ref.slice(5))
    }
    const subId = idOf(session.subscription as string | { id: string } | null)
    const row = subId ? await repo.subscriptionByStripeId(this.db, subId) : undefined
    if (!row) return { status: 'pending', subscription: null }
    const json = subscriptionJson(row, now)
    return { status: json.current ? 'active' : 'pending', subscription: json }
  }

  /**
   * POST /api/billing/webhook: verifies the signature (STRIPE_WEBHOOK_SECRET) on the raw body,
   * then applies the event once. Returns whether the event changed anything.
   */
  async webhook(raw: Buffer, signature: string | undefined): Promise<{ applied: boolean }> {
    const secret = this.config.STRIPE_WEBHOOK_SECRET
    if (!this.stripe || !secret) throw billingOff()
    let event: Stripe.Event
    try {
      event = this.stripe.webhooks.constructEvent(raw, signature ?? '', secret)
    } catch (e) {
      throw new AppError(
        'bad-signature',
        `Stripe-Signature: ${e instanceof Error ? e.message : 'not verified'}`,
      )
    }
    const created = at(event.created)
    const notes: { uids: string[]; note: { type: string; title: string; text: string } }[] = []
    const applied = await this.db.transaction(async (tx) => {
      if (!(await repo.claimEvent(tx, event.id, event.type, created))) return false
      const object = event.data.object as unknown as Record<string, unknown>
      switch (event.type) {
        case 'checkout.session.completed':
          return this.onCheckout(tx, object, created, notes)
        case 'customer.subscription.created':
        case 'customer.subscription.updated':
        case 'customer.subscription.deleted':
          return this.onSubscription(
            tx,
            object as unknown as StripeSub,
            created,
            notes,
            (event.data as { previous_attributes?: Record<string, unknown> }).previous_attributes,
          )
        case 'invoice.payment_failed':
          return this.onPaymentFailed(tx, object, created, notes)
        default:
          return false
      }
    })
    for (const n of notes) await repo.notifyClaims(this.db, n.uids, n.note)
    return { applied }
  }

  private async holderOf(tx: Tx, meta: Meta, customer: string | undefined) {
    if (meta?.uid) return { uid: meta.uid } as repo.Holder
    if (meta?.team_id) return { teamId: meta.team_id } as repo.Holder
    const known = customer ? await repo.holderOfCustomer(tx, customer) : undefined
    if (known?.uid) return { uid: known.uid } as repo.Holder
    if (known?.teamId) return { teamId: known.teamId } as repo.Holder
    return undefined
  }

  private planOf(meta: Meta, priceId: string | undefined) {
    if (meta?.plan && meta.period) {
      const plan = meta.plan as PlanKind
      const period = meta.period as PlanPeriod
      if (PLANS.includes(plan) && PERIODS.includes(period)) return { plan, period }
    }
    for (const [key, id] of this.prices) {
      if (id === priceId) {
        const [plan, period] = key.split('/') as [PlanKind, PlanPeriod]
        return { plan, period }
      }
    }
    return undefined
  }

  private async onCheckout(tx: Tx, s: Record<string, unknown>, created: Date, notes: Notes) {
    const meta = s.metadata as Meta
    const customer = idOf(s.customer as string | { id: string } | null)
    const subId = idOf(s.subscription as string | { id: string } | null)
    const holder = await this.holderOf(tx, meta, undefined)
    const plan = this.planOf(meta, undefined)
    if (!holder || !customer) return false
    await repo.recordCustomer(tx, customer, holder)
    if (!subId || !plan || (await repo.subscriptionByStripeId(tx, subId))) return true
    // The subscription's own events bring its period; until then one period from now.
    const ends = new Date(created)
    if (plan.period === 'year') ends.setUTCFullYear(ends.getUTCFullYear() + 1)
    else ends.setUTCMonth(ends.getUTCMonth() + 1)
    await repo.upsertStripeSubscription(tx, {
      ...(holder.uid ? { uid: holder.uid } : { teamId: holder.teamId }),
      ...plan,
      status: 'active',
      startsAt: created,
      endsAt: ends,
      stripeSubscriptionId: subId,
      stripeStatus: 'active',
      // Provisional: any event of the subscription itself, older or not, replaces this state.
      stripeEventAt: null,
      // A team plan's seats as bought (the subscription's quantity replaces them).
      seats: plan.plan === 'team' ? seatsOf(meta) : null,
    })
    notes.push(activated(await repo.peopleOf(tx, holder), plan.plan))
    return true
  }

  private async onSubscription(
    tx: Tx,
    sub: StripeSub,
    created: Date,
    notes: Notes,
    previous: Record<string, unknown> = {},
  ) {
    const item = sub.items?.data?.[0]
    const customer = idOf(sub.customer)
    const holder = await this.holderOf(tx, sub.metadata, customer)
    const plan = this.planOf(sub.metadata, item?.price?.id)
    if (!holder || !plan) return false
    if (customer) await repo.recordCustomer(tx, customer, holder)
    const periodEnd = item?.current_period_end ?? sub.current_period_end
    const ended = ENDED.has(sub.status)
    const endsAt = ended
      ? at(sub.ended_at ?? sub.canceled_at ?? created.getTime() / 1000)
      : at(sub.cancel_at ?? periodEnd ?? created.getTime() / 1000)
    const before = await repo.subscriptionByStripeId(tx, sub.id)
    const changed = await repo.upsertStripeSubscription(tx, {
      ...(holder.uid ? { uid: holder.uid } : { teamId: holder.teamId }),
      ...plan,
      status: RUNNING.has(sub.status) ? 'active' : ended ? 'cancelled' : 'expired',
      startsAt: at(sub.start_date ?? created.getTime() / 1000),
      endsAt,
      stripeSubscriptionId: sub.id,
      stripeStatus: sub.status,
      stripeEventAt: created,
      seats: plan.plan === 'team' ? (item?.quantity ?? null) : null,
      // Cancelled in the portal: it ends at endsAt instead of renewing (a cancel_at is the same).
      cancelAtPeriodEnd: Boolean(sub.cancel_at_period_end || sub.cancel_at),
    })
    if (!changed) return false
    const people = await repo.peopleOf(tx, holder)
    const wasRunning = before ? before.status === 'active' : false
    const name = PLAN_NAMES[plan.plan]
    const day = endsAt.toISOString().slice(0, 10)
    const seats = plan.plan === 'team' ? (item?.quantity ?? null) : null
    const say = (type: string, title: string, text: string) =>
      notes.push({ uids: people, note: { type, title, text } })
    if (RUNNING.has(sub.status) && !wasRunning) notes.push(activated(people, plan.plan))
    else if (ended && wasRunning) {
      say(
        'warning',
        `Your ${name} plan has ended`,
        'Your data is kept, read-only. Subscribe again to unlock it.',
      )
    } else if (RUNNING.has(sub.status) && before) {
      // Only what the holder would want to know; a renewal, or the subscription's own event
      // replacing the provisional plan of its Checkout, changes nothing they see.
      if ('cancel_at_period_end' in previous || 'cancel_at' in previous) {
        if (sub.cancel_at_period_end || sub.cancel_at) {
          say(
            'info',
            `Your ${name} plan ends on ${day}`,
            'It was cancelled and stays active until then; your data is kept.',
          )
        } else say('info', `Your ${name} plan renews again`, `Next renewal on ${day}.`)
      } else if (
        before.plan !== plan.plan ||
        before.period !== plan.period ||
        (before.seats ?? null) !== seats
      ) {
        say(
          'info',
          'Your plan changed',
          `Now ${name}, ${plan.period === 'year' ? 'yearly' : 'monthly'}${seats ? `, ${seats} seats` : ''}.`,
        )
      }
    }
    return true
  }

  private async onPaymentFailed(tx: Tx, inv: Record<string, unknown>, created: Date, notes: Notes) {
    const parent = inv.parent as { subscription_details?: { subscription?: unknown } } | null
    const subId = idOf(
      (parent?.subscription_details?.subscription ?? inv.subscription) as
        string | { id: string } | null,
    )
    const row = subId ? await repo.subscriptionByStripeId(tx, subId) : undefined
    if (!row || (row.stripeEventAt && row.stripeEventAt > created)) return false
    if (row.stripeStatus === 'canceled') return false
    await repo.upsertStripeSubscription(tx, {
      ...row,
      stripeStatus: 'past_due',
      stripeEventAt: created,
    })
    const holder: repo.Holder = row.uid ? { uid: row.uid } : { teamId: row.teamId! }
    notes.push({
      uids: await repo.peopleOf(tx, holder),
      note: {
        type: 'warning',
        title: 'A payment failed',
        text: `Your plan lapses on ${row.endsAt.toISOString().slice(0, 10)} unless the payment goes through: update the card in Manage subscription.`,
      },
    })
    return true
  }
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]
type Notes = { uids: string[]; note: { type: string; title: string; text: string } }[]

const activated = (uids: string[], plan: PlanKind) => ({
  uids,
  note: {
    type: 'success',
    title: `Your ${PLAN_NAMES[plan]} plan is active`,
    text: 'Thank you! The product is unlocked.',
  },
})

export function subscriptionJson(r: repo.SubscriptionRow, now: Date): BillingSubscription {
  const current = r.status === 'active' && r.startsAt.getTime() <= now.getTime() && r.endsAt > now
  return {
    id: r.id,
    plan: r.plan,
    period: r.period,
    status: r.status,
    stripe_status: r.stripeStatus,
    team_id: r.teamId,
    seats: r.seats,
    starts_at: r.startsAt.toISOString(),
    ends_at: r.endsAt.toISOString(),
    current,
    cancel_at_period_end: r.cancelAtPeriodEnd,
    lapsing: current && (r.stripeStatus === 'past_due' || r.cancelAtPeriodEnd),
  }
}

/**
 * A team plan's seats are the members allowed: 409 `no-seats` when the members (and, for a new
 * invitation, the open invitations, which would take a seat on acceptance) fill them. Removing a
 * member or revoking an invitation frees a seat. Teams without a seat-limited plan are not limited.
 */
export async function assertSeatFree(
  db: Db,
  teamId: string,
  now: Date,
  counting: 'members' | 'members-and-invitations',
): Promise<void> {
  const seats = await repo.teamSeats(db, teamId, now)
  if (seats === undefined) return
  const taken = await repo.seatsTaken(db, teamId, now)
  const invitations = counting === 'members' ? 0 : taken.invitations
  if (taken.members + invitations < seats) return
  const parts = [`${taken.members} member${taken.members === 1 ? '' : 's'}`]
  if (invitations) parts.push(`${invitations} open invitation${invitations === 1 ? '' : 's'}`)
  throw new AppError(
    'no-seats',
    `The team’s plan has ${seats} seat${seats === 1 ? '' : 's'}, all taken (${parts.join(' and ')}). Add seats in Manage subscription, or remove a member${invitations ? ' or revoke an invitation' : ''}.`,
  )
}
