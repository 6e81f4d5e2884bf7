// GET /api/metrics: Prometheus text of requests by route, event-loop delay, jobs and the
// database pool, served only to loopback callers (or with METRICS_TOKEN).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { jobs } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import { startTestApp, type TestApp, suiteApp } from './helpers.ts'

/** The value of one sample line `name{labels} value` of a Prometheus text exposition. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `))
  return line === undefined ? undefined : Number(line.slice(series.length + 1))
}

describe(`GET /api/metrics on ${testDriver()}`, () => {
  const t = suiteApp()

  const scrape = async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/metrics' })
    expect(res.statusCode).toBe(200)
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/)
    return res.body
  }

  it('counts requests by route pattern and status, with their durations', async () => {
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: '/api/health' })
    await t.app.inject({ method: 'GET', url: '/api/courses/00000000-0000-4000-8000-000000000000' })
    const text = await scrape()
    const health = '{method="GET",route="/api/health",status_code="200"}'
    expect(sample(text, `http_requests_total${health}`)).toBe(3)
    expect(sample(text, `http_request_duration_seconds_count${health}`)).toBe(3)
    // The pattern, not the id: one series whatever course is asked for.
    expect(text).toContain('route="/api/courses/:id",status_code="401"')
    expect(text).not.toContain('00000000-0000-4000-8000-000000000000')
  })

  it('reports the event-loop delay: a 300 ms block shows as a max lag of at least 0.25 s', async () => {
    await scrape() // resets the window
    await new Promise((r) => setTimeout(r, 50))
    const until = performance.now() + 300
    while (performance.now() < until) {
      // busy: the event loop cannot turn
    }
    await new Promise((r) => setTimeout(r, 50))
    const lag = sample(await scrape(), 'nodejs_eventloop_lag_max_seconds')
    expect(lag).toBeGreaterThanOrEqual(0.25)
  })

  it('reports queued and running jobs from the jobs table, and the database pool', async () => {
    expect(sample(await scrape(), 'veloptima_jobs{status="queued"}')).toBe(0)
    const uid = 'metrics-user'
    await t.database.db.execute(
      sql`insert into users (uid, email) values (${uid}, 'm@example.com')`,
    )
    await t.database.db.insert(jobs).values([
      { ownerUid: uid, kind: 'import', status: 'queued' },
      { ownerUid: uid, kind: 'import', status: 'queued' },
      { ownerUid: uid, kind: 'import', status: 'running' },
      { ownerUid: uid, kind: 'import', status: 'succeeded' },
    ])
    const text = await scrape()
    expect(sample(text, 'veloptima_jobs{status="queued"}')).toBe(2)
    expect(sample(text, 'veloptima_jobs{status="running"}')).toBe(1)
    const driver = t.database.driver
    expect(sample(text, `veloptima_db_pool_connections{driver="${driver}",state="total"}`)).toBe(
      driver === 'pg' ? t.database.pool!.totalCount : 1,
    )
  })

  it('refuses callers that are not on loopback or came through a proxy', async () => {
    const remote = await t.app.inject({
      method: 'GET',
      url: '/api/metrics',
      remoteAddress: '203.0.113.7',
    })
    expect(remote.statusCode).toBe(403)
    const proxied = await t.app.inject({
      method: 'GET',
      url: '/api/metrics',
      headers: { 'x-forwarded-for': '203.0.113.7' },
    })
    expect(proxied.statusCode).toBe(403)
  })
})

describe('GET /api/metrics with METRICS_TOKEN', () => {
  let t: TestApp
  const token = 'a-metrics-token-of-some-length'
  beforeAll(async () => {
    t = await startTestApp({ METRICS_TOKEN: token })
  })
  afterAll(() => t.close())

  it('answers only the bearer of the token, from anywhere', async () => {
    const get = (authorization?: string) =>
      t.app.inject({
        method: 'GET',
        url: '/api/metrics',
        remoteAddress: '203.0.113.7',
        headers: authorization ? { authorization } : {},
      })
    expect((await get()).statusCode).toBe(403)
    expect((await get(`Bearer ${token}x`)).statusCode).toBe(403)
    expect((await get(`Bearer ${token}`)).statusCode).toBe(200)
  })
})
