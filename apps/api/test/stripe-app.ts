// The billing suites' app: a test app whose Stripe is the local stand-in (stripe-stand-in.ts).
import { startTestApp, withStandIn, type TestApp } from './helpers.ts'
import { startStripeStandIn, type StripeStandIn } from './stripe-stand-in.ts'

export type StripeApp = TestApp & { standIn: StripeStandIn }

/**
 * The stand-in, accepting `secretKey` and knowing the price ids of `prices` (STRIPE_PRICE_*
 * variables), then a test app paying through it, with `env` besides; closing it closes both.
 */
export async function startStripeApp(options: {
  secretKey: string
  webhookSecret: string
  prices: Record<string, string>
  env?: Record<string, string>
}): Promise<StripeApp> {
  const { secretKey, webhookSecret, prices, env } = options
  const stripe = await startStripeStandIn({ secretKey, prices: Object.values(prices) })
  const t = await startTestApp({
    STRIPE_SECRET_KEY: secretKey,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    STRIPE_API_URL: stripe.url,
    ...prices,
    ...env,
  })
  return withStandIn(t, stripe)
}
