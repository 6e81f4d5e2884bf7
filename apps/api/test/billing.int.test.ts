// Subscriptions and payment: Stripe's official SDK against the local Stripe stand-in
// (stripe-stand-in.ts: it checks and records what the SDK sends; Stripe cannot be reached from
// here), and webhooks signed by the SDK's own test-header helper, posted to the real app.
import type { AddressInfo } from 'node:net'
import { eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { stripeCustomers, stripeEvents, subscriptions } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import { Accounts } from '../src/idp/accounts.ts'
import { computeClaims } from '../src/services/claims.ts'
import { forSuite } from './helpers.ts'
import { signInWithPassword, startIdentity } from './idp-flow.ts'
import { caller, type Caller } from './platform-fixtures.ts'
import { SseClient } from './sse-client.ts'
import { postWebhook, webhookSignature } from './stripe-webhook.ts'
import { startStripeApp, type StripeApp } from './stripe-app.ts'
import type { StripeStandIn } from './stripe-stand-in.ts'

const SECRET = 'whsec_test_secret'
const KEY = 'sk_test_local'

describe(`billing: Checkout, portal and webhooks on ${testDriver()}`, () => {
  let t: StripeApp
  let stripe: StripeStandIn
  const seen = () => stripe.requests
  let base: string
  let rita: Caller
  let ritaToken: string
  let eventNo = 0
  let teamId = ''
  const now = Math.floor(Date.now() / 1000)

  const signed = (type: string, object: object, created: number, id = `evt_${++eventNo}`) => {
    const payload = JSON.stringify({ id, object: 'event', type, created, data: { object } })
    return { payload, header: webhookSignature(payload, SECRET) }
  }
  const post = (e: { payload: string; header: string }) => postWebhook(t.app, e.payload, e.header)
  const sub = (status: string, extra: object = {}) => ({
    id: 'sub_rita',
    object: 'subscription',
    status,
    customer: 'cus_rita',
    metadata: { plan: 'individual', period: 'month', uid: 'rita' },
    start_date: now - 60,
    items: {
      data: [{ quantity: 1, current_period_end: now + 30 * 86400, price: { id: 'price_ind_m' } }],
    },
    ...extra,
  })
  const row = async () =>
    (
      await t.database.db
        .select()
        .from(subscriptions)
        .where(eq(subscriptions.stripeSubscriptionId, 'sub_rita'))
    )[0]

  beforeAll(async () => {
    t = await startStripeApp({
      secretKey: KEY,
      webhookSecret: SECRET,
      prices: {
        STRIPE_PRICE_INDIVIDUAL_MONTH: 'price_ind_m',
        STRIPE_PRICE_TEAM_YEAR: 'price_team_y',
      },
      env: { PUBLIC_URL: 'https://veloptima.example', LIVE_POLL_MS: '0' },
    })
    stripe = t.standIn
    await t.app.listen({ port: 0, host: '127.0.0.1' })
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`
    const bearer = await t.bearer({ uid: 'rita' })
    ritaToken = bearer.authorization.slice(7)
    rita = caller(t, bearer)
    await rita.get('/api/users/rita')
  })
  afterAll(() => t.close())

  it('config: only the plans with a price id can be bought', async () => {
    const res = await rita.get('/api/billing/config')
    expect(res.body).toMatchObject({
      enabled: true,
      plans: [
        { plan: 'individual', period: 'month' },
        { plan: 'team', period: 'year' },
      ],
    })
    expect(
      (await rita.post('/api/billing/checkout', { plan: 'aero', period: 'year' })).status,
    ).toBe(400)
  })

  it('checkout: the SDK posts a subscription session with the price, quantity, return URL and the caller', async () => {
    const res = await rita.post('/api/billing/checkout', { plan: 'individual', period: 'month' })
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    // The Checkout page Stripe (here its stand-in) answered with.
    expect(res.body.url).toBe(`${stripe.url}/c/pay/cs_test_1`)
    const req = seen().find((r) => r.path === '/v1/checkout/sessions')!
    expect(req.method).toBe('POST')
    expect(req.auth).toBe(`Bearer ${KEY}`)
    expect(req.form.get('mode')).toBe('subscription')
    expect(req.form.get('line_items[0][price]')).toBe('price_ind_m')
    expect(req.form.get('line_items[0][quantity]')).toBe('1')
    expect(req.form.get('client_reference_id')).toBe('rita')
    expect(req.form.get('customer_email')).toBe('rita@example.com')
    expect(req.form.get('metadata[plan]')).toBe('individual')
    expect(req.form.get('subscription_data[metadata][uid]')).toBe('rita')
    expect(req.form.get('success_url')).toBe(
      'https://veloptima.example/account/billing/return?session_id={CHECKOUT_SESSION_ID}',
    )
  })

  it('checkout: a team plan needs a team the caller manages, and sends its seats', async () => {
    const team = await rita.post('/api/teams', { name: 'Rita Racing' })
    teamId = team.body.id as string
    const res = await rita.post('/api/billing/checkout', {
      plan: 'team',
      period: 'year',
      seats: 6,
      team_id: team.body.id,
    })
    expect(res.status).toBe(200)
    const req = seen()
      .filter((r) => r.path === '/v1/checkout/sessions')
      .at(-1)!
    expect(req.form.get('line_items[0][price]')).toBe('price_team_y')
    expect(req.form.get('line_items[0][quantity]')).toBe('6')
    expect(req.form.get('client_reference_id')).toBe(`team:${team.body.id}`)
    expect(req.form.get('metadata[seats]')).toBe('6')
    expect(req.form.get('subscription_data[metadata][team_id]')).toBe(team.body.id)
    const stranger = caller(t, await t.bearer({ uid: 'sam' }))
    await stranger.get('/api/users/sam')
    const other = await stranger.post('/api/billing/checkout', {
      plan: 'team',
      period: 'year',
      seats: 2,
      team_id: team.body.id,
    })
    expect(other.status).toBe(404)
  })

  it('webhook: a forged or missing signature is refused with 400 and stores nothing', async () => {
    const e = signed('customer.subscription.created', sub('active'), now)
    const forged = webhookSignature(e.payload, 'whsec_wrong')
    expect((await post({ payload: e.payload, header: forged })).statusCode).toBe(400)
    expect(
      (await post({ payload: e.payload.replace('active', 'trialing'), header: e.header }))
        .statusCode,
    ).toBe(400)
    expect(await row()).toBeUndefined()
    expect(await t.database.db.select().from(stripeEvents)).toEqual([])
  })

  it('webhook: checkout completes → plan stored, claims include it, live stream tells the browser', async () => {
    const live = await SseClient.open(`${base}/api/live?access_token=${ritaToken}`)
    await live.until((e) => e.some((x) => x.event === 'rider-profile'))
    expect(await computeClaims(t.database.db, 'rita', [])).toEqual({})
    const done = signed(
      'checkout.session.completed',
      {
        id: 'cs_test_1',
        object: 'checkout.session',
        client_reference_id: 'rita',
        customer: 'cus_rita',
        subscription: 'sub_rita',
        metadata: { plan: 'individual', period: 'month', uid: 'rita' },
      },
      now,
    )
    const res = await post(done)
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({ applied: true })
    expect(await computeClaims(t.database.db, 'rita', [])).toEqual({ 'create:simulations': true })
    await live.until((e) => e.some((x) => x.event === 'notification'))
    const n = JSON.parse(live.events.find((x) => x.event === 'notification')!.data)
    expect(n.data).toEqual({ kind: 'claims' })
    live.close()
    // Rita paid on the Checkout page: the session has her customer and subscription.
    stripe.complete('cs_test_1', { customer: 'cus_rita', subscription: 'sub_rita' })
    const status = await rita.get('/api/billing/status?session_id=cs_test_1')
    expect(status.body.status).toBe('active')
    // Replayed: nothing changes.
    const again = await post(done)
    expect(again.json()).toEqual({ applied: false })
    expect((await rita.post('/api/billing/portal')).body.url).toMatch(
      new RegExp(`^${stripe.url}/p/session/bps_test_\\d+$`),
    )
    const portal = seen().find((r) => r.path === '/v1/billing_portal/sessions')!
    expect(portal.form.get('customer')).toBe('cus_rita')
  })

  it('webhook: cancelled at the period end → the plan says it ends then (not renews); resumed → renews; an older event changes nothing', async () => {
    const periodEnd = now + 30 * 86400
    const mine = async () =>
      ((await rita.get('/api/billing/subscriptions')).body.items as Record<string, unknown>[]).find(
        (p) => p.stripe_status !== null && p.team_id === null,
      )!
    // Stripe's portal cancellation: cancel_at_period_end true, status still active.
    const cancelled = signed(
      'customer.subscription.updated',
      sub('active', { cancel_at_period_end: true, cancel_at: periodEnd }),
      now + 2,
    )
    expect((await post(cancelled)).json()).toEqual({ applied: true })
    expect(await row()).toMatchObject({ cancelAtPeriodEnd: true, status: 'active' })
    expect(await mine()).toMatchObject({
      cancel_at_period_end: true,
      lapsing: true,
      current: true,
      ends_at: new Date(periodEnd * 1000).toISOString(),
    })
    // Still the claims until then.
    expect(await computeClaims(t.database.db, 'rita', [])).toEqual({ 'create:simulations': true })
    // Resumed in the portal before the end.
    const resumed = signed(
      'customer.subscription.updated',
      sub('active', { cancel_at_period_end: false, cancel_at: null }),
      now + 4,
    )
    expect((await post(resumed)).json()).toEqual({ applied: true })
    expect(await mine()).toMatchObject({ cancel_at_period_end: false, lapsing: false })
    // The cancellation delivered again late (a newer id, an older created) changes nothing.
    const late = signed(
      'customer.subscription.updated',
      sub('active', { cancel_at_period_end: true, cancel_at: periodEnd }),
      now + 3,
    )
    expect((await post(late)).json()).toEqual({ applied: false })
    expect(await row()).toMatchObject({ cancelAtPeriodEnd: false })
  })

  it('webhook: out of order, an older updated never overwrites the newer deletion; replays change nothing', async () => {
    const deleted = signed(
      'customer.subscription.deleted',
      sub('canceled', { ended_at: now + 100 }),
      now + 100,
    )
    const olderUpdate = signed('customer.subscription.updated', sub('active'), now + 50)
    expect((await post(deleted)).json()).toEqual({ applied: true })
    const after = await row()
    expect(after!.status).toBe('cancelled')
    expect((await post(olderUpdate)).json()).toEqual({ applied: false })
    expect(await row()).toEqual(after)
    expect((await post(deleted)).json()).toEqual({ applied: false })
    expect(await computeClaims(t.database.db, 'rita', [], new Date((now + 101) * 1000))).toEqual({})
  })

  it('seats: a team plan of 2 seats refuses a third member or invitation; removing a member frees one', async () => {
    const invite = (email: string) => rita.post(`/api/teams/${teamId}/invitations`, { email })
    // Before the plan the team is not limited (an administrator's plan has no seats either).
    const first = await invite('bea@example.com')
    expect(first.status).toBe(201)
    const teamSub = {
      id: 'sub_team',
      object: 'subscription',
      status: 'active',
      customer: 'cus_team',
      metadata: { plan: 'team', period: 'year', team_id: teamId },
      start_date: now - 60,
      items: {
        data: [
          { quantity: 2, current_period_end: now + 365 * 86400, price: { id: 'price_team_y' } },
        ],
      },
    }
    expect((await post(signed('customer.subscription.created', teamSub, now))).json()).toEqual({
      applied: true,
    })
    const [stored] = await t.database.db
      .select()
      .from(subscriptions)
      .where(eq(subscriptions.stripeSubscriptionId, 'sub_team'))
    expect(stored).toMatchObject({ teamId, plan: 'team', seats: 2, status: 'active' })
    // Rita (1 member) + Bea's open invitation fill both seats.
    const full = await invite('cid@example.com')
    expect(full.status).toBe(409)
    expect(full.body.code).toBe('no-seats')
    expect(full.body.message).toContain('2 seats, all taken (1 member and 1 open invitation)')
    const bea = caller(t, await t.bearer({ uid: 'bea' }))
    await bea.get('/api/users/bea')
    const token = String(first.body.link).split('/').at(-1)
    expect((await bea.post('/api/invitations/accept', { token })).status).toBe(200)
    expect((await invite('cid@example.com')).body.code).toBe('no-seats')
    expect((await rita.del(`/api/teams/${teamId}/members/bea`)).status).toBe(204)
    expect((await invite('cid@example.com')).status).toBe(201)
  })

  it('webhook: a failed payment marks the team plan past due: claims kept until the period ends, then lapsed', async () => {
    const failed = signed(
      'invoice.payment_failed',
      {
        id: 'in_1',
        object: 'invoice',
        customer: 'cus_team',
        parent: {
          type: 'subscription_details',
          subscription_details: { subscription: 'sub_team' },
        },
      },
      now + 10,
    )
    expect((await post(failed)).json()).toEqual({ applied: true })
    const plans = (await rita.get('/api/billing/subscriptions')).body.items as {
      seats: number | null
      stripe_status: string
      lapsing: boolean
      current: boolean
    }[]
    const team = plans.find((p) => p.seats === 2)!
    expect(team).toMatchObject({ stripe_status: 'past_due', lapsing: true, current: true })
    const inPeriod = new Date((now + 20) * 1000)
    expect(await computeClaims(t.database.db, 'rita', [], inPeriod)).toMatchObject({
      'use:multipleRiderProfiles': true,
    })
    const after = new Date((now + 366 * 86400) * 1000)
    expect(await computeClaims(t.database.db, 'rita', [], after)).toEqual({})
  })

  it('webhook: an unknown event type is acknowledged and changes nothing', async () => {
    const res = await post(signed('customer.created', { id: 'cus_x', object: 'customer' }, now))
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ applied: false })
  })
})

// The claims change end to end: a user of the embedded provider signs in, a signed webhook
// stores a plan, and the next custom-token exchange (what the browser does on the live
// notification) carries the plan's claims without signing out.
describe('billing: the next session token carries the plan', () => {
  const id = forSuite(() =>
    startIdentity({
      STRIPE_SECRET_KEY: KEY,
      STRIPE_WEBHOOK_SECRET: SECRET,
      STRIPE_PRICE_AERO_YEAR: 'price_aero_y',
    }),
  )
  beforeAll(async () => {
    await new Accounts(id.t.database.db).create({
      email: 'ann@example.com',
      name: 'Ann',
      password: 'ann-password-1',
    })
  })

  it('webhook → custom-token claims include create:simulations and access:aerooptimization', async () => {
    const { tokens } = await signInWithPassword(id.settings, 'ann@example.com', 'ann-password-1')
    const exchange = () =>
      id.t.app.inject({
        method: 'POST',
        url: '/api/auth/custom-token',
        payload: { accessToken: tokens!.access_token },
      })
    const before = (await exchange()).json()
    expect(before.claims).toEqual({})
    const uid = before.user.uid as string
    const now = Math.floor(Date.now() / 1000)
    const payload = JSON.stringify({
      id: 'evt_ann_1',
      object: 'event',
      type: 'customer.subscription.created',
      created: now,
      data: {
        object: {
          id: 'sub_ann',
          object: 'subscription',
          status: 'active',
          customer: 'cus_ann',
          // No metadata: the plan is found by its price id, the holder by the customer below.
          metadata: {},
          start_date: now - 5,
          items: {
            data: [
              { quantity: 1, current_period_end: now + 365 * 86400, price: { id: 'price_aero_y' } },
            ],
          },
        },
      },
    })
    await id.t.database.db.insert(stripeCustomers).values({ customerId: 'cus_ann', uid })
    const res = await postWebhook(id.t.app, payload, webhookSignature(payload, SECRET))
    expect(res.json()).toEqual({ applied: true })
    expect((await exchange()).json().claims).toEqual({
      'access:aerooptimization': true,
      'create:simulations': true,
    })
  })
})
