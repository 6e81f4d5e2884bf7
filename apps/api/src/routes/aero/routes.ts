import type { FastifyInstance } from 'fastify'
import { param, signedIn, uidOf } from '../platform-context.ts'

/** Runs and data blocks of aero sessions (sessions themselves are a collection). */
export async function aeroRoutes(app: FastifyInstance) {
  const auth = signedIn(app)
  const aero = app.platform.aero
  app.get('/aero-sessions/:id/runs', auth, async (request) =>
    aero.listRuns(uidOf(request), param(request, 'id'), request.query),
  )
  app.post('/aero-sessions/:id/runs', auth, async (request, reply) =>
    reply
      .status(201)
      .send(await aero.createRun(uidOf(request), param(request, 'id'), request.body ?? {})),
  )
  app.get('/aero-runs/:id', auth, async (request) =>
    aero.getRun(uidOf(request), param(request, 'id')),
  )
  app.patch('/aero-runs/:id', auth, async (request) =>
    aero.patchRun(uidOf(request), param(request, 'id'), request.body ?? {}),
  )
  app.delete('/aero-runs/:id', auth, async (request, reply) => {
    await aero.deleteRun(uidOf(request), param(request, 'id'))
    return reply.status(204).send()
  })
  app.get('/aero-sessions/:id/data-blocks', auth, async (request) =>
    aero.listBlocks(uidOf(request), param(request, 'id'), request.query),
  )
  app.post('/aero-sessions/:id/data-blocks', auth, async (request, reply) =>
    reply
      .status(201)
      .send(await aero.createBlock(uidOf(request), param(request, 'id'), request.body ?? {})),
  )
  app.get('/aero-data-blocks/:id', auth, async (request) =>
    aero.getBlock(uidOf(request), param(request, 'id')),
  )
  app.delete('/aero-data-blocks/:id', auth, async (request, reply) => {
    await aero.deleteBlock(uidOf(request), param(request, 'id'))
    return reply.status(204).send()
  })
}
