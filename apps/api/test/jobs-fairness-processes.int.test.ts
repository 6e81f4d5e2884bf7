// Fair job order across processes (docs/limits-jobs.md): one API process and two worker processes
// on one PostgreSQL database, each worker fetching by turn with SKIP LOCKED. One account's backlog
// is being worked when another account queues one run: that run starts at the next free job slot
// of either process. Asserted on the order the jobs started, never on durations. PostgreSQL only
// (PGlite runs in one process).
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { asc, inArray } from 'drizzle-orm'
import { jobs, users, type Database } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import { startCluster, type Cluster } from './cluster.ts'
import { run } from './multi-process-helpers.ts'
import { allSucceeded, createRunnable, simulationsToken } from './runs-helpers.ts'

const enabled = testDriver() === 'pg'
if (!enabled) {
  console.log(
    'jobs-fairness-processes.int.test.ts skipped: it needs PostgreSQL (DB_DRIVER=pg, ' +
      'TEST_DATABASE_URL); PGlite runs in one process.',
  )
}

describe.skipIf(!enabled)('fair job order with two worker processes on one database', () => {
  let cluster: Cluster
  let database: Database
  const token: Record<string, string> = {}

  beforeAll(async () => {
    cluster = await startCluster({
      apis: 1,
      workers: 2,
      threads: 1,
      env: { JOB_MAX_ACTIVE_PER_USER: '50' },
    })
    database = cluster.database
    for (const uid of ['rider', 'coach']) {
      await database.db.insert(users).values({ uid, email: `${uid}@example.com`, displayName: uid })
      token[uid] = await simulationsToken(database, cluster.publicUrl, uid)
    }
  }, 240_000)
  afterAll(() => cluster?.close(), 60_000)

  it("starts the coach's run at the next free slot of either process, not after the rider's backlog", async () => {
    const api = `http://127.0.0.1:${cluster.apiPorts[0]}`
    const rider = await createRunnable(database.db, { ownerUid: 'rider' })
    const coach = await createRunnable(database.db, { ownerUid: 'coach' })
    const ids: string[] = []
    for (let i = 0; i < 12; i++)
      ids.push((await run(api, token.rider!, rider.optimization.id)).jobId)
    const coachJob = (await run(api, token.coach!, coach.optimization.id)).jobId
    const atQueue = await database.db
      .select({ startedAt: jobs.startedAt })
      .from(jobs)
      .where(inArray(jobs.id, ids))
    const riderStarted = atQueue.filter((r) => r.startedAt !== null).length
    const all = [...ids, coachJob]
    await allSucceeded(database.db, all, 240_000, 'every run')
    const order = (
      await database.db
        .select({ uid: jobs.requestedBy })
        .from(jobs)
        .where(inArray(jobs.id, all))
        .orderBy(asc(jobs.startedAt))
    ).map((r) => r.uid)
    // The rider's runs that had started, and at most one more per process (a fetch in flight
    // when the coach's run was admitted), went before the coach's.
    expect(order.indexOf('coach')).toBeLessThanOrEqual(riderStarted + 2)
    expect(riderStarted).toBeLessThan(8)
  }, 300_000)
})
