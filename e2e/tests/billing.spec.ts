import { expect, test, type APIRequestContext, type Page } from '@playwright/test'
import Stripe from 'stripe'
import { DEMO, screenshotPath, signIn } from '../helpers/auth.ts'
import { pageErrors } from '../helpers/page-errors.ts'

// Subscriptions: a new user buys the Individual plan through Stripe Checkout and gets
// Performance Simulation without signing out; a cancelled subscription locks it again at the
// period's end. This runs against the second app instance of playwright.config.ts, the one with
// Stripe configured: its SDK talks to the local Stripe stand-in (which checks what it is sent and
// serves the Checkout and portal pages), and the test posts the webhooks Stripe would send,
// signed with the SDK's own test-header helper.

const app = `http://localhost:${process.env.E2E_BILLING_PORT}`
const stripeStandIn = `http://127.0.0.1:${process.env.E2E_STRIPE_PORT}`
const sdk = new Stripe(process.env.E2E_STRIPE_KEY!)
const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Main', exact: true })

test.use({ baseURL: app })

type StandInSession = {
  id: string
  status: string
  client_reference_id: string
  customer: string | null
  subscription: string | null
  metadata: Record<string, string>
  price: string
  quantity: number
}

let eventNo = 0
/** Posts a webhook event as Stripe does: JSON body, Stripe-Signature by the endpoint's secret. */
async function webhook(
  request: APIRequestContext,
  type: string,
  object: object,
  created: number,
  previous?: object,
) {
  const payload = JSON.stringify({
    id: `evt_e2e_${Date.now()}_${++eventNo}`,
    object: 'event',
    type,
    created,
    data: { object, ...(previous && { previous_attributes: previous }) },
  })
  const header = sdk.webhooks.generateTestHeaderString({
    payload,
    secret: process.env.E2E_STRIPE_WEBHOOK_SECRET!,
  })
  const res = await request.post(`${app}/api/billing/webhook`, {
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    data: payload,
  })
  expect(res.status(), await res.text()).toBe(200)
  return (await res.json()) as { applied: boolean }
}

// The same prices (the embedded defaults of docs/billing.md, the product's configuration) on the
// pricing page of both instances: the first without a payment provider, this one with Stripe.
const PRICES = {
  month: { individual: '€9/ month', team: '€7per seat / month', aero: '€5/ month' },
  year: { individual: '€90/ year', team: '€70per seat / year', aero: '€50/ year' },
}
const withoutProvider = `http://localhost:${process.env.E2E_PORT}`

for (const [mode, base] of [
  ['without a payment provider', withoutProvider],
  ['with Stripe', app],
] as const) {
  test(`pricing page ${mode}: every plan with its price, currency, period and the trial`, async ({
    page,
  }) => {
    const errors = pageErrors(page)
    for (const width of [1366, 390]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 900 })
      await page.goto(`${base}/pricing`)
      await expect(page.getByRole('heading', { name: 'Free 14-day trial' })).toBeVisible()
      for (const period of ['year', 'month'] as const) {
        await page.getByText(period === 'year' ? 'Yearly' : 'Monthly', { exact: true }).click()
        for (const [plan, text] of Object.entries(PRICES[period])) {
          await expect(page.getByTestId(`price-${plan}`)).toHaveText(text)
        }
      }
      await expect(page.getByText('Prices in EUR; the Team plan is priced per seat')).toBeVisible()
      // No operator command and no hand-made mail link on a customer page.
      await expect(page.getByText(/npm run|admin --/)).toHaveCount(0)
      await expect(page.locator('a[href^="mailto:"]')).toHaveCount(0)
      const refusal = page.getByText(
        'Online payment is not available on this server; your administrator can grant a plan.',
      )
      const subscribe = page.getByRole('button', { name: 'Sign in to subscribe' })
      if (base === app) {
        await expect(refusal).toHaveCount(0)
        // Individual has both prices in Stripe; the Aero add-on has none: granted only.
        await expect(subscribe).toHaveCount(1)
        await expect(
          page.getByText('The Aero add-on plan cannot be bought online monthly here'),
        ).toBeVisible()
      } else {
        await expect(refusal).toBeVisible()
        await expect(subscribe).toHaveCount(0)
        await expect(page.getByText('Your administrator can grant this plan.')).toHaveCount(3)
      }
      // The page fits the phone: no sideways scroll.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        width,
      )
      const name = base === app ? 'billing-pricing-stripe' : 'billing-pricing-no-provider'
      await page.screenshot({ path: screenshotPath(`${name}-${width}`), fullPage: true })
    }
    expect(errors).toEqual([])
  })
}

test('a new user subscribes in Checkout, gets Performance Simulation without signing out, and a cancelled plan locks it at the period end', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000)
  await signIn(page, DEMO.newUser)
  // From here on the browser never goes back to the identity provider: no new sign-in.
  const signIns: string[] = []
  page.on('framenavigated', (f) => {
    if (f === page.mainFrame() && f.url().includes('/interaction/')) signIns.push(f.url())
  })
  await expect(mainNav(page).getByRole('link', { name: 'Performance Simulation' })).toHaveCount(0)

  // Pricing: payment is on here, so plans are bought, not granted by the administrator.
  await page.goto('/pricing')
  await expect(page.getByText('Payment is handled by Stripe')).toBeVisible()
  await expect(page.getByText('Online payment is not available on this server')).toHaveCount(0)
  await page.getByText('Monthly', { exact: true }).click()
  const individual = page.getByRole('listitem').filter({
    has: page.getByRole('heading', { name: 'Individual', exact: true }),
  })
  await page.screenshot({ path: screenshotPath('billing-pricing'), fullPage: true })
  await individual.getByRole('button', { name: 'Subscribe monthly' }).click()

  // Stripe's hosted Checkout (the stand-in's page): the monthly Individual price, one seat,
  // for the signed-in user's e-mail address.
  await page.waitForURL(new RegExp(`^${stripeStandIn}/c/pay/cs_test_\\d+$`))
  await expect(page.getByTestId('line')).toHaveText(
    `price_e2e_individual_month × 1 for ${DEMO.newUser}`,
  )
  await page.screenshot({ path: screenshotPath('billing-checkout-stand-in'), fullPage: true })
  const sessionId = page.url().split('/').pop()!
  await page.getByRole('button', { name: 'Subscribe' }).click()

  // Back on the return page, which waits for the webhook.
  await page.waitForURL(`${app}/account/billing/return?session_id=${sessionId}`)
  await expect(page.getByText('Confirming your payment with Stripe…')).toBeVisible()
  await page.screenshot({ path: screenshotPath('billing-return-waiting'), fullPage: true })

  // Stripe sends checkout.session.completed, then the subscription's own event.
  const sessions = (await (
    await request.get(`${stripeStandIn}/__stand-in/sessions`)
  ).json()) as StandInSession[]
  const session = sessions.find((s) => s.id === sessionId)!
  expect(session).toMatchObject({ status: 'complete', metadata: { plan: 'individual' } })
  const now = Math.floor(Date.now() / 1000)
  expect(
    await webhook(
      request,
      'checkout.session.completed',
      {
        id: session.id,
        object: 'checkout.session',
        client_reference_id: session.client_reference_id,
        customer: session.customer,
        subscription: session.subscription,
        metadata: session.metadata,
      },
      now,
    ),
  ).toEqual({ applied: true })
  const subscription = (status: string, extra: object = {}) => ({
    id: session.subscription,
    object: 'subscription',
    status,
    customer: session.customer,
    metadata: session.metadata,
    start_date: now,
    cancel_at_period_end: false,
    items: {
      data: [{ quantity: 1, current_period_end: now + 30 * 86_400, price: { id: session.price } }],
    },
    ...extra,
  })
  expect(
    await webhook(request, 'customer.subscription.created', subscription('active'), now + 1),
  ).toEqual({ applied: true })

  // The product unlocks on this page: the plan, its entry in the menu, and the way in.
  await expect(page.getByRole('heading', { name: 'Your Individual plan is active' })).toBeVisible()
  await expect(mainNav(page).getByRole('link', { name: 'Performance Simulation' })).toBeVisible()
  await page.screenshot({ path: screenshotPath('billing-return-active'), fullPage: true })
  await page.getByRole('link', { name: 'Open Performance Simulation' }).click()
  await expect(page).toHaveURL(/\/simulation\//)
  await expect(page.getByTestId('access-gate')).toHaveCount(0)
  await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()

  // The account page shows the plan and opens Stripe's customer portal for its customer.
  await page.goto('/account')
  const plans = page.getByTestId('billing-subscriptions')
  await expect(plans).toContainText('Individual, monthly')
  await expect(plans).toContainText('Active until')
  await page.screenshot({ path: screenshotPath('billing-account'), fullPage: true })
  await page.getByRole('button', { name: 'Manage subscription' }).click()
  await page.waitForURL(new RegExp(`^${stripeStandIn}/p/session/`))
  await expect(page.getByTestId('customer')).toHaveText(session.customer!)
  await page.screenshot({ path: screenshotPath('billing-portal-stand-in'), fullPage: true })
  await page.getByRole('link', { name: 'Return to Veloptima' }).click()
  await page.waitForURL(`${app}/account`)

  // Cancelled in the portal: Stripe says the plan ends at the period's end. Until then the
  // product stays unlocked.
  const periodEnd = now + 30 * 86_400
  expect(
    await webhook(
      request,
      'customer.subscription.updated',
      subscription('active', { cancel_at_period_end: true, cancel_at: periodEnd }),
      now + 2,
      { cancel_at_period_end: false },
    ),
  ).toEqual({ applied: true })
  // The live stream tells the open page when it ends.
  const endDay = new Date(periodEnd * 1000).toISOString().slice(0, 10)
  await expect(page.getByText(`Your Individual plan ends on ${endDay}`)).toBeVisible()
  // The account page says it ends then (not that it renews); so does the home page.
  await page.goto('/account')
  await expect(page.getByTestId('billing-subscriptions')).toContainText('Cancelled: ends on')
  await expect(page.getByTestId('billing-subscriptions')).not.toContainText('renews')
  await page.goto('/')
  await expect(page.getByTestId('plan-notices')).toContainText(
    `Your Individual plan ends on ${endDay}`,
  )
  await page.screenshot({ path: screenshotPath('billing-home-cancelled'), fullPage: true })
  await mainNav(page).getByRole('link', { name: 'Performance Simulation' }).click()
  await expect(page).toHaveURL(/\/simulation\//)
  await expect(page.getByTestId('access-gate')).toHaveCount(0)

  // The period ends: Stripe deletes the subscription. The open page locks without a reload.
  expect(
    await webhook(
      request,
      'customer.subscription.deleted',
      subscription('canceled', { cancel_at_period_end: true, ended_at: now + 3 }),
      now + 3,
    ),
  ).toEqual({ applied: true })
  await expect(
    page.getByRole('heading', { name: 'Your plan does not include this yet' }),
  ).toBeVisible()
  await expect(mainNav(page).getByRole('link', { name: 'Performance Simulation' })).toHaveCount(0)
  await page.screenshot({ path: screenshotPath('billing-locked'), fullPage: true })
  await page.goto('/account')
  await expect(page.getByTestId('billing-subscriptions')).toContainText(
    'Your data is kept, read-only',
  )
  await page.screenshot({ path: screenshotPath('billing-account-ended'), fullPage: true })
  // The home page says the plan has lapsed and that the data is kept.
  await page.goto('/')
  const endedDay = new Date((now + 3) * 1000).toISOString().slice(0, 10)
  await expect(page.getByTestId('plan-notices')).toContainText(
    `Your Individual plan ended on ${endedDay}`,
  )
  await expect(page.getByTestId('plan-notices')).toContainText('Your data is kept, read-only')
  await page.screenshot({ path: screenshotPath('billing-home-ended'), fullPage: true })
  expect(signIns).toEqual([])
})
