// A database that outlives one open/close, for restart and admin CLI tests: a PGlite data
// directory (DB_DRIVER=pglite) or a PostgreSQL database of its own (DB_DRIVER=pg).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { openDatabase, type Database } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'

export type PersistentDb = {
  dataDir: string
  /** Environment for a process (server or CLI) that should use this database. */
  env: Record<string, string>
  open(): Promise<Database>
  cleanup(): Promise<void>
}

export async function persistentDatabase(): Promise<PersistentDb> {
  const dataDir = mkdtempSync(join(tmpdir(), 'veloptima-persist-'))
  if (testDriver() === 'pglite') {
    return {
      dataDir,
      env: { DATA_DIR: dataDir },
      async open() {
        const d = await openDatabase({ driver: 'pglite', dataDir: join(dataDir, 'pglite') })
        await d.migrate()
        return d
      },
      async cleanup() {
        rmSync(dataDir, { recursive: true, force: true })
      },
    }
  }
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
  const name = `vp_${process.pid}_${Math.random().toString(36).slice(2, 10)}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  return {
    dataDir,
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    async open() {
      const d = await openDatabase({ driver: 'pg', url: url.toString(), maxConnections: 5 })
      await d.migrate()
      return d
    },
    async cleanup() {
      const c = new pg.Client({ connectionString: adminUrl })
      await c.connect()
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
      await c.end()
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}
