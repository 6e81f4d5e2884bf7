import type { FastifyInstance } from 'fastify'
import multipart from '@fastify/multipart'
import { readUpload } from '../files/routes.ts'
import { CLAIMS, user } from '../../plugins/policy.ts'
import { param, uidOf } from '../platform-context.ts'

/** Runs and data blocks of aero sessions (sessions themselves are a collection). */
export async function aeroRoutes(app: FastifyInstance) {
  const auth = user({ claims: [CLAIMS.aero] })
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

  // Uploads and analysis versions (jobs). `app.aeroAnalyses` is decorated on the root with the
  // files and jobs, after these routes are declared: it is looked up when a request comes.
  app.get('/aero-sessions/:id/files', auth, async (request) =>
    app.aeroAnalyses.listSources(uidOf(request), param(request, 'id')),
  )
  app.get('/aero-sessions/:id/analyses', auth, async (request) =>
    app.aeroAnalyses.listVersions(uidOf(request), param(request, 'id')),
  )
  app.get('/aero-sessions/:id/analyses/:version', auth, async (request) =>
    app.aeroAnalyses.getVersion(uidOf(request), param(request, 'id'), param(request, 'version')),
  )
  app.post('/aero-sessions/:id/analyses', auth, async (request, reply) =>
    reply
      .status(202)
      .send(await app.aeroAnalyses.analyse(uidOf(request), param(request, 'id'), request.body)),
  )
  app.post('/aero-runs/:id/baseline', auth, async (request, reply) =>
    reply
      .status(202)
      .send(await app.aeroAnalyses.setBaseline(uidOf(request), param(request, 'id'))),
  )
  await app.register(async (uploads) => {
    await uploads.register(multipart)
    uploads.post('/aero-sessions/:id/files', auth, async (request, reply) => {
      const upload = await readUpload(request, app.deps.config.MAX_UPLOAD_BYTES)
      const result = await app.aeroAnalyses.upload(uidOf(request), param(request, 'id'), {
        filename: upload.filename,
        bytes: upload.bytes,
        configuration: upload.fields.configuration,
      })
      return reply.status(201).send(result)
    })
  })
}
