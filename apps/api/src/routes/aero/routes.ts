import type { FastifyInstance } from 'fastify'
import multipart from '@fastify/multipart'
import { readUpload } from '../files/routes.ts'
import { CLAIMS, user } from '../../plugins/policy.ts'
import { param, uidOf } from '../platform-context.ts'

/**
 * A kind of item of an aero session (runs, data blocks): listed and created under
 * `/aero-sessions/:id/<list>`, read, changed (when `calls.patch` is given) and deleted at
 * `/<item>/:id`.
 */
function sessionItemRoutes(
  app: FastifyInstance,
  auth: ReturnType<typeof user>,
  list: string,
  item: string,
  calls: {
    list: (uid: string, sessionId: string, query: unknown) => Promise<unknown>
    create: (uid: string, sessionId: string, body: unknown) => Promise<unknown>
    get: (uid: string, id: string) => Promise<unknown>
    patch?: (uid: string, id: string, body: unknown) => Promise<unknown>
    remove: (uid: string, id: string) => Promise<void>
  },
) {
  app.get(`/aero-sessions/:id/${list}`, auth, async (request) =>
    calls.list(uidOf(request), param(request, 'id'), request.query),
  )
  app.post(`/aero-sessions/:id/${list}`, auth, async (request, reply) =>
    reply
      .status(201)
      .send(await calls.create(uidOf(request), param(request, 'id'), request.body ?? {})),
  )
  app.get(`/${item}/:id`, auth, async (request) => calls.get(uidOf(request), param(request, 'id')))
  const patch = calls.patch
  if (patch) {
    app.patch(`/${item}/:id`, auth, async (request) =>
      patch(uidOf(request), param(request, 'id'), request.body ?? {}),
    )
  }
  app.delete(`/${item}/:id`, auth, async (request, reply) => {
    await calls.remove(uidOf(request), param(request, 'id'))
    return reply.status(204).send()
  })
}

/** Runs and data blocks of aero sessions (sessions themselves are a collection). */
export async function aeroRoutes(app: FastifyInstance) {
  const auth = user({ claims: [CLAIMS.aero] })
  const aero = app.platform.aero
  sessionItemRoutes(app, auth, 'runs', 'aero-runs', {
    list: (uid, sessionId, query) => aero.listRuns(uid, sessionId, query),
    create: (uid, sessionId, body) => aero.createRun(uid, sessionId, body),
    get: (uid, id) => aero.getRun(uid, id),
    patch: (uid, id, body) => aero.patchRun(uid, id, body),
    remove: (uid, id) => aero.deleteRun(uid, id),
  })
  sessionItemRoutes(app, auth, 'data-blocks', 'aero-data-blocks', {
    list: (uid, sessionId, query) => aero.listBlocks(uid, sessionId, query),
    create: (uid, sessionId, body) => aero.createBlock(uid, sessionId, body),
    get: (uid, id) => aero.getBlock(uid, id),
    remove: (uid, id) => aero.deleteBlock(uid, id),
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
        tyre: upload.fields.tyre,
      })
      return reply.status(201).send(result)
    })
  })
}
