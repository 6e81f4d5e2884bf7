// The worker role (`npm run worker`): runs background jobs (optimizations, imports, aero
// analyses, exports) from the shared PostgreSQL queue, with no API. It answers only a health
// endpoint on WORKER_PORT: GET /health (the process is up) and GET /ready (the database is
// reachable and migrated, the file storage usable, the job threads run; 503 names what is
// missing), for a process supervisor or a load balancer.
import { createServer, type Server } from 'node:http'
import { openDatabase } from '@veloptima/db'
import { buildApp } from './app.ts'
import { ConfigError, type Config } from './config.ts'
import { runEntry } from './entry.ts'
import { checkReadiness, type Readiness } from './routes/health/readiness.ts'
import { loadSessionTokens } from './services/session-token.ts'

/** `pollingIntervalSeconds`: the job workers' fallback poll (JobSystem.start; 2 s by default). */
export async function startWorker(
  config: Config,
  options: { pollingIntervalSeconds?: number } = {},
) {
  if (!config.DATABASE_URL) {
    throw new ConfigError([
      'DATABASE_URL: required by the worker role (it shares the job queue of PostgreSQL)',
    ])
  }
  if (config.JOB_WORKERS < 1) {
    throw new ConfigError(['JOB_WORKERS: expected at least 1 in the worker role, got 0'])
  }
  const database = await openDatabase({ driver: 'pg', url: config.DATABASE_URL })
  await database.migrate()
  // The job definitions and what they use (storage, notifications) come with the app's plugins;
  // the app is made ready but never listens.
  const sessionTokens = await loadSessionTokens(database, config.publicUrl)
  const app = await buildApp({ config, database, sessionTokens })
  await app.ready()
  await app.jobs.start({ workers: config.JOB_WORKERS, ...options })
  const health = await listenHealth(config, () =>
    checkReadiness({
      database,
      storage: app.files.storage,
      extra: {
        'job threads': async () =>
          (app.jobs.pool?.size ?? 0) > 0
            ? { ready: true }
            : { ready: false, problem: 'no job thread runs' },
      },
    }),
  )
  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= (async () => {
      await new Promise<void>((resolve) => {
        health.closeAllConnections()
        health.close(() => resolve())
      })
      await app.close()
      await database.close()
    })())
  return { app, database, health, close }
}

function listenHealth(config: Config, ready: () => Promise<Readiness>): Promise<Server> {
  const server = createServer((request, response) => {
    const send = (status: number, body: object) => {
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(JSON.stringify(body))
    }
    if (request.method !== 'GET') return send(405, { code: 'method-not-allowed' })
    if (request.url === '/health') return send(200, { status: 'ok', role: 'worker' })
    if (request.url === '/ready') {
      ready().then(
        ({ ready, body }) => send(ready ? 200 : 503, { ...body, role: 'worker' }),
        (error: unknown) =>
          send(503, { status: 'not-ready', role: 'worker', problems: [String(error)] }),
      )
      return
    }
    send(404, { code: 'not-found' })
  })
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(config.WORKER_PORT, config.BIND_ADDRESS, () => resolve(server))
  })
}

runEntry(import.meta.url, {
  start: (config) => startWorker(config),
  banner: (config) =>
    `Veloptima worker: ${config.JOB_WORKERS} job threads; health on http://${config.BIND_ADDRESS}:${config.WORKER_PORT}/health`,
  stopping: (signal) => `${signal}: stopping the worker…`,
})
