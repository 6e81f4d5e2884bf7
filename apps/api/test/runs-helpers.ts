// Rows an optimization run needs (course, rider setup, optimization), made up for the tests.
import type { FastifyInstance } from 'fastify'
import { and, eq, inArray } from 'drizzle-orm'
import {
  courses,
  files,
  jobs,
  notifications,
  optimizationResults,
  optimizations,
  riderSetups,
  type CourseSegment,
  type Database,
  type Db,
} from '@veloptima/db'
import { loadSessionTokens } from '../src/services/session-token.ts'

/** A rolling synthetic course: `n` segments of 100 m, grades between −4 % and +6 %. */
export function syntheticSegments(n = 200): CourseSegment[] {
  let altitude = 300
  return Array.from({ length: n }, (_, i) => {
    const grade = 0.01 + 0.05 * Math.sin(i / 15)
    const segment: CourseSegment = {
      start: i * 100,
      end: (i + 1) * 100,
      grade,
      heading: (i * 3) % 360,
      radius: null,
      altitude,
    }
    altitude += grade * 100
    return segment
  })
}

export async function createRunnable(
  db: Db,
  owner: { ownerUid?: string; ownerTeam?: string },
  inputs: Record<string, unknown> = { constraint: { type: 'w_prime_balance' } },
  segments = syntheticSegments(),
) {
  const [course] = await db
    .insert(courses)
    .values({ ...owner, name: 'Rolling test course', segments, sourceFormat: 'json' })
    .returning()
  const [setup] = await db
    .insert(riderSetups)
    .values({
      ...owner,
      name: 'Test rider',
      riderMass: 70,
      bikeMass: 8,
      extraMass: 1,
      positions: [{ name: 'drops', cda: 0.3, min_speed: 0, max_speed: 30 }],
      crr: { smooth: 0.003, normal: 0.004, rough: 0.008 },
      cp: 280,
      wPrime: 20000,
      maxPower: 900,
    })
    .returning()
  const [optimization] = await db
    .insert(optimizations)
    .values({
      ...owner,
      type: 'pacing',
      name: 'Test pacing',
      courseId: course!.id,
      riderSetupId: setup!.id,
      inputs,
    })
    .returning()
  return { course: course!, setup: setup!, optimization: optimization! }
}

/** Everything a run may have written for a job: to check that it wrote each thing once. */
export async function writtenBy(db: Db, jobId: string, uid: string) {
  const results = await db
    .select()
    .from(optimizationResults)
    .where(eq(optimizationResults.jobId, jobId))
  const exportFiles = await db
    .select()
    .from(files)
    .where(eq(files.storageKey, `exports/${jobId}.csv`))
  const notes = await db
    .select()
    .from(notifications)
    .where(and(eq(notifications.uid, uid)))
  const [job] = await db.select().from(jobs).where(eq(jobs.id, jobId))
  const forResult = notes.filter(
    (n) => (n.data as { result_id?: string } | null)?.result_id === results[0]?.id,
  )
  return { results, exportFiles, notifications: forResult, job: job! }
}

/** The stored result row (its inputs snapshot and output) of id `resultId`. */
export async function storedResult(db: Db, resultId: string) {
  const [result] = await db
    .select()
    .from(optimizationResults)
    .where(eq(optimizationResults.id, resultId))
  return result!
}

/** Polls until `check` returns a value (or throws after `timeoutMs`). */
export async function eventually<T>(
  check: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
  what = 'condition',
): Promise<T> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = await check()
    if (value) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

/** Polls until every job of `jobIds` has succeeded; throws as soon as one has failed. */
export function allSucceeded(db: Db, jobIds: string[], timeoutMs: number, what: string) {
  return eventually(
    async () => {
      const rows = await db
        .select({ status: jobs.status })
        .from(jobs)
        .where(inArray(jobs.id, jobIds))
      const failed = rows.filter((r) => r.status === 'failed').length
      if (failed) throw new Error(`${failed} jobs failed`)
      return rows.every((r) => r.status === 'succeeded')
    },
    timeoutMs,
    what,
  )
}

/**
 * A session token for `uid` holding the simulations claim, signed with the keys stored in
 * `database` (the user row is not created): for an API that runs as its own process.
 */
export async function simulationsToken(
  database: Database,
  publicUrl: string,
  uid: string,
  displayName = uid,
) {
  const tokens = await loadSessionTokens(database, publicUrl)
  const { token } = await tokens.sign({
    uid,
    email: `${uid}@example.com`,
    displayName,
    claims: { 'create:simulations': true },
  })
  return token
}

/** The job once it has succeeded or failed, as GET /api/jobs/:id answers the caller (polled for a minute). */
export function settledJob(
  app: FastifyInstance,
  jobId: string,
  headers: { authorization: string },
) {
  return eventually(async () => {
    const job = (await app.inject({ method: 'GET', url: `/api/jobs/${jobId}`, headers })).json()
    return ['succeeded', 'failed'].includes(job.state) && job
  }, 60_000)
}

/** 500 km of rolling road and two option groups: a job that runs for seconds. */
export const LONG_EQUIPMENT = {
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
