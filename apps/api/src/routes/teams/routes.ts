import type { FastifyInstance } from 'fastify'
import { createMailer } from '../../idp/mail.ts'
import { callerOf } from '../../plugins/authenticate.ts'
import { InvitationService } from '../../services/teams.ts'
import { user, type TeamRole } from '../../plugins/policy.ts'
import { param, uidOf } from '../platform-context.ts'

/**
 * Teams (members only), their members (owners and admins manage), ownership transfer and
 * invitations by e-mail (a link, valid 7 days, for the invited address only).
 */
export async function teamsRoutes(app: FastifyInstance) {
  const auth = user()
  const team = (role: TeamRole) => user({ team: { param: 'id', role } })
  const teams = app.platform.teams
  const { config } = app.deps
  const log = (line: string) => app.log.warn(line)
  const invitations = new InvitationService({
    db: app.deps.database.db,
    teams,
    // The sender of the password-reset e-mails (SMTP_URL, SMTP_FROM).
    mailer: createMailer({ url: config.SMTP_URL, from: config.SMTP_FROM }, log),
    mails: Boolean(config.SMTP_URL),
    publicUrl: config.publicUrl,
    log,
  })

  app.get('/teams', auth, async (request) => teams.mine(uidOf(request)))
  app.post('/teams', auth, async (request, reply) =>
    reply.status(201).send(await teams.create(uidOf(request), request.body ?? {})),
  )
  app.get('/teams/:id', team('member'), async (request) =>
    teams.get(uidOf(request), param(request, 'id')),
  )
  app.patch('/teams/:id', team('admin'), async (request) =>
    teams.rename(uidOf(request), param(request, 'id'), request.body ?? {}),
  )
  app.delete('/teams/:id', team('owner'), async (request, reply) => {
    const uid = uidOf(request)
    const id = param(request, 'id')
    // The team's stored files go first (row and bytes); the cascade then takes everything else.
    for (const fileId of await teams.filesToDelete(uid, id)) await app.files.remove(uid, fileId)
    await teams.remove(uid, id)
    return reply.status(204).send()
  })
  app.get('/teams/:id/contents', team('member'), async (request) =>
    teams.contents(uidOf(request), param(request, 'id')),
  )
  app.post('/teams/:id/transfer', team('owner'), async (request) =>
    teams.transfer(uidOf(request), param(request, 'id'), request.body ?? {}),
  )
  app.get('/teams/:id/members', team('member'), async (request) =>
    teams.members(uidOf(request), param(request, 'id')),
  )
  app.post('/teams/:id/members', team('admin'), async (request, reply) =>
    reply
      .status(201)
      .send(await teams.addMember(uidOf(request), param(request, 'id'), request.body ?? {})),
  )
  app.patch('/teams/:id/members/:uid', team('admin'), async (request) =>
    teams.setRole(uidOf(request), param(request, 'id'), param(request, 'uid'), request.body ?? {}),
  )
  app.delete('/teams/:id/members/:uid', team('member'), async (request, reply) => {
    await teams.removeMember(uidOf(request), param(request, 'id'), param(request, 'uid'))
    return reply.status(204).send()
  })

  app.get('/teams/:id/invitations', team('admin'), async (request) =>
    invitations.list(uidOf(request), param(request, 'id')),
  )
  app.post('/teams/:id/invitations', team('admin'), async (request, reply) =>
    reply
      .status(201)
      .send(await invitations.create(callerOf(request), param(request, 'id'), request.body ?? {})),
  )
  app.delete('/teams/:id/invitations/:invitationId', team('admin'), async (request, reply) => {
    await invitations.revoke(uidOf(request), param(request, 'id'), param(request, 'invitationId'))
    return reply.status(204).send()
  })
  // The token travels in the body, not the URL, so that it stays out of request logs.
  app.post('/invitations/inspect', auth, async (request) =>
    invitations.inspect(callerOf(request), request.body ?? {}),
  )
  app.post('/invitations/accept', auth, async (request) =>
    invitations.accept(callerOf(request), request.body ?? {}),
  )
}
