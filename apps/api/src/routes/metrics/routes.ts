import { timingSafeEqual } from 'node:crypto'
import type { FastifyPluginAsync, FastifyRequest } from 'fastify'
import { operator } from '../../plugins/policy.ts'

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

function tokenMatches(request: FastifyRequest, token: string): boolean {
  const header = request.headers.authorization ?? ''
  const given = Buffer.from(header.startsWith('Bearer ') ? header.slice(7).trim() : '')
  const wanted = Buffer.from(token)
  return given.length === wanted.length && timingSafeEqual(given, wanted)
}

/**
 * May this caller read the metrics? With METRICS_TOKEN set: only with that bearer token.
 * Without: only a direct loopback connection that no proxy forwarded (a reverse proxy on the
 * same host connects from loopback too, but adds X-Forwarded-For).
 */
export function mayReadMetrics(request: FastifyRequest, token: string | undefined): boolean {
  if (token) return tokenMatches(request, token)
  const direct = !request.headers['x-forwarded-for'] && !request.headers.forwarded
  return direct && LOOPBACK.has(request.socket.remoteAddress ?? '')
}

/** GET /api/metrics: Prometheus text exposition of this instance (plugins/metrics.ts). */
export const metricsRoutes: FastifyPluginAsync = async (app) => {
  const access = operator(
    'METRICS_TOKEN bearer token, or a direct loopback connection without it',
    (request) => mayReadMetrics(request, app.deps.config.METRICS_TOKEN),
    'Metrics are served to loopback callers, or with the METRICS_TOKEN bearer token.',
  )
  app.get('/metrics', access, async (_request, reply) => {
    return reply.type(app.metrics.contentType).send(await app.metrics.metrics())
  })
}
