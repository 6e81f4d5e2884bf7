// Scale-out (issue 16): nginx (deploy/nginx.conf) in front of two API processes (`serve` role,
// JOB_WORKERS=0), two worker processes (`worker` role), one PostgreSQL database and one shared
// files directory — every process a real child process started by scripts/roles.mjs.
// Runs with DB_DRIVER=pg only (PGlite is one process by design); nginx is installed by
// `npm test` (scripts/services.mjs) or taken from NGINX_PATH / /usr/sbin/nginx.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { jobs, optimizations, users, type Database } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import { DEMO_PASSWORD } from '../src/idp/index.ts'
import { startCluster, startedJobs, type Cluster, type Proc } from './cluster.ts'
import { signInWithPassword, type FlowSettings } from './idp-flow.ts'
import { createRunnable, eventually, syntheticSegments, writtenBy } from './runs-helpers.ts'
import { SseClient } from './sse-client.ts'

const HEARTBEAT_S = 10 // JOB_HEARTBEAT_SECONDS's minimum
const JOBS = 40
const enabled = testDriver() === 'pg'
if (!enabled) {
  console.log(
    'multi-process.int.test.ts skipped: it needs PostgreSQL (DB_DRIVER=pg, TEST_DATABASE_URL); ' +
      'PGlite runs in one process.',
  )
}

/** 500 km of rolling road and two option groups: a job that runs for seconds. */
const LONG_EQUIPMENT = {
  equipment: {
    groups: [
      {
        name: 'wheels',
        options: [
          { name: 'box', cda_delta: 0, mass_delta: 0, crr_factor: 1 },
          { name: 'deep', cda_delta: -0.01, mass_delta: 0.3, crr_factor: 1 },
        ],
      },
      {
        name: 'helmet',
        options: [
          { name: 'road', cda_delta: 0, mass_delta: 0, crr_factor: 1 },
          { name: 'aero', cda_delta: -0.008, mass_delta: 0.1, crr_factor: 1 },
        ],
      },
    ],
  },
}

describe.skipIf(!enabled)('several processes behind nginx on one PostgreSQL', () => {
  let cluster: Cluster
  let database: Database
  let publicUrl = ''
  let workers: Proc[] = []
  let token = ''
  let uid = ''

  beforeAll(async () => {
    cluster = await startCluster({
      apis: 2,
      workers: 2,
      threads: 1,
      env: { JOB_HEARTBEAT_SECONDS: String(HEARTBEAT_S) },
    })
    ;({ database, publicUrl, workers } = cluster)
  }, 180_000)

  afterAll(() => cluster?.close(), 60_000)

  it('signs in through the balancer (identity provider and token exchange on either process)', async () => {
    const settings: FlowSettings = {
      issuer: cluster.issuer,
      clientId: 'veloptima-web',
      audience: `${publicUrl}/api`,
      redirectUri: `${publicUrl}/`,
    }
    const { tokens } = await signInWithPassword(settings, 'rider@example.com', DEMO_PASSWORD)
    if (!tokens?.access_token) throw new Error('no access token from the identity provider')
    const exchange = await fetch(`${publicUrl}/api/auth/custom-token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accessToken: tokens.access_token }),
    })
    expect(exchange.status).toBe(200)
    const body = (await exchange.json()) as { firebaseToken: string; user: { uid: string } }
    token = body.firebaseToken
    uid = body.user.uid
    // The session token opens the API on both processes (its keys are in the database).
    for (const port of cluster.apiPorts) {
      const me = await fetch(`http://127.0.0.1:${port}/api/users/${uid}`, {
        headers: { authorization: `Bearer ${token}` },
      })
      expect(me.status).toBe(200)
    }
    const [row] = await database.db.select().from(users).where(eq(users.uid, uid))
    expect(row?.email).toBe('rider@example.com')
  }, 60_000)

  it(`runs ${JOBS} optimizations queued through both API processes exactly once, on both workers; the live stream through nginx hears each`, async () => {
    expect(token).toBeTruthy()
    const live = await SseClient.open(`${publicUrl}/api/live?access_token=${token}`)
    expect(live.status).toBe(200)
    const auth = { authorization: `Bearer ${token}` }
    const queued: { jobId: string; resultId: string; via: number }[] = []
    for (let i = 0; i < JOBS; i++) {
      const { optimization } = await createRunnable(
        database.db,
        { ownerUid: uid },
        { constraint: { type: 'w_prime_balance' } },
        syntheticSegments(60),
      )
      // Alternately straight to each API process: both queue into the one database.
      const via = i % 2
      const res = await fetch(
        `http://127.0.0.1:${cluster.apiPorts[via]}/api/optimizations/${optimization.id}/run`,
        {
          method: 'POST',
          headers: auth,
        },
      )
      expect(res.status).toBe(202)
      const body = (await res.json()) as { job_id: string; result_id: string }
      queued.push({ jobId: body.job_id, resultId: body.result_id, via })
    }
    const ids = new Set(queued.map((q) => q.jobId))
    expect(ids.size).toBe(JOBS)
    // Done, read through the balancer.
    for (const q of queued) {
      const job = await eventually(
        async () => {
          const r = await fetch(`${publicUrl}/api/jobs/${q.jobId}`, { headers: auth })
          const j = (await r.json()) as { state: string; attempts: number }
          if (j.state === 'failed') throw new Error(`job ${q.jobId} failed: ${JSON.stringify(j)}`)
          return j.state === 'succeeded' && j
        },
        240_000,
        `job ${q.jobId}`,
      )
      expect(job.attempts).toBe(1)
      const written = await writtenBy(database.db, q.jobId, uid)
      expect(written.results).toHaveLength(1)
      expect(written.results[0]!.id).toBe(q.resultId)
      expect(written.notifications).toHaveLength(1)
    }
    // nginx spread the job polls over both API processes (each process's own request counter,
    // read straight from it: GET /api/metrics answers loopback callers).
    for (const port of cluster.apiPorts) {
      const text = await (await fetch(`http://127.0.0.1:${port}/api/metrics`)).text()
      const polls = text
        .split('\n')
        .filter((l) => l.startsWith('http_requests_total{') && l.includes('route="/api/jobs/:id"'))
        .reduce((sum, l) => sum + Number(l.split(' ').at(-1)), 0)
      expect(polls).toBeGreaterThan(JOBS / 8)
    }
    // Each attempt ran exactly once, somewhere; both workers took a fair share.
    const runs = workers.map((w) => startedJobs(w).filter((r) => ids.has(r.jobId!)))
    const all = runs.flat().map((r) => r.jobId!)
    expect(all.length).toBe(JOBS)
    expect(new Set(all).size).toBe(JOBS)
    for (const r of runs) expect(r.length).toBeGreaterThanOrEqual(JOBS / 8)
    // The stream on one API process heard the notification each job wrote on a worker process.
    await live.until(
      (events) =>
        queued.every((q) =>
          events.some((e) => e.event === 'notification' && e.data.includes(q.resultId)),
        ),
      30_000,
      'a notification per job on the live stream',
    )
    live.close()
  }, 400_000)

  it(`retries the job of a SIGKILLed worker on the other one within JOB_HEARTBEAT_SECONDS (${HEARTBEAT_S} s)`, async () => {
    const auth = { authorization: `Bearer ${token}` }
    // 500 km and four equipment combinations (as jobs-crash.int.test.ts): a job that runs for
    // seconds, so that its worker dies in the middle of it.
    const { optimization } = await createRunnable(
      database.db,
      { ownerUid: uid },
      LONG_EQUIPMENT,
      syntheticSegments(5000),
    )
    await database.db
      .update(optimizations)
      .set({ type: 'equipment' })
      .where(eq(optimizations.id, optimization.id))
    const res = await fetch(`${publicUrl}/api/optimizations/${optimization.id}/run`, {
      method: 'POST',
      headers: auth,
    })
    expect(res.status).toBe(202)
    const { job_id: jobId } = (await res.json()) as { job_id: string }
    const victim = await eventually(
      async () => workers.find((w) => startedJobs(w).some((r) => r.jobId === jobId)),
      60_000,
      'a worker to take the job',
    )
    const survivor = workers.find((w) => w !== victim)!
    victim.child.kill('SIGKILL')
    const killedAt = Date.now()
    const [atKill] = await database.db.select().from(jobs).where(eq(jobs.id, jobId))
    expect(atKill?.status).toBe('running')
    const retried = await eventually(
      async () => startedJobs(survivor).find((r) => r.jobId === jobId),
      60_000,
      'the retry on the other worker',
    ).catch(async (error: Error) => {
      // pg-boss's view of the job, to tell a missed heartbeat from a job that never started.
      const { sql } = await import('drizzle-orm')
      const found = await database.db.execute(
        sql`select state, retry_count, heartbeat_on, started_on, now() from pgboss.job where id = ${jobId}`,
      )
      throw new Error(`${error.message}: ${JSON.stringify((found as { rows?: unknown }).rows)}`)
    })
    const retryAfterS = (Date.now() - killedAt) / 1000
    console.log(
      `multi-process: job retried on the other worker ${retryAfterS.toFixed(1)} s after SIGKILL`,
    )
    expect(retried.attempt).toBe(2)
    // Stale JOB_HEARTBEAT_SECONDS after the last heartbeat, failed by the monitor pass that runs
    // every JOB_HEARTBEAT_SECONDS, retried after the queue's backoff (2–4 s), taken at the next
    // poll or NOTIFY (≤ 2 s): at most 2 × JOB_HEARTBEAT_SECONDS + 6 s, plus slack for this
    // loaded 2-core machine. (Before the monitor interval was set, it took over 60 s.)
    expect(retryAfterS).toBeLessThan(2 * HEARTBEAT_S + 10)
    const done = await eventually(
      async () => {
        const [row] = await database.db.select().from(jobs).where(eq(jobs.id, jobId))
        return row?.status === 'succeeded' && row
      },
      120_000,
      'the retried job to finish',
    )
    expect(done.attempts).toBe(2)
    const written = await writtenBy(database.db, jobId, uid)
    expect(written.results).toHaveLength(1)
    expect(written.notifications).toHaveLength(1)
  }, 240_000)
})
