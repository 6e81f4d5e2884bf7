// Scale-out: `npm run bench -- scale`. Real processes behind nginx (test/cluster.ts,
// deploy/nginx.conf) on PostgreSQL (TEST_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/
// postgres; a scratch database per cluster). Prints, asserts nothing:
//   reads   GET /api/courses?limit=50 (135 stored real courses) through nginx with 1 and with 2
//           API processes: req/s and p99 (autocannon in its own process, BENCH_SECONDS, 50
//           connections, loopback only)
//   jobs    pacing optimizations of the 35 km Galibier course (a real-world file, scripts/test-data.ts) per minute
//           with 1 and with 2 worker processes (one job thread each), BENCH_GALIBIER_JOBS each
//   burst   BENCH_JOBS (default 200) short optimizations queued through both API processes and
//           run by 2 workers: each must finish exactly once with one result and one notification
import { readFileSync } from 'node:fs'
import { courses, users, type CourseSegment, type Database } from '@veloptima/db'
import { courseFromFile } from '../src/routes/imports/course-rows.ts'
import { startCluster, startedJobs } from '../test/cluster.ts'
import {
  allSucceeded,
  createRunnable,
  simulationsToken,
  syntheticSegments,
  writtenBy,
} from '../test/runs-helpers.ts'
import { needs } from '../../../scripts/test-data.ts'
import { cannon, CONNECTIONS, SECONDS } from './measure.ts'

process.env.DB_DRIVER = 'pg'
process.env.TEST_DATABASE_URL ??= 'postgres://postgres@127.0.0.1:5432/postgres'
const GALIBIER_JOBS = Number(process.env.BENCH_GALIBIER_JOBS ?? 12)
const BURST = Number(process.env.BENCH_JOBS ?? 200)
// One account queues every job at once: above the default cap of unfinished jobs per account.
const MANY_JOBS = { JOB_MAX_ACTIVE_PER_USER: '10000' }
const COURSES = 135
const COURSE_DIR = new URL(`file://${needs('courses').path('courses')}/`)
const galibier = courseFromFile(
  readFileSync(new URL('galibier-briancon.gpx', COURSE_DIR)),
  'galibier-briancon.gpx',
)

async function benchUser(database: Database, publicUrl: string) {
  await database.db
    .insert(users)
    .values({ uid: 'bench', email: 'bench@example.com', displayName: 'Bench' })
  return {
    authorization: `Bearer ${await simulationsToken(database, publicUrl, 'bench', 'Bench')}`,
  }
}

/** The ids of `n` new pacing optimizations of the bench user on `segments`. */
async function benchOptimizations(database: Database, n: number, segments: CourseSegment[]) {
  const ids: string[] = []
  for (let i = 0; i < n; i++) {
    const { optimization } = await createRunnable(
      database.db,
      { ownerUid: 'bench' },
      { constraint: { type: 'w_prime_balance' } },
      segments,
    )
    ids.push(optimization.id)
  }
  return ids
}

async function queue(base: string, auth: Record<string, string>, optimizationId: string) {
  const res = await fetch(`${base}/api/optimizations/${optimizationId}/run`, {
    method: 'POST',
    headers: auth,
  })
  if (res.status !== 202) throw new Error(`run: ${res.status} ${await res.text()}`)
  return ((await res.json()) as { job_id: string }).job_id
}

const waitAll = (database: Database, jobIds: string[]) =>
  allSucceeded(database.db, jobIds, 30 * 60_000, 'every job')

async function reads(apis: number) {
  const c = await startCluster({ apis, workers: 0 })
  try {
    const auth = await benchUser(c.database, c.publicUrl)
    for (let i = 0; i < COURSES; i++) {
      await c.database.db.insert(courses).values({
        ownerUid: 'bench',
        name: `${galibier.name ?? 'Course'} ${i + 1}`,
        sourceFormat: galibier.format,
        track: galibier.track,
        segments: galibier.segments,
        stats: galibier.stats,
      })
    }
    const url = `${c.publicUrl}/api/courses?limit=50`
    await cannon({ url, headers: auth, duration: 2 }) // warm-up
    return await cannon({ url, headers: auth })
  } finally {
    await c.close()
  }
}

async function galibierJobs(workers: number) {
  const c = await startCluster({ apis: 1, workers, threads: 1, env: MANY_JOBS })
  try {
    const auth = await benchUser(c.database, c.publicUrl)
    const [course] = await c.database.db
      .insert(courses)
      .values({
        ownerUid: 'bench',
        name: 'Galibier',
        sourceFormat: galibier.format,
        track: galibier.track,
        segments: galibier.segments,
        stats: galibier.stats,
      })
      .returning()
    const ids = await benchOptimizations(c.database, GALIBIER_JOBS, course!.segments)
    const t0 = performance.now()
    const jobIds = []
    for (const id of ids) jobIds.push(await queue(c.publicUrl, auth, id))
    await waitAll(c.database, jobIds)
    const minutes = (performance.now() - t0) / 60_000
    return GALIBIER_JOBS / minutes
  } finally {
    await c.close()
  }
}

async function burst() {
  const c = await startCluster({ apis: 2, workers: 2, threads: 1, env: MANY_JOBS })
  try {
    const auth = await benchUser(c.database, c.publicUrl)
    const optimizationIds = await benchOptimizations(c.database, BURST, syntheticSegments(60))
    const t0 = performance.now()
    const jobIds: string[] = []
    for (const [i, id] of optimizationIds.entries()) {
      const port = c.apiPorts[i % c.apiPorts.length]!
      jobIds.push(await queue(`http://127.0.0.1:${port}`, auth, id))
    }
    await waitAll(c.database, jobIds)
    const seconds = (performance.now() - t0) / 1000
    let wrong = 0
    for (const id of jobIds) {
      const w = await writtenBy(c.database.db, id, 'bench')
      if (w.results.length !== 1 || w.notifications.length !== 1) wrong++
    }
    const ids = new Set(jobIds)
    const perWorker = c.workers.map((w) => startedJobs(w).filter((r) => ids.has(r.jobId!)).length)
    const attempts = perWorker.reduce((a, b) => a + b, 0)
    return { seconds, wrong, perWorker, attempts }
  } finally {
    await c.close()
  }
}

const r1 = await reads(1)
const r2 = await reads(2)
console.log(
  `\nreads GET /api/courses?limit=50 through nginx, ${SECONDS} s, ${CONNECTIONS} connections`,
)
for (const [n, r] of [
  [1, r1],
  [2, r2],
] as const) {
  console.log(
    `  ${n} API process${n > 1 ? 'es' : '  '}: ${r.rps.toFixed(0)} req/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}, errors ${r.errors}`,
  )
}
console.log(`  ratio 2/1: ${(r2.rps / r1.rps).toFixed(2)}× req/s`)

const j1 = await galibierJobs(1)
const j2 = await galibierJobs(2)
console.log(`\njobs: ${GALIBIER_JOBS} pacing optimizations of the Galibier (35 km)`)
console.log(`  1 worker:  ${j1.toFixed(1)} jobs/min`)
console.log(`  2 workers: ${j2.toFixed(1)} jobs/min`)
console.log(`  ratio 2/1: ${(j2 / j1).toFixed(2)}×`)

const b = await burst()
console.log(`\nburst: ${BURST} optimizations through 2 API processes, 2 workers`)
console.log(
  `  ${b.seconds.toFixed(1)} s (${((BURST / b.seconds) * 60).toFixed(0)} jobs/min); attempts ${b.attempts} ` +
    `(per worker ${b.perWorker.join(' / ')}); jobs without exactly one result and notification: ${b.wrong}`,
)
