// Prometheus metrics of one API instance: requests by route, event-loop delay, background jobs
// and the database pool. Each app has its own registry (tests build several apps per process).
import type { FastifyInstance } from 'fastify'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import { countActiveJobs } from '../routes/metrics/repository.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** The instance's metrics registry, rendered by GET /api/metrics. */
    metrics: Registry
  }
}

/** Request durations, s: 1 ms … 10 s (a list storm under load reaches 9.9 s). */
const BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]

/** Adds the registry and the request hook to the app (before its routes). */
export function registerMetrics(app: FastifyInstance) {
  const registry = new Registry()
  // Process figures and nodejs_eventloop_lag_{min,max,mean,p50,p90,p99}_seconds: prom-client
  // reads them from perf_hooks.monitorEventLoopDelay (10 ms resolution), reset at each scrape.
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 })

  const labelNames = ['method', 'route', 'status_code'] as const
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames,
    registers: [registry],
  })
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to the end of its answer, by route pattern.',
    labelNames,
    buckets: BUCKETS,
    registers: [registry],
  })
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      method: request.method,
      // The route pattern, never the raw URL (ids and query strings would grow without bound).
      route: request.routeOptions.url ?? '(no route)',
      status_code: String(reply.statusCode),
    }
    requests.inc(labels)
    durations.observe(labels, reply.elapsedTime / 1000)
  })

  const { database } = app.deps
  new Gauge({
    name: 'veloptima_jobs',
    help: 'Background jobs waiting (queued) or being worked on (running), from the jobs table.',
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      const found = await countActiveJobs(database.db)
      this.reset()
      this.set({ status: 'queued' }, 0)
      this.set({ status: 'running' }, 0)
      for (const r of found) this.set({ status: r.status }, Number(r.n))
    },
  })
  new Gauge({
    name: 'veloptima_job_workers',
    help: 'Worker threads of this process: configured size and busy now.',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const pool = app.hasDecorator('jobs') ? app.jobs.pool : undefined
      this.set({ state: 'size' }, pool?.size ?? 0)
      this.set({ state: 'busy' }, pool?.running().length ?? 0)
    },
  })
  new Gauge({
    name: 'veloptima_db_pool_connections',
    help: 'Database connections (PostgreSQL pool: total, idle, waiting clients; embedded PGlite: one connection).',
    labelNames: ['driver', 'state'] as const,
    registers: [registry],
    collect() {
      const driver = database.driver
      const pool = database.pool
      if (pool) {
        this.set({ driver, state: 'total' }, pool.totalCount)
        this.set({ driver, state: 'idle' }, pool.idleCount)
        this.set({ driver, state: 'waiting' }, pool.waitingCount)
      } else {
        this.set({ driver, state: 'total' }, 1)
      }
    },
  })

  app.decorate('metrics', registry)
  app.addHook('onClose', async () => registry.clear())
}
