// What the holder is told when Stripe's subscription events arrive: activation, a
// cancellation at the period's end (Stripe's `previous_attributes` say it changed), a change of
// plan or seats, the end; and nothing for a renewal or for the subscription's own event that
// replaces the provisional plan of its Checkout. Events signed by the SDK's test-header helper.
import { asc, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { notifications } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import { startTestApp, type TestApp } from './helpers.ts'
import { sendEvent } from './stripe-webhook.ts'
import { caller } from './platform-fixtures.ts'

const SECRET = 'whsec_notes'
const now = Math.floor(Date.now() / 1000)
const DAY = 86_400

describe(`billing: what the holder is told on ${testDriver()}`, () => {
  let t: TestApp
  let n = 0

  beforeAll(async () => {
    t = await startTestApp({
      STRIPE_SECRET_KEY: 'sk_test_notes',
      STRIPE_WEBHOOK_SECRET: SECRET,
      STRIPE_PRICE_INDIVIDUAL_MONTH: 'price_ind_m',
      // Nothing here calls Stripe's API: a closed port would fail any call.
      STRIPE_API_URL: 'http://127.0.0.1:9',
    })
    await caller(t, await t.bearer({ uid: 'ivy' })).get('/api/users/ivy')
  })
  afterAll(() => t.close())

  const sub = (extra: object = {}, periodEnd = now + 30 * DAY) => ({
    id: 'sub_ivy',
    object: 'subscription',
    status: 'active',
    customer: 'cus_ivy',
    metadata: { plan: 'individual', period: 'month', uid: 'ivy' },
    start_date: now,
    cancel_at_period_end: false,
    cancel_at: null,
    items: { data: [{ quantity: 1, current_period_end: periodEnd, price: { id: 'price_ind_m' } }] },
    ...extra,
  })
  async function send(type: string, object: object, previous?: object) {
    const res = await sendEvent(
      t.app,
      {
        id: `evt_notes_${++n}`,
        object: 'event',
        type,
        created: now + n,
        data: { object, ...(previous && { previous_attributes: previous }) },
      },
      SECRET,
    )
    expect(res.json()).toEqual({ applied: true })
  }
  const told = async () =>
    (
      await t.database.db
        .select({ title: notifications.title, text: notifications.text })
        .from(notifications)
        .where(eq(notifications.uid, 'ivy'))
        .orderBy(asc(notifications.seq))
    ).map((r) => `${r.title} | ${r.text}`)

  it('checkout, then the subscription’s own event: told once that the plan is active', async () => {
    await send('checkout.session.completed', {
      id: 'cs_ivy',
      object: 'checkout.session',
      client_reference_id: 'ivy',
      customer: 'cus_ivy',
      subscription: 'sub_ivy',
      metadata: { plan: 'individual', period: 'month', uid: 'ivy' },
    })
    await send('customer.subscription.created', sub())
    expect(await told()).toEqual([
      'Your Individual plan is active | Thank you! The product is unlocked.',
    ])
  })

  it('a renewal (a new period) says nothing', async () => {
    await send('customer.subscription.updated', sub({}, now + 60 * DAY), {
      items: { data: [{ current_period_end: now + 30 * DAY }] },
    })
    expect(await told()).toHaveLength(1)
  })

  it('cancelled at the period’s end: told the date it ends; resumed: told it renews', async () => {
    const end = now + 60 * DAY
    const day = new Date(end * 1000).toISOString().slice(0, 10)
    await send(
      'customer.subscription.updated',
      sub({ cancel_at_period_end: true, cancel_at: end }, end),
      { cancel_at_period_end: false, cancel_at: null },
    )
    await send('customer.subscription.updated', sub({}, end), {
      cancel_at_period_end: true,
      cancel_at: end,
    })
    expect((await told()).slice(1)).toEqual([
      `Your Individual plan ends on ${day} | It was cancelled and stays active until then; your data is kept.`,
      `Your Individual plan renews again | Next renewal on ${day}.`,
    ])
  })

  it('another plan (switched in the portal): told what it is now', async () => {
    const aero = { metadata: { plan: 'aero', period: 'year', uid: 'ivy' } }
    await send('customer.subscription.updated', sub(aero), { items: {} })
    expect((await told()).at(-1)).toBe('Your plan changed | Now Aero add-on, yearly.')
  })

  it('the end: told the plan ended and the data is kept', async () => {
    const aero = { metadata: { plan: 'aero', period: 'year', uid: 'ivy' } }
    await send(
      'customer.subscription.deleted',
      sub({ ...aero, status: 'canceled', ended_at: now + 100 }),
    )
    expect((await told()).at(-1)).toBe(
      'Your Aero add-on plan has ended | Your data is kept, read-only. Subscribe again to unlock it.',
    )
  })
})
