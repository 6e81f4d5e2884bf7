// Fair order of jobs (docs/limits-jobs.md): workers take the queued jobs by turn, so one account's
// long queue does not hold back another account's job, and two long queues take turns. Asserted
// on the order in which the jobs started (the jobs table's started_at), never on durations.
import { afterEach, describe, expect, it } from 'vitest'
import { asc, eq, inArray } from 'drizzle-orm'
import { jobs } from '@veloptima/db'
import { startTestApp, type TestApp } from './helpers.ts'
import { tempDir } from './files-helpers.ts'
import { createRunnable, eventually, syntheticSegments } from './runs-helpers.ts'

let t: TestApp | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

async function appWith(users: string[]) {
  t = await startTestApp({ FILES_DIR: tempDir('jobs-fair'), JOB_MAX_ACTIVE_PER_USER: '50' })
  const auth: Record<string, { authorization: string }> = {}
  for (const uid of users) auth[uid] = await t.signIn({ uid })
  return { app: t, auth }
}

async function queue(t: TestApp, auth: { authorization: string }, optimizationId: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/optimizations/${optimizationId}/run`,
    headers: auth,
  })
  expect(res.statusCode, res.body).toBe(202)
  return res.json().job_id as string
}

/** Queues `n` runs of `optimizationId`, one after the other: their job ids. */
async function queueRuns(
  t: TestApp,
  auth: { authorization: string },
  optimizationId: string,
  n: number,
) {
  const ids: string[] = []
  for (let i = 0; i < n; i++) ids.push(await queue(t, auth, optimizationId))
  return ids
}

/** The requesters of the jobs in the order they started, once all have succeeded. */
async function startOrder(t: TestApp, ids: string[]) {
  await eventually(async () => {
    const rows = await t.database.db
      .select({ status: jobs.status })
      .from(jobs)
      .where(inArray(jobs.id, ids))
    return rows.every((r) => r.status === 'succeeded')
  }, 180_000)
  const rows = await t.database.db
    .select({ id: jobs.id, uid: jobs.requestedBy, startedAt: jobs.startedAt })
    .from(jobs)
    .where(inArray(jobs.id, ids))
    .orderBy(asc(jobs.startedAt))
  return rows.map((r) => r.uid!)
}

const longestStreak = (order: string[]) => {
  let longest = 0
  let streak = 0
  order.forEach((uid, i) => {
    streak = i > 0 && order[i - 1] === uid ? streak + 1 : 1
    longest = Math.max(longest, streak)
  })
  return longest
}

describe('fair job order: one account cannot hold back the others', () => {
  it("starts the coach's one run after at most one of the rider's twelve queued before it", async () => {
    const { app, auth } = await appWith(['rider', 'coach'])
    const short = syntheticSegments(20)
    const rider = await createRunnable(app.database.db, { ownerUid: 'rider' }, {}, short)
    const coach = await createRunnable(app.database.db, { ownerUid: 'coach' }, {}, short)
    const ids = await queueRuns(app, auth.rider!, rider.optimization.id, 12)
    const coachJob = await queue(app, auth.coach!, coach.optimization.id)
    // One worker thread, started once everything is queued: the order is the scheduler's alone.
    await app.app.jobs.start({ workers: 1 })
    const order = await startOrder(app, [...ids, coachJob])
    expect(order).toHaveLength(13)
    expect(order.indexOf('coach')).toBeLessThanOrEqual(1)
  }, 240_000)

  it('alternates two accounts that queued six runs each, one after the other', async () => {
    const { app, auth } = await appWith(['ann', 'ben'])
    const short = syntheticSegments(20)
    const ann = await createRunnable(app.database.db, { ownerUid: 'ann' }, {}, short)
    const ben = await createRunnable(app.database.db, { ownerUid: 'ben' }, {}, short)
    const ids = [
      ...(await queueRuns(app, auth.ann!, ann.optimization.id, 6)),
      ...(await queueRuns(app, auth.ben!, ben.optimization.id, 6)),
    ]
    await app.app.jobs.start({ workers: 1 })
    const order = await startOrder(app, ids)
    expect(order.filter((u) => u === 'ben')).toHaveLength(6)
    // Ben's first run is second, and neither account runs more than two in a row.
    expect(order.indexOf('ben')).toBeLessThanOrEqual(1)
    expect(longestStreak(order)).toBeLessThanOrEqual(2)
  }, 240_000)

  it("starts a run queued behind another account's running backlog within one job slot", async () => {
    const { app, auth } = await appWith(['rider', 'coach'])
    await app.app.jobs.start({ workers: 1 })
    // Long enough (200 segments) that the rider's queue is far from drained when the coach queues.
    const rider = await createRunnable(app.database.db, { ownerUid: 'rider' })
    const coach = await createRunnable(
      app.database.db,
      { ownerUid: 'coach' },
      {},
      syntheticSegments(20),
    )
    const ids = await queueRuns(app, auth.rider!, rider.optimization.id, 10)
    const coachJob = await queue(app, auth.coach!, coach.optimization.id)
    const running = await app.database.db
      .select({ startedAt: jobs.startedAt })
      .from(jobs)
      .where(inArray(jobs.id, ids))
    const riderStartedWhenCoachQueued = running.filter((r) => r.startedAt !== null).length
    const order = await startOrder(app, [...ids, coachJob])
    // The rider's runs that had started, and at most one more, went before the coach's.
    expect(order.indexOf('coach')).toBeLessThanOrEqual(riderStartedWhenCoachQueued + 1)
    expect(riderStartedWhenCoachQueued).toBeLessThan(8)
    const [coachRow] = await app.database.db.select().from(jobs).where(eq(jobs.id, coachJob))
    expect(coachRow!.status).toBe('succeeded')
  }, 240_000)
})
