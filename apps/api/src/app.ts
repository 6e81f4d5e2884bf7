import { existsSync } from 'node:fs'
import { join } from 'node:path'
import Fastify, { LogController, type FastifyInstance } from 'fastify'
import fastifyStatic from '@fastify/static'
import type { Database } from '@veloptima/db'
import type { Config } from './config.ts'
import { AppError } from './errors.ts'
import { registerAuthentication } from './plugins/authenticate.ts'
import { registerPolicy } from './plugins/policy.ts'
import { registerJsonBody } from './plugins/json-body.ts'
import { filesAndJobsPlugin } from './files/plugin.ts'
import { healthRoutes } from './routes/health/routes.ts'
import { registerMetrics } from './plugins/metrics.ts'
import { registerSecurity } from './plugins/security.ts'
import { metricsRoutes } from './routes/metrics/routes.ts'
import { authRoutes } from './routes/auth/routes.ts'
import { publicConfigRoutes } from './routes/public-config/routes.ts'
import { platformRoutes } from './routes/platform.ts'
import type { SessionTokens } from './services/session-token.ts'

export type AppDeps = { config: Config; database: Database; sessionTokens: SessionTokens }

declare module 'fastify' {
  interface FastifyInstance {
    deps: AppDeps
  }
}

/** Builds the API (and the static SPA when it is built); does not listen. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps
  const app = Fastify({
    logger: config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL },
    logController: new LogController({ disableRequestLogging: !config.LOG_REQUESTS }),
    bodyLimit: 2 * 1024 * 1024,
    // Behind the balancers of TRUST_PROXY, request.ip is the client's (X-Forwarded-For).
    trustProxy: config.TRUST_PROXY ? config.TRUST_PROXY.split(',').map((a) => a.trim()) : false,
  })
  app.decorate('deps', deps)

  app.setErrorHandler((error, request, reply) => {
    if (error instanceof AppError) {
      if (error.headers) reply.headers(error.headers)
      return reply
        .status(error.status)
        .send({ code: error.code, message: error.message, details: error.details })
    }
    const err = error as { validation?: unknown; statusCode?: number; message: string }
    if (err.validation) {
      return reply.status(400).send({ code: 'invalid-request', message: err.message })
    }
    if (err.statusCode && err.statusCode < 500) {
      return reply.status(err.statusCode).send({ code: 'invalid-request', message: err.message })
    }
    request.log.error(error)
    return reply
      .status(500)
      .send({ code: 'internal', message: 'Something went wrong on our side.' })
  })

  registerAuthentication(app)
  registerPolicy(app)
  registerMetrics(app)
  await registerSecurity(app, config)
  registerJsonBody(app)
  await app.register(healthRoutes, { prefix: '/api' })
  await app.register(metricsRoutes, { prefix: '/api' })
  await app.register(authRoutes, { prefix: '/api' })
  await app.register(publicConfigRoutes, { prefix: '/api' })
  await app.register(platformRoutes, { prefix: '/api' })
  await app.register(filesAndJobsPlugin)

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/') || request.method !== 'GET') {
      return reply
        .status(404)
        .send({ code: 'not-found', message: `No route ${request.method} ${request.url}.` })
    }
    // A file the build does not have (favicon.ico, robots.txt, an old asset) is a real 404; only
    // the web app's own routes (no file extension) get its page.
    const last = request.url.split('?')[0]!.split('/').pop() ?? ''
    if (/\.[A-Za-z0-9]+$/.test(last)) {
      return reply
        .status(404)
        .type('text/plain')
        .send(`No file ${request.url.split('?')[0]}.`)
    }
    if (existsSync(join(config.webDistDir, 'index.html'))) {
      return reply.type('text/html').sendFile('index.html', config.webDistDir)
    }
    return reply
      .status(404)
      .type('text/plain')
      .send('The web app is not built: run `npm run build:web` (npm start does it).')
  })

  if (existsSync(config.webDistDir)) {
    await app.register(fastifyStatic, {
      root: config.webDistDir,
      wildcard: false,
      setHeaders: (res, path) => {
        if (path.endsWith('sw.js') || path.endsWith('index.html')) {
          res.header('cache-control', 'no-cache')
        } else if (path.includes('/assets/')) {
          res.header('cache-control', 'public, max-age=31536000, immutable')
        }
      },
    })
  }
  return app
}
