// The caps on unfinished jobs (docs/limits-jobs.md): one account may have JOB_MAX_ACTIVE_PER_USER
// jobs queued or running, one team's items JOB_MAX_ACTIVE_PER_TEAM; one more is refused with 429,
// a message naming the cap and Retry-After. Parallel submissions never exceed a cap. No worker
// runs here, so every admitted job stays queued and the counts are exact.
import { beforeAll, describe, expect, it } from 'vitest'
import { and, eq, inArray } from 'drizzle-orm'
import { files, jobs } from '@veloptima/db'
import { OPTIMIZATION_RUN } from '../src/jobs/optimization-run.ts'
import { type TestApp, suiteApp } from './helpers.ts'
import { createTeam, postFile, tempDir } from './files-helpers.ts'
import { createRunnable } from './runs-helpers.ts'

type Refusal = {
  code: string
  message: string
  details: { scope: string; limit: number; active: number; retry_after_s: number; team_id?: string }
}
type Answer = {
  statusCode: number
  headers: Record<string, unknown>
  json(): Refusal & { job_id: string }
}

const unfinished = (db: TestApp['database']['db'], where: ReturnType<typeof eq>) =>
  db
    .select({ id: jobs.id, status: jobs.status })
    .from(jobs)
    .where(and(where, inArray(jobs.status, ['queued', 'running'])))

describe('job caps: per account and per team, atomic, 429 with Retry-After', () => {
  const t = suiteApp({
    FILES_DIR: tempDir('jobs-limits'),
    JOB_MAX_ACTIVE_PER_USER: '10',
    JOB_MAX_ACTIVE_PER_TEAM: '4',
  })
  const auth: Record<string, { authorization: string }> = {}
  let teamId: string

  beforeAll(async () => {
    for (const uid of ['rider', 'coach', 'mate', 'aero']) auth[uid] = await t.signIn({ uid })
    teamId = (await createTeam(t.database, 'Club Rouleur', ['coach', 'mate'])).id
  }, 60_000)

  const post = (id: string, uid: string): Promise<Answer> =>
    t.app.inject({ method: 'POST', url: `/api/optimizations/${id}/run`, headers: auth[uid] })

  function expectRefusal(res: Answer, scope: 'user' | 'team', limit: number) {
    expect(res.statusCode).toBe(429)
    const body = res.json()
    expect(body.code).toBe('too-many-jobs')
    expect(body.details).toMatchObject({ scope, limit, active: limit })
    // Retry-After: delay-seconds (RFC 9110 §10.2.3), the same figure as the body's.
    const retryAfter = String(res.headers['retry-after'])
    expect(retryAfter).toMatch(/^[1-9][0-9]*$/)
    expect(Number(retryAfter)).toBe(body.details.retry_after_s)
    return body.message
  }

  it('admits exactly 10 of 30 parallel runs of one account; the others get 429 naming the cap', async () => {
    // Thirty optimizations: no two runs share a version number that would order them anyway.
    const ids: string[] = []
    for (let i = 0; i < 30; i++) {
      ids.push((await createRunnable(t.database.db, { ownerUid: 'rider' })).optimization.id)
    }
    const answers = await Promise.all(ids.map((id) => post(id, 'rider')))
    const accepted = answers.filter((a) => a.statusCode === 202)
    const refused = answers.filter((a) => a.statusCode !== 202)
    expect(accepted).toHaveLength(10)
    expect(refused).toHaveLength(20)
    for (const res of refused) {
      expect(expectRefusal(res, 'user', 10)).toBe(
        'You have 10 jobs queued or running (optimization runs and aero analyses), the most one ' +
          'account may have at once; wait for one to finish, or cancel one, then try again.',
      )
    }
    const rows = await unfinished(t.database.db, eq(jobs.requestedBy, 'rider'))
    expect(rows).toHaveLength(10)
    // pg-boss holds each admitted job, and only those.
    for (const a of accepted) {
      expect((await t.app.jobs.bossJob(OPTIMIZATION_RUN, a.json().job_id))?.state).toBe('created')
    }
  }, 60_000)

  it('admits the next run once one of the ten is cancelled', async () => {
    const { optimization } = await createRunnable(t.database.db, { ownerUid: 'rider' })
    expectRefusal(await post(optimization.id, 'rider'), 'user', 10)
    const [first] = await unfinished(t.database.db, eq(jobs.requestedBy, 'rider'))
    const cancel = await t.app.inject({
      method: 'POST',
      url: `/api/jobs/${first!.id}/cancel`,
      headers: auth.rider,
    })
    expect(cancel.statusCode).toBe(200)
    expect((await post(optimization.id, 'rider')).statusCode).toBe(202)
    expectRefusal(await post(optimization.id, 'rider'), 'user', 10)
  })

  it("refuses an aero upload at the account's cap before reading or storing the file", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/aero-sessions',
      headers: auth.aero,
      payload: { name: 'Test day', format: 'v6' },
    })
    expect(created.statusCode).toBe(201)
    const sessionId = created.json().id as string
    const { optimization } = await createRunnable(t.database.db, { ownerUid: 'aero' })
    const runs = await Promise.all(Array.from({ length: 10 }, () => post(optimization.id, 'aero')))
    expect(runs.map((r) => r.statusCode)).toEqual(Array(10).fill(202))
    const csv = 'secs,watts,km/h\n0,200,30\n1,200,30\n'
    const res = await postFile(
      t.app,
      `/api/aero-sessions/${sessionId}/files`,
      auth.aero,
      'test.csv',
      csv,
    )
    expectRefusal(res, 'user', 10)
    expect(await t.database.db.select().from(files).where(eq(files.ownerUid, 'aero'))).toEqual([])
  })

  it("caps a team's items at 4 unfinished jobs whoever queues them; personal items stay open", async () => {
    const { optimization } = await createRunnable(t.database.db, { ownerTeam: teamId })
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post(optimization.id, i % 2 ? 'coach' : 'mate')),
    )
    expect(answers.filter((a) => a.statusCode === 202)).toHaveLength(4)
    const refused = answers.filter((a) => a.statusCode !== 202)
    expect(refused).toHaveLength(8)
    for (const res of refused) {
      expect(expectRefusal(res, 'team', 4)).toBe(
        'The team “Club Rouleur” has 4 jobs queued or running, the most one team may have at ' +
          'once; wait for one of them to finish, then try again.',
      )
      expect(res.json().details.team_id).toBe(teamId)
    }
    expect(await unfinished(t.database.db, eq(jobs.ownerTeam, teamId))).toHaveLength(4)
    // The coach's own optimization is not the team's: the team's cap does not apply.
    const own = await createRunnable(t.database.db, { ownerUid: 'coach' })
    expect((await post(own.optimization.id, 'coach')).statusCode).toBe(202)
  }, 60_000)
})
