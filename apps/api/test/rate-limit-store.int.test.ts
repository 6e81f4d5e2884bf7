// The database-backed store of @fastify/rate-limit (routes/auth/rate-limit-store.ts): the
// counters every API process shares. Two apps on one database stand for two processes here;
// multi-process.int.test.ts checks the same limit across two real processes behind nginx.
import { setTimeout as sleep } from 'node:timers/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sql } from 'drizzle-orm'
import { rateLimits, type Database } from '@veloptima/db'
import { openTestDatabase } from '@veloptima/db/testing'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { countRequest, sweepRateLimits } from '../src/routes/auth/rate-limit-store.ts'
import { loadSessionTokens } from '../src/services/session-token.ts'
import { suiteDatabase } from './helpers.ts'

describe('rate-limit counters in the database', () => {
  const database = suiteDatabase()

  it('counts the requests of a fixed window and starts a new one after it ends', async () => {
    const first = await countRequest(database.db, 'k1', 800)
    expect(first.current).toBe(1)
    expect(first.ttl).toBeGreaterThan(0)
    expect(first.ttl).toBeLessThanOrEqual(800)
    expect((await countRequest(database.db, 'k1', 800)).current).toBe(2)
    expect((await countRequest(database.db, 'other', 800)).current).toBe(1)
    await sleep(900)
    const next = await countRequest(database.db, 'k1', 800)
    expect(next.current).toBe(1) // a new window
    expect(next.ttl).toBeGreaterThan(0)
  })

  it('loses no count between concurrent requests', async () => {
    const counted = await Promise.all(
      Array.from({ length: 20 }, () => countRequest(database.db, 'burst', 60_000)),
    )
    // Each request saw its own count: 1, 2, …, 20 in some order.
    expect(counted.map((c) => c.current).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    )
  })

  it('sweeps the counters whose window ended, and only those', async () => {
    await countRequest(database.db, 'short', 1)
    await countRequest(database.db, 'long', 60_000)
    await sleep(20)
    await sweepRateLimits(database.db)
    const keys = (await database.db.select({ key: rateLimits.key }).from(rateLimits)).map(
      (r) => r.key,
    )
    expect(keys).toContain('long')
    expect(keys).not.toContain('short')
  })
})

describe('POST /api/auth/custom-token limit shared by two apps on one database', () => {
  let database: Database
  const apps: Awaited<ReturnType<typeof buildApp>>[] = []
  beforeAll(async () => {
    database = await openTestDatabase()
    for (let i = 0; i < 2; i++) {
      const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: '/tmp/veloptima-test' })
      const sessionTokens = await loadSessionTokens(database, config.publicUrl)
      const app = await buildApp({ config, database, sessionTokens })
      await app.ready()
      apps.push(app)
    }
  })
  afterAll(async () => {
    for (const app of apps) await app.close()
    await database.close()
  })

  it('answers too-many-requests on either app after 60 exchanges a minute in all', async () => {
    const codes: string[] = []
    let retryAfter: unknown
    for (let i = 0; i < 61; i++) {
      const response = await apps[i % 2]!.inject({
        method: 'POST',
        url: '/api/auth/custom-token',
        payload: { accessToken: 'x.y.z' },
      })
      codes.push(response.json<{ code: string }>().code)
      retryAfter = response.headers['retry-after']
    }
    // The refusal says when to come back: Retry-After in seconds, within the minute's window.
    expect(Number(retryAfter)).toBeGreaterThanOrEqual(1)
    expect(Number(retryAfter)).toBeLessThanOrEqual(60)
    // 60 a minute per address: the route's limit (routes/auth/routes.ts, docs/limits-signin.md).
    expect(codes.slice(0, 60).every((c) => c === 'invalid-credential')).toBe(true)
    expect(codes[60]).toBe('too-many-requests')
    // One counter for the route and the address, not one per app.
    const rows = await database.db
      .select({ key: rateLimits.key, hits: rateLimits.hits })
      .from(rateLimits)
      .where(sql`${rateLimits.key} like '%/api/auth/custom-token|%'`)
    expect(rows).toEqual([{ key: 'POST /api/auth/custom-token|127.0.0.1', hits: 61 }])
  })
})
