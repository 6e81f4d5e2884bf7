// The Stripe stand-in as a process, for the billing e2e journey (e2e/playwright.config.ts points
// the billing instance's STRIPE_API_URL at it): `tsx apps/api/test/stripe-stand-in-main.ts` with
// PORT, STRIPE_SECRET_KEY and STRIPE_PRICES (the price ids that exist, comma-separated).
import { startStripeStandIn } from './stripe-stand-in.ts'

const secretKey = process.env.STRIPE_SECRET_KEY
const prices = (process.env.STRIPE_PRICES ?? '').split(',').filter(Boolean)
if (!secretKey || prices.length === 0) {
  console.error('STRIPE_SECRET_KEY and STRIPE_PRICES are required (got none).')
  process.exit(2)
}
const standIn = await startStripeStandIn({ secretKey, prices, port: Number(process.env.PORT ?? 0) })
console.log(`Stripe stand-in on ${standIn.url}`)
const stop = () => void standIn.close().then(() => process.exit(0))
process.on('SIGTERM', stop)
process.on('SIGINT', stop)
