// Stripe events as the app's webhook receives them: a JSON body signed with the endpoint secret.
import type { FastifyInstance } from 'fastify'
import Stripe from 'stripe'

const sdk = new Stripe('sk_test_webhook')

/** The Stripe-Signature header of `payload` under the endpoint secret `secret`. */
export const webhookSignature = (payload: string, secret: string) =>
  sdk.webhooks.generateTestHeaderString({ payload, secret })

/** POSTs a JSON `payload` to the billing webhook with the Stripe-Signature `header`. */
export const postWebhook = (app: FastifyInstance, payload: string, header: string) =>
  app.inject({
    method: 'POST',
    url: '/api/billing/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': header },
    payload,
  })

/** POSTs `event` to the billing webhook, signed with `secret`. */
export function sendEvent(app: FastifyInstance, event: object, secret: string) {
  const payload = JSON.stringify(event)
  return postWebhook(app, payload, webhookSignature(payload, secret))
}
