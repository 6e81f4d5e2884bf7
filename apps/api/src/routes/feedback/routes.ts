import type { FastifyInstance } from 'fastify'
import { feedbackCreateSchema, type Subscription } from '@veloptima/contracts'
import { callerOf } from '../../plugins/authenticate.ts'
import { subscriptionsOf } from '../../repositories/billing.ts'
import { insertFeedback } from '../../repositories/feedback.ts'
import { parse } from '../../services/validation.ts'
import { CLAIMS, user } from '../../plugins/policy.ts'
import { uidOf } from '../platform-context.ts'

/** The built-in feedback form, and the plans the caller holds. */
export async function feedbackRoutes(app: FastifyInstance) {
  const auth = user()
  const db = app.deps.database.db
  app.post('/feedback', user({ claims: [CLAIMS.betaFeedback] }), async (request, reply) => {
    const body = parse(feedbackCreateSchema, request.body ?? {})
    const caller = callerOf(request)
    const row = await insertFeedback(db, {
      uid: caller.uid,
      email: caller.email,
      text: body.text,
      rating: body.rating ?? null,
      page: body.page ?? null,
    })
    return reply.status(201).send({ id: row.id, created_at: row.createdAt.toISOString() })
  })
  app.get('/subscriptions', auth, async (request) => {
    const rows = await subscriptionsOf(db, uidOf(request))
    const items: Subscription[] = rows.map((s) => ({
      id: s.id,
      plan: s.plan,
      period: s.period,
      status: s.status,
      uid: s.uid,
      team_id: s.teamId,
      starts_at: s.startsAt.toISOString(),
      ends_at: s.endsAt.toISOString(),
    }))
    return { items, next_cursor: null }
  })
}
