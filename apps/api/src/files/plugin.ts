import type { FastifyInstance } from 'fastify'
import { AeroAnalyses } from '../jobs/aero-analysis.ts'
import { OptimizationRuns } from '../jobs/optimization-run.ts'
import { JobSystem } from '../jobs/system.ts'
import { filesRoutes } from '../routes/files/routes.ts'
import { importRoutes } from '../routes/imports/routes.ts'
import { runsRoutes } from '../routes/runs/routes.ts'
import { FileService } from './service.ts'
import { loadDownloadSigner } from './signed-url.ts'
import { createStorage } from './create-storage.ts'
import { raceDayWeather } from '../weather/race-day.ts'
import { WeatherSource } from '../weather/source.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Stored files: uploads, exports, signed download links. */
    files: FileService
    /** Background jobs (pg-boss + worker threads); `start` it to run jobs in this process. */
    jobs: JobSystem
    /** Optimization runs: result versions computed by jobs. */
    runs: OptimizationRuns
  }
}

/**
 * Files and jobs: creates the storage backend and the services on the root instance (so that
 * every route and the job system share them) and registers their routes under /api.
 * The job system starts on demand (`app.jobs.start`, done by server.ts) and stops with the app.
 */
async function filesAndJobsPlugin(app: FastifyInstance) {
  const { config, database } = app.deps
  const storage = await createStorage(config)
  // A missing bucket is created here when the credentials allow it; else readiness says so.
  await storage.prepare(app.log)
  const signer = await loadDownloadSigner(
    database,
    config.publicUrl,
    config.DOWNLOAD_URL_TTL_SECONDS,
  )
  const files = new FileService(database, storage, signer)
  const jobs = new JobSystem(database, app.log, config.JOB_HEARTBEAT_SECONDS, {
    perUser: config.JOB_MAX_ACTIVE_PER_USER,
    perTeam: config.JOB_MAX_ACTIVE_PER_TEAM,
  })
  app.decorate('files', files)
  app.decorate('jobs', jobs)
  app.decorate(
    'runs',
    new OptimizationRuns(database.db, jobs, files, raceDayWeather(database.db, config)),
  )
  app.decorate(
    'aeroAnalyses',
    new AeroAnalyses(database.db, jobs, files, new WeatherSource(database.db, config)),
  )
  app.addHook('onClose', () => jobs.stop())
  await app.register(filesRoutes, { prefix: '/api' })
  await app.register(runsRoutes, { prefix: '/api' })
  await app.register(importRoutes, { prefix: '/api' })
}
// Decorations reach the root instance (what fastify-plugin does).
;(filesAndJobsPlugin as unknown as Record<symbol, boolean>)[Symbol.for('skip-override')] = true

export { filesAndJobsPlugin }
