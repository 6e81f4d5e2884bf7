// A sent job wakes the workers of its queue: with their poll set to an hour, a run POSTed after
// the workers went to sleep can only start because the send woke them. In one process (the
// embedded database, or whichever DB_DRIVER names) and across pg-boss instances on PostgreSQL (an
// API without job threads, the worker role of worker.ts with its own connections), where the
// NOTIFY travels through the server; a LISTEN connection killed with pg_terminate_backend is
// opened again and the next run starts as well.
import pg from 'pg'
import { eq } from 'drizzle-orm'
import { afterAll, describe, expect, it } from 'vitest'
import { openDatabase, optimizationResults, type Database } from '@veloptima/db'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { loadSessionTokens } from '../src/services/session-token.ts'
import { startWorker } from '../src/worker.ts'
import { startTestApp, type TestApp } from './helpers.ts'
import { createUser, tempDir } from './files-helpers.ts'
import { createRunnable, eventually } from './runs-helpers.ts'
import { freePort } from './ports.ts'

/** Longer than any test here runs: a job that starts was not fetched by a poll. */
const POLL_S = 3600

type Caller = Pick<TestApp, 'app'> & { auth: { authorization: string } }

async function runToResult({ app, auth }: Caller, optimizationId: string) {
  const res = await app.inject({
    method: 'POST',
    url: `/api/optimizations/${optimizationId}/run`,
    headers: auth,
  })
  expect(res.statusCode).toBe(202)
  const { job_id } = res.json() as { job_id: string }
  return eventually(
    async () => {
      const job = (
        await app.inject({ method: 'GET', url: `/api/jobs/${job_id}`, headers: auth })
      ).json() as { state: string }
      if (job.state === 'failed') throw new Error(`the run failed: ${JSON.stringify(job)}`)
      return job.state === 'succeeded' && job
    },
    30_000,
    'the woken run',
  )
}

/** The workers' own fetch after a job (system.ts) has come back empty: they sleep out the poll. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 1000))

describe('a sent job wakes the workers of its queue (one process)', () => {
  let t: TestApp
  afterAll(() => t?.close())

  it('with an hour-long poll, runs POSTed one after the other each start and store a result', async () => {
    t = await startTestApp({ FILES_DIR: tempDir('wake') })
    await createUser(t.database, 'rider')
    const caller = { app: t.app, auth: await t.bearer({ uid: 'rider' }) }
    await t.app.jobs.start({ workers: 1, pollingIntervalSeconds: POLL_S })
    const { optimization } = await createRunnable(t.database.db, { ownerUid: 'rider' })
    for (let i = 0; i < 3; i++) {
      await settle()
      expect(await runToResult(caller, optimization.id)).toMatchObject({ state: 'succeeded' })
    }
    const results = await t.database.db
      .select({ status: optimizationResults.status })
      .from(optimizationResults)
      .where(eq(optimizationResults.optimizationId, optimization.id))
    expect(results.map((r) => r.status)).toEqual(['succeeded', 'succeeded', 'succeeded'])
  })
})

const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
const reachable = await (async () => {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 2000 })
  try {
    await client.connect()
    await client.end()
    return true
  } catch {
    return false
  }
})()

describe.skipIf(!reachable)(
  reachable
    ? 'a sent job wakes the workers of another pg-boss instance (PostgreSQL)'
    : `a sent job wakes the workers of another pg-boss instance: skipped, no PostgreSQL at ${adminUrl}`,
  () => {
    const name = `vt_wake_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    const admin = new pg.Client({ connectionString: adminUrl })
    let apiDatabase: Database | undefined
    let api: Awaited<ReturnType<typeof buildApp>> | undefined
    let worker: Awaited<ReturnType<typeof startWorker>> | undefined

    afterAll(async () => {
      await worker?.close()
      await api?.close()
      await apiDatabase?.close()
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    })

    /** The pg-boss LISTEN connections on the test's database (both instances'). */
    const listeners = async () =>
      (
        await admin.query<{ pid: number }>(
          `select pid from pg_stat_activity
            where datname = $1 and application_name = 'pgboss'
              and (query like 'LISTEN %' or query like '%pg_listening_channels%')`,
          [name],
        )
      ).rows.map((r) => r.pid)

    it('an API without job threads sends, the worker role starts it; after its LISTEN connection is killed, again', async () => {
      await admin.connect()
      await admin.query(`CREATE DATABASE ${name}`)
      const env = {
        LOG_LEVEL: 'silent',
        DATA_DIR: tempDir('wake-pg'),
        FILES_DIR: tempDir('wake-pg-files'),
        WEATHER_PROVIDER: 'none',
        DATABASE_URL: url.toString(),
      }
      // The worker role as `npm run worker` starts it, with one job thread and the long poll.
      worker = await startWorker(
        loadConfig({ ...env, JOB_WORKERS: '1', WORKER_PORT: String(await freePort()) }),
        { pollingIntervalSeconds: POLL_S },
      )
      // The API: its own pg-boss (sending only) and its own pool.
      apiDatabase = await openDatabase({ driver: 'pg', url: url.toString(), maxConnections: 3 })
      const config = loadConfig({ ...env, JOB_WORKERS: '0' })
      const sessionTokens = await loadSessionTokens(apiDatabase, config.publicUrl)
      api = await buildApp({ config, database: apiDatabase, sessionTokens })
      await api.ready()
      await createUser(apiDatabase, 'rider')
      const { token } = await sessionTokens.sign({
        uid: 'rider',
        email: 'rider@example.com',
        displayName: 'rider',
        claims: { 'create:simulations': true },
      })
      const caller = { app: api, auth: { authorization: `Bearer ${token}` } }
      const { optimization } = await createRunnable(apiDatabase.db, { ownerUid: 'rider' })

      // The API process has no job threads: only the worker role can have run it.
      expect(api.jobs.pool).toBeUndefined()
      await settle()
      expect(await runToResult(caller, optimization.id)).toMatchObject({ state: 'succeeded' })

      const before = await listeners()
      expect(before.length).toBeGreaterThan(0)
      for (const pid of before) {
        await admin.query('select pg_terminate_backend($1)', [pid])
      }
      // pg-boss opens each again (a new backend) and fetches what was sent meanwhile.
      await eventually(
        async () => {
          const now = await listeners()
          return now.length >= before.length && now.every((pid) => !before.includes(pid))
        },
        30_000,
        'the LISTEN connections opened again',
      )
      await settle()
      expect(await runToResult(caller, optimization.id)).toMatchObject({ state: 'succeeded' })
    })
  },
)
