// The authorization walk of the billing routes: with payment configured (the SDK
// pointed at the Stripe stand-in), a member of another team gets 404 for everything about a
// team's plan and nothing is asked of Stripe on his behalf; a plain member of the team sees the
// plan but may neither buy nor manage it (403); someone else's Checkout session is 404.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDriver } from '@veloptima/db/testing'
import { sendEvent } from './stripe-webhook.ts'
import { caller, type Caller } from './platform-fixtures.ts'
import { apiRoutes } from './route-table.ts'
import { startStripeApp, type StripeApp } from './stripe-app.ts'
import type { StripeStandIn } from './stripe-stand-in.ts'

const KEY = 'sk_test_authz'
const SECRET = 'whsec_authz'

describe(`billing authorization on ${testDriver()}`, () => {
  let t: StripeApp
  let stripe: StripeStandIn
  let alice: Caller // owner of team A
  let carol: Caller // member of team A
  let bob: Caller // owner of another team, B
  let teamA: string
  let teamSession: string
  let personalSession: string

  beforeAll(async () => {
    t = await startStripeApp({
      secretKey: KEY,
      webhookSecret: SECRET,
      prices: { STRIPE_PRICE_TEAM_YEAR: 'price_team', STRIPE_PRICE_INDIVIDUAL_MONTH: 'price_ind' },
      env: { PUBLIC_URL: 'https://veloptima.example' },
    })
    stripe = t.standIn
    alice = caller(t, await t.bearer({ uid: 'alice' }))
    carol = caller(t, await t.bearer({ uid: 'carol' }))
    bob = caller(t, await t.bearer({ uid: 'bob' }))
    for (const c of [alice, carol, bob]) await c.get('/api/teams')
    teamA = (await alice.post('/api/teams', { name: 'A' })).body.id as string
    await bob.post('/api/teams', { name: 'B' })
    expect((await alice.post(`/api/teams/${teamA}/members`, { uid: 'carol' })).status).toBe(201)

    // Alice buys a team plan for A (Checkout, paid, webhook) and an Individual plan for herself.
    const bought = await alice.post('/api/billing/checkout', {
      plan: 'team',
      period: 'year',
      seats: 3,
      team_id: teamA,
    })
    expect(bought.status, JSON.stringify(bought.body)).toBe(200)
    teamSession = String(bought.body.url).split('/').pop()!
    const paid = stripe.complete(teamSession)
    const hook = await sendEvent(
      t.app,
      {
        id: 'evt_authz_1',
        object: 'event',
        type: 'checkout.session.completed',
        created: Math.floor(Date.now() / 1000),
        data: {
          object: {
            id: paid.id,
            object: 'checkout.session',
            client_reference_id: paid.client_reference_id,
            customer: paid.customer,
            subscription: paid.subscription,
            metadata: paid.metadata,
          },
        },
      },
      SECRET,
    )
    expect(hook.json()).toEqual({ applied: true })
    const own = await alice.post('/api/billing/checkout', { plan: 'individual', period: 'month' })
    personalSession = String(own.body.url).split('/').pop()!
  })
  afterAll(() => t.close())

  it('the walk covers every billing route the app has', () => {
    const walked = new Set([
      'GET /api/billing/config', // public: which plans can be bought
      'POST /api/billing/webhook', // Stripe's signature, no session (billing.int.test.ts)
      'GET /api/billing/subscriptions',
      'POST /api/billing/checkout',
      'POST /api/billing/portal',
      'GET /api/billing/status',
    ])
    const registered = apiRoutes(t.app)
      .filter((r) => r.path.startsWith('/api/billing/'))
      .map((r) => `${r.method} ${r.path}`)
    expect(new Set(registered)).toEqual(walked)
  })

  it('a member of another team gets 404 for the team’s plan, and Stripe is never asked', async () => {
    const asked = stripe.requests.length
    const attempts = [
      () =>
        bob.post('/api/billing/checkout', {
          plan: 'team',
          period: 'year',
          seats: 9,
          team_id: teamA,
        }),
      () => bob.post('/api/billing/portal', { team_id: teamA }),
    ]
    for (const attempt of attempts) {
      const res = await attempt()
      expect(res.status, JSON.stringify(res.body)).toBe(404)
    }
    expect(stripe.requests.length).toBe(asked)
    // Someone else's Checkout sessions (the team's, Alice's own) are not his to read.
    for (const id of [teamSession, personalSession]) {
      expect((await bob.get(`/api/billing/status?session_id=${id}`)).status).toBe(404)
    }
    // His plans are his and his team's: none.
    expect((await bob.get('/api/billing/subscriptions')).body.items).toEqual([])
  })

  it('a plain member sees the team’s plan but neither buys nor manages it; the owner does', async () => {
    const mine = (await carol.get('/api/billing/subscriptions')).body.items as {
      team_id: string
      seats: number
    }[]
    // The seats bought, from the Checkout session's metadata until the subscription's own event.
    expect(mine).toMatchObject([{ team_id: teamA, plan: 'team', seats: 3 }])
    expect((await carol.get(`/api/billing/status?session_id=${teamSession}`)).body.status).toBe(
      'active',
    )
    expect(
      (
        await carol.post('/api/billing/checkout', {
          plan: 'team',
          period: 'year',
          seats: 9,
          team_id: teamA,
        })
      ).status,
    ).toBe(403)
    expect((await carol.post('/api/billing/portal', { team_id: teamA })).status).toBe(403)
    // Alice's personal session is hers alone, even for a member of her team.
    expect((await carol.get(`/api/billing/status?session_id=${personalSession}`)).status).toBe(404)
    const portal = await alice.post('/api/billing/portal', { team_id: teamA })
    expect(portal.status).toBe(200)
    expect(stripe.requests.at(-1)!.form.get('customer')).toBe(
      stripe.sessions.get(teamSession)!.customer,
    )
  })
})
