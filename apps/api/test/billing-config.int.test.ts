// The pricing page's configuration (docs/billing.md "Plans and prices"): plans, prices, currency,
// billing periods and the free trial are product configuration, answered by the public
// GET /api/billing/config whether or not a payment provider is configured. Without Stripe
// nothing can be bought and the refusal speaks to a customer; with Stripe (the SDK pointed at
// the local stand-in) the same prices are shown and the plans with a price id can be bought.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { testDriver } from '@veloptima/db/testing'
import { suiteApp } from './helpers.ts'
import { caller, type Caller } from './platform-fixtures.ts'
import { startStripeApp, type StripeApp } from './stripe-app.ts'

const DAY_MS = 86_400_000
const CUSTOMER_REFUSAL =
  'Online payment is not available on this server; your administrator can grant a plan.'

/** The embedded defaults, as docs/billing.md and docs/configuration.md list them. */
const DEFAULT_PRICES = [
  { plan: 'individual', period: 'month', amount: 9, per_seat: false },
  { plan: 'individual', period: 'year', amount: 90, per_seat: false },
  { plan: 'team', period: 'month', amount: 7, per_seat: true },
  { plan: 'team', period: 'year', amount: 70, per_seat: true },
  { plan: 'aero', period: 'month', amount: 5, per_seat: false },
  { plan: 'aero', period: 'year', amount: 50, per_seat: false },
]

describe(`billing configuration without a payment provider on ${testDriver()}`, () => {
  const t = suiteApp()
  let ann: Caller
  beforeAll(async () => {
    ann = caller(t, await t.bearer({ uid: 'ann' }))
    await ann.get('/api/users/ann')
  })

  it('answers every plan’s price, the currency, the periods and the trial to anyone', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/billing/config' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({
      enabled: false,
      plans: [],
      currency: 'EUR',
      periods: ['month', 'year'],
      prices: DEFAULT_PRICES,
      trial_days: 14,
    })
  })

  it('buying is refused in customer words, naming no operator command', async () => {
    const res = await ann.post('/api/billing/checkout', { plan: 'individual', period: 'month' })
    expect(res.status).toBe(404)
    expect(res.body.code).toBe('billing-disabled')
    expect(res.body.message).toBe(CUSTOMER_REFUSAL)
    expect(res.body.message).not.toMatch(/npm|admin --|mailto/)
  })
})

describe(`billing configuration set by the operator on ${testDriver()}`, () => {
  const t = suiteApp({
    BILLING_CURRENCY: 'chf',
    BILLING_PERIODS: 'year',
    PLAN_PRICE_INDIVIDUAL_YEAR: '99.5',
    PLAN_PRICE_TEAM_YEAR: '80',
    TRIAL_DAYS: '30',
  })
  let ben: Caller
  beforeAll(async () => {
    ben = caller(t, await t.bearer({ uid: 'ben' }))
    await ben.get('/api/users/ben')
  })

  it('shows the configured currency, only the offered period and the configured prices', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/billing/config' })
    expect(res.json()).toEqual({
      enabled: false,
      plans: [],
      currency: 'CHF',
      periods: ['year'],
      prices: [
        { plan: 'individual', period: 'year', amount: 99.5, per_seat: false },
        { plan: 'team', period: 'year', amount: 80, per_seat: true },
        { plan: 'aero', period: 'year', amount: 50, per_seat: false },
      ],
      trial_days: 30,
    })
  })

  it('the free trial lasts the configured number of days', async () => {
    const before = Date.now()
    const res = await ben.post('/api/users/ben/trial')
    expect(res.status).toBe(200)
    const days = (Date.parse(res.body.trial_ends_at as string) - before) / DAY_MS
    expect(days).toBeGreaterThan(29.99)
    expect(days).toBeLessThan(30.01)
  })
})

describe(`billing configuration with Stripe on ${testDriver()}`, () => {
  const KEY = 'sk_test_config'
  let t: StripeApp
  let cleo: Caller
  beforeAll(async () => {
    t = await startStripeApp({
      secretKey: KEY,
      webhookSecret: 'whsec_config',
      prices: {
        STRIPE_PRICE_INDIVIDUAL_MONTH: 'price_ind_m',
        STRIPE_PRICE_INDIVIDUAL_YEAR: 'price_ind_y',
      },
      env: { BILLING_PERIODS: 'month' },
    })
    cleo = caller(t, await t.bearer({ uid: 'cleo' }))
    await cleo.get('/api/users/cleo')
  })
  afterAll(() => t.close())

  it('shows the same prices and which plans can be bought in the offered periods', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/billing/config' })
    expect(res.json()).toEqual({
      enabled: true,
      plans: [{ plan: 'individual', period: 'month' }],
      currency: 'EUR',
      periods: ['month'],
      prices: DEFAULT_PRICES.filter((p) => p.period === 'month'),
      trial_days: 14,
    })
  })

  it('a period that is not offered cannot be bought, even with a price id', async () => {
    const res = await cleo.post('/api/billing/checkout', { plan: 'individual', period: 'year' })
    expect(res.status).toBe(400)
    expect(res.body.message).toMatch(/^period: yearly billing is not offered here/)
    const month = await cleo.post('/api/billing/checkout', { plan: 'individual', period: 'month' })
    expect(month.status, JSON.stringify(month.body)).toBe(200)
  })
})
