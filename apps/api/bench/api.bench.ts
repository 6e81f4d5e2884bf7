// API throughput: GET /api/rider-setups (a page of 20 of the caller's 50 setups, the list the
// riders screen shows) with 200 concurrent keep-alive connections from a loopback load
// generator in a worker thread (load-worker.mjs). Prints requests/s and latency percentiles; asserts nothing.
// Runs on embedded PGlite, and also on PostgreSQL when BENCH_DATABASE_URL is set
// (e.g. postgres://postgres:postgres@127.0.0.1:5432/postgres).
import { Worker } from 'node:worker_threads'
import type { AddressInfo } from 'node:net'
import { users } from '@veloptima/db'
import { openDatabase, type Database } from '@veloptima/db'
import pg from 'pg'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { loadSessionTokens } from '../src/services/session-token.ts'

const CONNECTIONS = 200
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10)
const WARMUP_SECONDS = 2

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

type LoadResult = {
  requests: number
  errors: number
  rps: number
  p50: number
  p99: number
  max: number
}

function load(port: number, path: string, authorization: string, seconds: number) {
  return new Promise<LoadResult>((resolve, reject) => {
    const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), {
      workerData: { port, path, authorization, seconds, connections: CONNECTIONS },
    })
    worker.once('message', resolve)
    worker.once('error', reject)
  })
}

async function bench(label: string, database: Database) {
  await database.migrate()
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/tmp/veloptima-bench' })
  const sessionTokens = await loadSessionTokens(database, config.publicUrl)
  const app = await buildApp({ config, database, sessionTokens })
  await app.listen({ port: 0, host: '127.0.0.1' })
  const port = (app.server.address() as AddressInfo).port
  await database.db
    .insert(users)
    .values({ uid: 'bench', email: 'bench@example.com', displayName: 'Bench' })
    .onConflictDoNothing()
  const { token } = await sessionTokens.sign({
    uid: 'bench',
    email: 'bench@example.com',
    displayName: 'Bench',
    claims: {},
  })
  const authorization = `Bearer ${token}`
  for (let i = 0; i < 50; i++) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/rider-setups',
      headers: { authorization },
      payload: {
        name: `Setup ${i}`,
        rider_mass: 60 + i / 2,
        bike_mass: 8,
        positions: [{ name: 'drops', cda: 0.3, min_speed: 0, max_speed: 25 }],
        crr: { smooth: 0.003, normal: 0.004, rough: 0.006 },
      },
    })
    if (res.statusCode !== 201) throw new Error(`seeding failed: ${res.body}`)
  }
  const path = '/api/rider-setups?limit=20'
  await load(port, path, authorization, WARMUP_SECONDS)
  const r = await load(port, path, authorization, SECONDS)
  console.log(
    `${label.padEnd(22)} GET ${path}  ${CONNECTIONS} connections, ${SECONDS} s: ` +
      `${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms, ` +
      `max ${r.max.toFixed(1)} ms, ${r.requests} ok, ${r.errors} errors`,
  )
  await app.close()
}

await bench('PGlite (embedded)', await openDatabase({ driver: 'pglite' }))
const pgUrl = process.env.BENCH_DATABASE_URL
if (pgUrl) {
  const scratch = await scratchPg(pgUrl)
  try {
    const database = await openDatabase({ driver: 'pg', url: scratch.url, maxConnections: 10 })
    try {
      await bench('PostgreSQL 15 (pool 10)', database)
    } finally {
      await database.close()
    }
  } finally {
    await scratch.drop()
  }
} else {
  console.log('(set BENCH_DATABASE_URL to also measure against a PostgreSQL server)')
}
