import type { FastifyInstance } from 'fastify'
import { filesRoutes } from '../routes/files/routes.ts'
import { FileService } from './service.ts'
import { loadDownloadSigner } from './signed-url.ts'
import { createStorage } from './storage.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Stored files: uploads, exports, signed download links. */
    files: FileService
  }
}

/**
 * Files and jobs: creates the storage backend and the services on the root instance (so that
 * every route and the job system share them) and registers their routes under /api.
 */
async function filesAndJobsPlugin(app: FastifyInstance) {
  const { config, database } = app.deps
  const storage = await createStorage(config)
  const signer = await loadDownloadSigner(
    database,
    config.publicUrl,
    config.DOWNLOAD_URL_TTL_SECONDS,
  )
  app.decorate('files', new FileService(database, storage, signer))
  await app.register(filesRoutes, { prefix: '/api' })
}
// Decorations reach the root instance (what fastify-plugin does).
;(filesAndJobsPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true

export { filesAndJobsPlugin }
