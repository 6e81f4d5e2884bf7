// Jobs: how soon a queued run starts (pg-boss woken by LISTEN/NOTIFY), how long a run takes end to
// end (POST → succeeded, through a worker thread and the final transaction; polled every 100 ms),
// and how long reading a long FIT file takes in the import thread. Prints figures; asserts nothing.
// Runs on embedded PGlite (DB_DRIVER unset) or on PostgreSQL with DB_DRIVER=pg and
// TEST_DATABASE_URL (a server where a scratch database may be created).
import { readFileSync } from 'node:fs'
import { eq } from 'drizzle-orm'
import { jobs, optimizations } from '@veloptima/db'
import { startTestApp } from '../test/helpers.ts'
import { createUser, postFile, tempDir } from '../test/files-helpers.ts'
import { createRunnable, eventually, syntheticSegments } from '../test/runs-helpers.ts'
import { needs } from '../../../scripts/test-data.ts'

const RUNS = Number(process.env.BENCH_RUNS ?? 10)
const driver = process.env.DB_DRIVER === 'pg' ? 'PostgreSQL' : 'PGlite'
// The burst queues BENCH_BURST runs of one account at once: above the default cap per account.
const t = await startTestApp({ FILES_DIR: tempDir('bench-jobs'), JOB_MAX_ACTIVE_PER_USER: '10000' })
await createUser(t.database, 'bench')
const auth = await t.bearer({ uid: 'bench', claims: { 'create:simulations': true } })
await t.app.jobs.start({ workers: 2 })

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}

async function runOnce(optimizationId: string) {
  const t0 = performance.now()
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/optimizations/${optimizationId}/run`,
    headers: auth,
  })
  const jobId = res.json().job_id as string
  await eventually(async () => {
    const j = (
      await t.app.inject({ method: 'GET', url: `/api/jobs/${jobId}`, headers: auth })
    ).json()
    return j.state === 'succeeded'
  }, 120_000)
  const total = performance.now() - t0
  const [row] = await t.database.db.select().from(jobs).where(eq(jobs.id, jobId))
  return { total, wait: row!.startedAt!.getTime() - row!.createdAt.getTime() }
}

// 1. Queue wake-up and a short run (2 km, 20 segments of 100 m).
const short = await createRunnable(t.database.db, { ownerUid: 'bench' }, {}, syntheticSegments(20))
await runOnce(short.optimization.id) // warm-up: starts a worker thread
const waits: number[] = []
const totals: number[] = []
for (let i = 0; i < RUNS; i++) {
  const r = await runOnce(short.optimization.id)
  waits.push(r.wait)
  totals.push(r.total)
}
console.log(
  `${driver}: queued → started ${pct(waits, 50).toFixed(0)} ms median, ${pct(waits, 90).toFixed(0)} ms p90; ` +
    `POST → succeeded (2 km pacing run) ${pct(totals, 50).toFixed(0)} ms median, ${pct(totals, 90).toFixed(0)} ms p90 (${RUNS} runs)`,
)

// 2. Import Alpe d'Huez and run a pacing optimization on it.
const gpx = readFileSync(needs('courses/alpe-dhuez.gpx').path('courses/alpe-dhuez.gpx'))
let t0 = performance.now()
const alpe = await postFile(t.app, '/api/courses/import', auth, 'alpe-dhuez.gpx', gpx)
console.log(
  `${driver}: import alpe-dhuez.gpx (459 points) ${(performance.now() - t0).toFixed(0)} ms`,
)
const { optimization } = await createRunnable(t.database.db, { ownerUid: 'bench' })
await t.database.db
  .update(optimizations)
  .set({ courseId: alpe.json().id })
  .where(eq(optimizations.id, optimization.id))
const alpeRun = await runOnce(optimization.id)
console.log(
  `${driver}: Alpe d'Huez pacing run (${alpe.json().segment_count} segments) POST → succeeded ${alpeRun.total.toFixed(0)} ms`,
)

// 3. A 3 MB FIT file (180 km bike leg) read in the import thread.
const fit = readFileSync(
  needs('rides/ironman-multisport-2019.fit').path('rides/ironman-multisport-2019.fit'),
)
t0 = performance.now()
const ironman = await postFile(t.app, '/api/courses/import', auth, 'ironman.fit', fit)
console.log(
  `${driver}: import ironman-multisport-2019.fit (3.0 MB, ${Math.round(ironman.json().stats.distance / 1000)} km) ${(performance.now() - t0).toFixed(0)} ms`,
)
// 4. A burst: BURST short runs queued at once, on the 2 job threads; all succeeded after how long.
// (pg-boss sleeps out its poll between two jobs unless burstWhenReadyExceeds lets it fetch on.)
const BURST = Number(process.env.BENCH_BURST ?? 40)
const burstIds: string[] = []
for (let i = 0; i < BURST; i++) {
  const { optimization: o } = await createRunnable(
    t.database.db,
    { ownerUid: 'bench' },
    {},
    syntheticSegments(20),
  )
  burstIds.push(o.id)
}
t0 = performance.now()
const queued = await Promise.all(
  burstIds.map(async (id) => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/optimizations/${id}/run`,
      headers: auth,
    })
    return res.json().job_id as string
  }),
)
await eventually(async () => {
  const rows = await t.database.db.select({ id: jobs.id, status: jobs.status }).from(jobs)
  const done = new Set(rows.filter((r) => r.status === 'succeeded').map((r) => r.id))
  return queued.every((id) => done.has(id))
}, 600_000)
const burstS = (performance.now() - t0) / 1000
console.log(
  `${driver}: burst of ${BURST} short runs (2 km) queued at once → all succeeded in ${burstS.toFixed(1)} s, ` +
    `${((BURST / burstS) * 60).toFixed(0)} jobs/min on 2 job threads`,
)
await t.close()
