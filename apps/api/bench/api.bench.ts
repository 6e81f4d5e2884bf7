// API under load: `npm run bench -- api`. autocannon on loopback, from child processes
// (autocannon-run.mjs) so the generator never shares the server's event loop; every run is
// bounded (BENCH_SECONDS, default 8 s, 50 connections). Prints req/s and p50/p99 latency for:
//   list   GET /api/courses?limit=50 with 135 real courses stored (the 6 courses of
//          real-world courses of scripts/test-data.ts, imported as the API does, repeated)
//   single GET /api/courses/:id (one course, track and segments included)
//   write  PATCH /api/rider-setups/:id (a rider-setup write)
//   storm  GET /api/health at 100 req/s while 50 connections hammer the list
//   big    the list again once the user owns BENCH_BIG_COURSES more (default 10 000, copies of the
//          smallest real course made in SQL): the first page, and a page 9 000 courses deep
//          reached by next_cursor (keyset order and owner scope use their indexes)
// on embedded PGlite, then on PostgreSQL when reachable: BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/postgres (trust auth); the bench creates and drops its
// own database there. Asserts nothing; the goals (docs/benchmarks.md) are read off the printed table. Each row
// also shows the machine's 1-minute load average when its run ended (other work on the machine
// shares the cores with the server and the load generator).
import { readdirSync, readFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import type { AddressInfo } from 'node:net'
import { fork } from 'node:child_process'
import pg from 'pg'
import { sql } from 'drizzle-orm'
import { courses, openDatabase, users, type Database } from '@veloptima/db'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { courseFromFile } from '../src/routes/imports/course-rows.ts'
import { loadSessionTokens } from '../src/services/session-token.ts'
import { needs } from '../../../scripts/test-data.ts'
import { cannon, CONNECTIONS, SECONDS, type Figures } from './measure.ts'

const COURSES = 135
/** BENCH_DRIVERS=pg (or pglite) measures one database only. */
const DRIVERS = (process.env.BENCH_DRIVERS ?? 'pglite,pg').split(',')
/** BENCH_SCENARIOS=list (or single, write, storm, comma-separated) runs those only. */
const SCENARIOS = (process.env.BENCH_SCENARIOS ?? 'list,single,write,storm,big').split(',')
const BIG_COURSES = Number(process.env.BENCH_BIG_COURSES ?? 10000)
const COURSE_DIR = new URL(`file://${needs('courses').path('courses')}/`)

/** The real course files, built once as POST /api/courses/import builds them. */
const built = readdirSync(COURSE_DIR)
  .filter((f) => f.endsWith('.gpx'))
  .sort()
  .flatMap((f) => {
    try {
      return [courseFromFile(readFileSync(new URL(f, COURSE_DIR)), f)]
    } catch {
      return [] // a file the importer refuses is not a course to store
    }
  })

async function scratchPg(adminUrl: string) {
  const name = `vbench_${process.pid}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: adminUrl })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
    },
  }
}

const rows: string[][] = []
const ms = (x: number) => x.toFixed(1)

function report(driver: string, scenario: string, r: Figures) {
  const bad = r.non2xx + r.errors
  const load = loadavg()[0]!.toFixed(1)
  const row = [
    driver,
    scenario,
    r.rps.toFixed(0),
    ms(r.p50),
    ms(r.p99),
    ms(r.max),
    String(bad),
    load,
  ]
  rows.push(row)
  process.send?.(row) // to the parent process when each database runs in its own (below)
  console.log(
    `${driver.padEnd(10)} ${scenario.padEnd(44)} ${r.rps.toFixed(0).padStart(6)} req/s  ` +
      `p50 ${ms(r.p50).padStart(6)} ms  p99 ${ms(r.p99).padStart(7)} ms  max ${ms(r.max)} ms  ` +
      `load ${load}` +
      (bad ? `  (${bad} failed)` : ''),
  )
}

async function bench(driver: string, database: Database) {
  await database.migrate()
  const config = loadConfig({
    // BENCH_LOG_LEVEL=info measures the logger `npm start` runs with (request lines stay off).
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'silent',
    DATA_DIR: '/tmp/veloptima-bench',
  })
  const sessionTokens = await loadSessionTokens(database, config.publicUrl)
  const app = await buildApp({ config, database, sessionTokens })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
  try {
    await database.db
      .insert(users)
      .values({ uid: 'bench', email: 'bench@example.com', displayName: 'Bench' })
    for (let i = 0; i < COURSES; i++) {
      const c = built[i % built.length]!
      await database.db.insert(courses).values({
        ownerUid: 'bench',
        name: `${c.name ?? 'Course'} ${i + 1}`,
        sourceFormat: c.format,
        track: c.track,
        segments: c.segments,
        stats: c.stats,
      })
    }
    const { token } = await sessionTokens.sign({
      uid: 'bench',
      email: 'bench@example.com',
      displayName: 'Bench',
      claims: { 'create:simulations': true },
    })
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
    const setup = await app.inject({
      method: 'POST',
      url: '/api/rider-setups',
      headers,
      payload: {
        name: 'Bench setup',
        rider_mass: 70,
        bike_mass: 8,
        positions: [{ name: 'drops', cda: 0.3, min_speed: 0, max_speed: 25 }],
        crr: { smooth: 0.003, normal: 0.004, rough: 0.006 },
        cp: 280,
        w_prime: 20000,
      },
    })
    if (setup.statusCode !== 201) throw new Error(`seeding failed: ${setup.body}`)
    const setupId = setup.json<{ id: string }>().id
    const list = await app.inject({ method: 'GET', url: '/api/courses?limit=50', headers })
    const page = list.json<{ items: { id: string }[] }>()
    if (page.items.length !== 50) throw new Error(`the list answered ${list.body.slice(0, 200)}`)
    const listUrl = `${base}/api/courses?limit=50`
    console.log(
      `${driver}: ${COURSES} courses stored, list page ${(list.body.length / 1024).toFixed(0)} KB`,
    )

    await cannon({ url: listUrl, headers, duration: 2 }) // warm-up
    if (SCENARIOS.includes('list')) {
      report(driver, 'GET /api/courses?limit=50', await cannon({ url: listUrl, headers }))
    }
    if (SCENARIOS.includes('single')) {
      report(
        driver,
        'GET /api/courses/:id (with track)',
        await cannon({ url: `${base}/api/courses/${page.items[0]!.id}`, headers }),
      )
    }
    if (SCENARIOS.includes('write')) {
      report(
        driver,
        'PATCH /api/rider-setups/:id',
        await cannon({
          url: `${base}/api/rider-setups/${setupId}`,
          method: 'PATCH',
          headers,
          body: JSON.stringify({ rider_mass: 71.5 }),
        }),
      )
    }
    if (SCENARIOS.includes('storm')) {
      const [storm, health] = await Promise.all([
        cannon({ url: listUrl, headers }),
        cannon({ url: `${base}/api/health`, connections: 2, overallRate: 100 }),
      ])
      report(driver, 'list storm (50 connections) …', storm)
      report(driver, '… GET /api/health meanwhile (100 req/s)', health)
    }
    if (SCENARIOS.includes('big')) await big(driver, database, base, headers)
  } finally {
    await app.close()
  }
}

/** The `big` scenario: the same list over a collection of BIG_COURSES more courses. */
async function big(
  driver: string,
  database: Database,
  base: string,
  headers: Record<string, string>,
) {
  // copies of the smallest real course (TT Beton: 161 KB of track and segments, stored
  // compressed out of line), made by the database itself
  const smallest = built.reduce((a, b) =>
    JSON.stringify(a.segments).length <= JSON.stringify(b.segments).length ? a : b,
  )
  const t0 = performance.now()
  await database.db.execute(sql`
    insert into courses (owner_uid, name, source_format, track, segments, stats)
    select 'bench', ${smallest.name ?? 'Course'} || ' copy ' || g, ${smallest.format},
      ${JSON.stringify(smallest.track)}::jsonb, ${JSON.stringify(smallest.segments)}::jsonb,
      ${JSON.stringify(smallest.stats)}::jsonb
    from generate_series(1, ${BIG_COURSES}) g`)
  await database.db.execute(sql`analyze courses`)
  const total = COURSES + BIG_COURSES
  console.log(
    `${driver}: ${total} courses stored (${BIG_COURSES} copies made in ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  )
  const listUrl = `${base}/api/courses?limit=50`
  report(
    driver,
    `GET /api/courses?limit=50 (${total} courses)`,
    await cannon({ url: listUrl, headers }),
  )
  // walk to a page 9 000 courses deep, as a client does, by next_cursor
  let cursor: string | null = null
  for (let seen = 0; seen < Math.min(9000, total - 50); seen += 50) {
    const url: string = cursor ? `${listUrl}&cursor=${encodeURIComponent(cursor)}` : listUrl
    const page = (await (await fetch(url, { headers })).json()) as { next_cursor: string | null }
    cursor = page.next_cursor
    if (!cursor) throw new Error(`the list ended after ${seen + 50} courses of ${total}`)
  }
  report(
    driver,
    `… a page 9 000 deep (by next_cursor)`,
    await cannon({ url: `${listUrl}&cursor=${encodeURIComponent(cursor!)}`, headers }),
  )
}

if (DRIVERS.length > 1 && !process.env.BENCH_ONE_DRIVER) {
  // each database in a process of its own, so that one run's heap, threads and pools do not weigh
  // on the other's figures (the PostgreSQL health p99 after PGlite in the same process: 24 ms,
  // alone: 7–13 ms); each child prints its rows as they come, the table is printed here
  for (const driver of DRIVERS) {
    const child = fork(process.argv[1]!, [], {
      env: { ...process.env, BENCH_DRIVERS: driver, BENCH_ONE_DRIVER: '1' },
      execArgv: process.execArgv,
    })
    child.on('message', (row) => rows.push(row as string[]))
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
    if (code) throw new Error(`the ${driver} bench exited with ${code}`)
  }
} else {
  if (DRIVERS.includes('pglite')) {
    // In its own worker thread (packages/db/src/pglite-thread.mjs), as `npm start` runs it.
    const database = await openDatabase({ driver: 'pglite' })
    try {
      await bench('PGlite', database)
    } finally {
      await database.close()
    }
  }

  const pgUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres'
  let scratch: Awaited<ReturnType<typeof scratchPg>> | undefined
  try {
    if (DRIVERS.includes('pg')) scratch = await scratchPg(pgUrl)
  } catch (error) {
    console.log(`(PostgreSQL not measured: ${pgUrl} is not reachable: ${String(error)})`)
  }
  if (scratch) {
    try {
      const database = await openDatabase({ driver: 'pg', url: scratch.url, maxConnections: 10 })
      try {
        await bench('PostgreSQL', database)
      } finally {
        await database.close()
      }
    } finally {
      await scratch.drop()
    }
  }
}

// the table once, by the process that ran every database (or the only one)
if (!process.send) {
  console.log(
    `\n| Database | Scenario (${CONNECTIONS} connections, ${SECONDS} s) | req/s | p50 ms | p99 ms | max ms | failed | load (1 min, ${cpus().length} CPUs) |`,
  )
  console.log('|---|---|---:|---:|---:|---:|---:|---:|')
  for (const r of rows) console.log(`| ${r.join(' | ')} |`)
}
// a child lets its parent go on
if (process.send) process.disconnect?.()
