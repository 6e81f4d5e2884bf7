// Several processes started together on one fresh PostgreSQL database (npm run serve × 2 and
// npm run worker × 2) each apply the migrations at start. Without a lock, drizzle's
// migrator lets two of them both see a migration as pending, and the loser fails on its CREATE.
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { openDatabase } from '../src/client.ts'
import { testDriver } from '../src/testing.ts'

describe.skipIf(testDriver() !== 'pg')('migrations on PostgreSQL', () => {
  it('four clients migrating one fresh database at once all succeed, each migration applied once', async () => {
    const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
    const name = `vt_mig_${process.pid}_${Math.random().toString(36).slice(2, 8)}`
    const admin = new pg.Client({ connectionString: adminUrl })
    await admin.connect()
    await admin.query(`CREATE DATABASE ${name}`)
    const url = new URL(adminUrl)
    url.pathname = `/${name}`
    const databases = await Promise.all(
      [0, 1, 2, 3].map(() =>
        openDatabase({ driver: 'pg', url: url.toString(), maxConnections: 2 }),
      ),
    )
    try {
      const outcomes = await Promise.allSettled(databases.map((d) => d.migrate()))
      expect(outcomes.map((o) => o.status)).toEqual(Array(4).fill('fulfilled'))
      for (const d of databases)
        expect(await d.check()).toEqual({ reachable: true, migrated: true })
      const client = new pg.Client({ connectionString: url.toString() })
      await client.connect()
      const { rows } = await client.query<{ n: number; distinct_n: number }>(
        'select count(*)::int as n, count(distinct hash)::int as distinct_n from drizzle.__drizzle_migrations',
      )
      await client.end()
      expect(rows[0]!.n).toBe(rows[0]!.distinct_n)
    } finally {
      await Promise.all(databases.map((d) => d.close()))
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await admin.end()
    }
  })
})
