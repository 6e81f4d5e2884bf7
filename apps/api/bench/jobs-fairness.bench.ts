// Fair job order: `npm run bench -- jobs-fairness`. On the database DB_DRIVER names (PGlite by
// default; `DB_DRIVER=pg` uses TEST_DATABASE_URL), with BENCH_WORKERS job threads (default 2):
// one account queues BENCH_HEAVY optimization runs at once (default 100; the per-account cap is
// raised for it, to measure the order alone), then BENCH_LIGHT other accounts (default 9) queue
// one run each, one every BENCH_GAP_MS (default 3000) while that backlog is worked. Every run is
// the same pacing optimization (200 segments of 100 m). Prints, asserts nothing: each account's
// wait from queued to started (the jobs table's created_at → started_at), p50 / p95 / max.
import { inArray } from 'drizzle-orm'
import { jobs } from '@veloptima/db'
import { startTestApp } from '../test/helpers.ts'
import { createUser, tempDir } from '../test/files-helpers.ts'
import { createRunnable, eventually } from '../test/runs-helpers.ts'
import { jobTimes, pct } from './measure.ts'

const HEAVY = Number(process.env.BENCH_HEAVY ?? 100)
const LIGHT = Number(process.env.BENCH_LIGHT ?? 9)
const GAP_MS = Number(process.env.BENCH_GAP_MS ?? 3000)
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2)
const driver = process.env.DB_DRIVER === 'pg' ? 'PostgreSQL' : 'PGlite'

const t = await startTestApp({
  FILES_DIR: tempDir('bench-fair'),
  JOB_MAX_ACTIVE_PER_USER: String(HEAVY + 10),
})
const lights = Array.from({ length: LIGHT }, (_, i) => `light${i + 1}`)
const auth: Record<string, { authorization: string }> = {}
const optimizationOf: Record<string, string> = {}
for (const uid of ['heavy', ...lights]) {
  await createUser(t.database, uid)
  auth[uid] = await t.bearer({ uid })
  optimizationOf[uid] = (await createRunnable(t.database.db, { ownerUid: uid })).optimization.id
}
await t.app.jobs.start({ workers: WORKERS })

async function queue(uid: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/optimizations/${optimizationOf[uid]}/run`,
    headers: auth[uid],
  })
  if (res.statusCode !== 202) throw new Error(`${uid}: ${res.statusCode} ${res.body}`)
  return res.json().job_id as string
}

// Warm-up: the job threads start and load the engine before anything is measured.
const warm = await Promise.all(Array.from({ length: WORKERS }, () => queue('light1')))
const succeeded = async (ids: string[]) => {
  const rows = await t.database.db
    .select({ status: jobs.status })
    .from(jobs)
    .where(inArray(jobs.id, ids))
  return rows.every((r) => r.status === 'succeeded')
}
await eventually(() => succeeded(warm), 120_000)

const t0 = performance.now()
const ids = await Promise.all(Array.from({ length: HEAVY }, () => queue('heavy')))
const queuedS = (performance.now() - t0) / 1000
for (const uid of lights) {
  await new Promise((resolve) => setTimeout(resolve, GAP_MS))
  ids.push(await queue(uid))
}
await eventually(() => succeeded(ids), 1_800_000)
const totalS = (performance.now() - t0) / 1000

const times = await jobTimes(t.database.db, ids)
const waitS = (r: (typeof times)[number]) => r.waitMs / 1000
const runS = times.map((r) => r.runMs / 1000)
const cell = (x: number, width: number) => x.toFixed(1).padStart(width)
const line = (who: string, waits: number[]) =>
  [
    who.padEnd(22),
    String(waits.length).padStart(4),
    cell(pct(waits, 50), 10),
    cell(pct(waits, 95), 10),
    cell(Math.max(...waits), 5),
  ].join(' | ')

console.log(
  `${driver}, ${WORKERS} job threads: ${HEAVY} runs of one account queued in ${queuedS.toFixed(1)} s, ` +
    `then ${LIGHT} accounts one run each, every ${GAP_MS / 1000} s; all done in ${totalS.toFixed(0)} s; ` +
    `one run takes ${pct(runS, 50).toFixed(2)} s (p50 start → finish)`,
)
console.log('| account                | runs | wait p50 s | wait p95 s | max s |')
console.log('| ---------------------- | ---: | ---------: | ---------: | ----: |')
const lightWaits: number[] = []
for (const uid of ['heavy', ...lights]) {
  const waits = times.filter((r) => r.uid === uid).map(waitS)
  if (uid !== 'heavy') lightWaits.push(...waits)
  console.log(`| ${line(uid, waits)} |`)
}
console.log(`| ${line(`the ${LIGHT} one-run accounts`, lightWaits)} |`)
await t.close()
