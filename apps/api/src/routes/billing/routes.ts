import type { FastifyInstance } from 'fastify'
import { callerOf } from '../../plugins/authenticate.ts'
import { BillingService } from '../../services/billing.ts'
import { open, user } from '../../plugins/policy.ts'
import { uidOf } from '../platform-context.ts'

/**
 * Subscriptions and payment (docs/billing.md): the public billing
 * configuration, Checkout and portal sessions, the caller's plans, a Checkout session's status,
 * and Stripe's webhook. Without STRIPE_SECRET_KEY and price ids only the configuration answers.
 */
export async function billingRoutes(app: FastifyInstance) {
  const auth = user()
  const billing = new BillingService(app.deps.database.db, app.deps.config, app.platform.teams)

  app.get('/billing/config', open('the prices on the pricing page'), async () =>
    billing.publicConfig(),
  )
  app.get('/billing/subscriptions', auth, async (request) => billing.list(uidOf(request)))
  app.post('/billing/checkout', auth, async (request) => {
    const caller = callerOf(request)
    return billing.checkout(caller.uid, caller.email || undefined, request.body ?? {})
  })
  app.post('/billing/portal', auth, async (request) =>
    billing.portal(uidOf(request), request.body ?? {}),
  )
  app.get('/billing/status', auth, async (request) =>
    billing.status(
      uidOf(request),
      String((request.query as { session_id?: string }).session_id ?? ''),
    ),
  )

  // Stripe signs the exact bytes it sent: this scope alone keeps JSON bodies raw.
  await app.register(async (hook) => {
    hook.removeContentTypeParser('application/json')
    hook.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) =>
      done(null, body),
    )
    hook.post('/billing/webhook', open('Stripe’s signature of the body'), async (request) => {
      const signature = request.headers['stripe-signature']
      return billing.webhook(
        request.body as Buffer,
        Array.isArray(signature) ? signature[0] : signature,
      )
    })
  })
}
