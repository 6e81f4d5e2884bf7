import type { FastifyInstance } from 'fastify'
import { callerOf } from '../../plugins/authenticate.ts'
import { user } from '../../plugins/policy.ts'
import { param } from '../platform-context.ts'

/** users/{uid} (own only), the trial, and the rider profile (keyed by uid). */
export async function usersRoutes(app: FastifyInstance) {
  const auth = user()
  const users = app.platform.users
  app.get('/users/:uid', auth, async (request) =>
    users.get(callerOf(request), param(request, 'uid')),
  )
  app.patch('/users/:uid', auth, async (request) =>
    users.patch(callerOf(request), param(request, 'uid'), request.body ?? {}),
  )
  app.post('/users/:uid/trial', auth, async (request) =>
    users.startTrial(callerOf(request), param(request, 'uid')),
  )
  app.get('/rider-profiles/:uid', auth, async (request) =>
    users.profile(callerOf(request), param(request, 'uid')),
  )
  app.put('/rider-profiles/:uid', auth, async (request) =>
    users.putProfile(callerOf(request), param(request, 'uid'), request.body ?? {}),
  )
}
