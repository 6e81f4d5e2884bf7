// API throughput: GET /api/rider-setups (a page of 20 of the caller's 50 setups, the list the
// riders screen shows) with 200 concurrent keep-alive connections from a loopback load
// generator in this process. Prints requests/s and latency percentiles; asserts nothing.
// Runs on embedded PGlite, and also on PostgreSQL when BENCH_DATABASE_URL is set
// (e.g. postgres://postgres:postgres@127.0.0.1:5432/postgres).
import http from 'node:http'
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

function load(port: number, path: string, authorization: string, seconds: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS })
  const latencies: number[] = []
  let errors = 0
  const until = performance.now() + seconds * 1000
  const one = () =>
    new Promise<void>((resolve) => {
      const t0 = performance.now()
      const req = http.request(
        { host: '127.0.0.1', port, path, agent, headers: { authorization } },
        (res) => {
          res.resume()
          res.on('end', () => {
            if (res.statusCode === 200) latencies.push(performance.now() - t0)
            else errors++
            resolve()
          })
        },
      )
      req.on('error', () => {
        errors++
        resolve()
      })
      req.end()
    })
  const worker = async () => {
    while (performance.now() < until) await one()
  }
  const started = performance.now()
  return Promise.all(Array.from({ length: CONNECTIONS }, worker)).then(() => {
    agent.destroy()
    const elapsed = (performance.now() - started) / 1000
    latencies.sort((a, b) => a - b)
    const q = (p: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? NaN
    return {
      requests: latencies.length,
      errors,
      rps: latencies.length / elapsed,
      p50: q(0.5),
      p99: q(0.99),
      max: latencies[latencies.length - 1] ?? NaN,
    }
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
