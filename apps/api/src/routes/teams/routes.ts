import type { FastifyInstance } from 'fastify'
import { param, signedIn, uidOf } from '../platform-context.ts'

/** Teams (members only) and their members (owners and admins manage). */
export async function teamsRoutes(app: FastifyInstance) {
  const auth = signedIn(app)
  const teams = app.platform.teams
  app.get('/teams', auth, async (request) => teams.mine(uidOf(request)))
  app.post('/teams', auth, async (request, reply) =>
    reply.status(201).send(await teams.create(uidOf(request), request.body ?? {})),
  )
  app.get('/teams/:id', auth, async (request) => teams.get(uidOf(request), param(request, 'id')))
  app.patch('/teams/:id', auth, async (request) =>
    teams.rename(uidOf(request), param(request, 'id'), request.body ?? {}),
  )
  app.delete('/teams/:id', auth, async (request, reply) => {
    await teams.remove(uidOf(request), param(request, 'id'))
    return reply.status(204).send()
  })
  app.get('/teams/:id/members', auth, async (request) =>
    teams.members(uidOf(request), param(request, 'id')),
  )
  app.post('/teams/:id/members', auth, async (request, reply) =>
    reply
      .status(201)
      .send(await teams.addMember(uidOf(request), param(request, 'id'), request.body ?? {})),
  )
  app.patch('/teams/:id/members/:uid', auth, async (request) =>
    teams.setRole(uidOf(request), param(request, 'id'), param(request, 'uid'), request.body ?? {}),
  )
  app.delete('/teams/:id/members/:uid', auth, async (request, reply) => {
    await teams.removeMember(uidOf(request), param(request, 'id'), param(request, 'uid'))
    return reply.status(204).send()
  })
}
