// A run from the button to the stored result: `npm run bench -- jobs-runstart`. On embedded
// PGlite (DB_DRIVER=pg and TEST_DATABASE_URL for PostgreSQL), with the app's default 2 job
// threads, on a ~22 km climb at 10 m segments (the shared Mont Ventoux GPX imported through the
// API, or a synthetic 2,300-segment climb when the file is absent):
//   1. BENCH_RUNS (default 10) pacing runs one after the other without weather;
//   2. as many with an event start, the race-day forecast read from the local Open-Meteo stand-in
//      (its cache emptied before each run, so every run fetches);
//   3. 20 runs queued at once by 5 accounts (4 each), every one's wait and duration.
// "POST → stored" is from sending POST …/run to seeing the result row succeeded (read every
// 10 ms); "queued → started" and "started → finished" are the jobs row's own timestamps.
// Prints figures; asserts nothing.
import { readFileSync } from 'node:fs'
import { eq } from 'drizzle-orm'
import { optimizationResults, optimizations, weatherCache } from '@veloptima/db'
import { startTestApp } from '../test/helpers.ts'
import { createUser, postFile, tempDir } from '../test/files-helpers.ts'
import { createRunnable, eventually } from '../test/runs-helpers.ts'
import { startOpenMeteoStandIn } from '../src/weather/stand-in.ts'
import { dataFile } from '../../../scripts/test-data.ts'
import { jobTimes, pct } from './measure.ts'

const RUNS = Number(process.env.BENCH_RUNS ?? 10)
const driver = process.env.DB_DRIVER === 'pg' ? 'PostgreSQL' : 'PGlite'
const standIn = await startOpenMeteoStandIn()
const t = await startTestApp({
  FILES_DIR: tempDir('bench-runstart'),
  JOB_MAX_ACTIVE_PER_USER: '100',
  WEATHER_PROVIDER: 'open-meteo',
  WEATHER_URL: standIn.url,
})
const users = ['rider1', 'rider2', 'rider3', 'rider4', 'rider5']
const auth: Record<string, { authorization: string }> = {}
for (const uid of users) {
  await createUser(t.database, uid)
  auth[uid] = await t.bearer({ uid, claims: { 'create:simulations': true } })
}
await t.app.jobs.start({ workers: 2 })

/** A steady 7.5 % climb north from 44.17° N, 5.28° E: 2,300 segments of 10 m. */
function syntheticClimbGpx(): string {
  const points = Array.from({ length: 231 }, (_, i) => {
    const lat = 44.17 + (i * 100) / 111_195
    const ele = 300 + 7.5 * i + 20 * Math.sin(i / 9)
    return `<trkpt lat="${lat.toFixed(6)}" lon="5.280000"><ele>${ele.toFixed(1)}</ele></trkpt>`
  }).join('')
  return `<?xml version="1.0" encoding="UTF-8"?>\n<gpx version="1.1" creator="veloptima-bench" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>Synthetic climb</name><trkseg>${points}</trkseg></trk></gpx>`
}

const ventoux = dataFile('courses/mont-ventoux-bedoin.gpx')
const file = ventoux
  ? { name: 'mont-ventoux-bedoin.gpx', bytes: readFileSync(ventoux) }
  : { name: 'synthetic-climb.gpx', bytes: Buffer.from(syntheticClimbGpx()) }

const climbs: Record<string, { plain: string; raceDay: string }> = {}
let courseLabel = ''
for (const uid of users) {
  const imported = await postFile(t.app, '/api/courses/import', auth[uid], file.name, file.bytes)
  if (imported.statusCode !== 201)
    throw new Error(`import: ${imported.statusCode} ${imported.body}`)
  const course = imported.json() as {
    id: string
    segment_count: number
    stats: { distance: number }
  }
  courseLabel = `${file.name} (${(course.stats.distance / 1000).toFixed(1)} km, ${course.segment_count} segments)`
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10)
  const make = async (inputs: Record<string, unknown>) => {
    const { optimization } = await createRunnable(t.database.db, { ownerUid: uid }, inputs)
    await t.database.db
      .update(optimizations)
      .set({ courseId: course.id })
      .where(eq(optimizations.id, optimization.id))
    return optimization.id
  }
  climbs[uid] = {
    plain: await make({ constraint: { type: 'w_prime_balance' } }),
    raceDay: await make({
      constraint: { type: 'w_prime_balance' },
      environment: { event_start: `${tomorrow}T09:30` },
    }),
  }
}

async function post(uid: string, optimizationId: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/optimizations/${optimizationId}/run`,
    headers: auth[uid],
  })
  if (res.statusCode !== 202) throw new Error(`run: ${res.statusCode} ${res.body}`)
  return res.json().job_id as string
}

async function stored(jobId: string) {
  return eventually(
    async () => {
      const [row] = await t.database.db
        .select({ status: optimizationResults.status, result: optimizationResults.result })
        .from(optimizationResults)
        .where(eq(optimizationResults.jobId, jobId))
      if (row?.status === 'failed') throw new Error(`run ${jobId} failed`)
      return row?.status === 'succeeded' && row
    },
    600_000,
    'the stored result',
  )
}

const ms = (x: number) => `${Math.round(x)} ms`

async function series(label: string, optimizationId: string, fresh: boolean) {
  const totals: number[] = []
  const ids: string[] = []
  const asked: number[] = []
  const rounds: number[] = []
  for (let i = 0; i < RUNS; i++) {
    if (fresh) await t.database.db.delete(weatherCache)
    const before = standIn.requests.length
    const t0 = performance.now()
    const jobId = await post('rider1', optimizationId)
    const row = await stored(jobId)
    totals.push(performance.now() - t0)
    ids.push(jobId)
    asked.push(standIn.requests.length - before)
    const weather = (row.result as { weather?: { arrival?: { rounds?: unknown[] } } } | null)
      ?.weather
    if (weather?.arrival?.rounds) rounds.push(weather.arrival.rounds.length)
  }
  const times = await jobTimes(t.database.db, ids)
  console.log(
    `${driver}, ${label}: POST → stored p50 ${ms(pct(totals, 50))}, p90 ${ms(pct(totals, 90))} ` +
      `(min ${ms(Math.min(...totals))}, max ${ms(Math.max(...totals))}, ${RUNS} runs); ` +
      `queued → started p50 ${ms(
        pct(
          times.map((x) => x.waitMs),
          50,
        ),
      )}; ` +
      `started → finished p50 ${ms(
        pct(
          times.map((x) => x.runMs),
          50,
        ),
      )}` +
      (fresh
        ? `; forecast requests per run ${[...new Set(asked)].join('/')}; optimizations per run ${rounds.join(',')}`
        : ''),
  )
}

console.log(`${driver}: ${courseLabel}, 2 job threads`)
// Warm-up: the job threads start and load the engine.
await stored(await post('rider1', climbs.rider1!.plain))
await series('without weather', climbs.rider1!.plain, false)
await series('race-day forecast (stand-in)', climbs.rider1!.raceDay, true)

// 20 runs queued at once by 5 accounts, 4 each (without weather).
const t0 = performance.now()
const queued = await Promise.all(
  users.flatMap((uid) => Array.from({ length: 4 }, () => post(uid, climbs[uid]!.plain))),
)
for (const id of queued) await stored(id)
const allS = (performance.now() - t0) / 1000
const times = await jobTimes(t.database.db, queued)
times.sort((a, b) => a.waitMs - b.waitMs)
console.log(`${driver}: 20 runs queued at once by 5 accounts → all stored in ${allS.toFixed(1)} s`)
console.log('account  queued → started  started → finished  queued → finished')
for (const r of times) {
  console.log(
    `${r.uid.padEnd(7)}  ${ms(r.waitMs).padStart(16)}  ${ms(r.runMs).padStart(18)}  ${ms(r.totalMs).padStart(17)}`,
  )
}
const waits = times.map((r) => r.waitMs)
console.log(
  `waits p50 ${ms(pct(waits, 50))}, p95 ${ms(pct(waits, 95))}, max ${ms(Math.max(...waits))}; ` +
    `each account's first start: ${users
      .map((uid) => ms(Math.min(...times.filter((r) => r.uid === uid).map((r) => r.waitMs))))
      .join(', ')}`,
)
await t.close()
await standIn.close()
