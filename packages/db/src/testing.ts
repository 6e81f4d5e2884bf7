// Test helper: a fresh, migrated database for an integration test file, on the driver the
// suite runs against (DB_DRIVER=pglite, the default, or DB_DRIVER=pg with TEST_DATABASE_URL).
import pg from 'pg'
import { openDatabase, type Database } from './client.ts'

export function testDriver(): 'pglite' | 'pg' {
  return process.env.DB_DRIVER === 'pg' ? 'pg' : 'pglite'
}

/**
 * Opens an empty, migrated database. On PostgreSQL each call creates its own database
 * (dropped by `close`), so test files never see each other's rows.
 */
export async function openTestDatabase(): Promise<Database> {
  if (testDriver() === 'pglite') {
    const database = await openDatabase({ driver: 'pglite' })
    await database.migrate()
    return database
  }
  const adminUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
  const name = `vt_${process.pid}_${Math.random().toString(36).slice(2, 10)}`
  const admin = new pg.Client({ connectionString: adminUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  await admin.end()
  const url = new URL(adminUrl)
  url.pathname = `/${name}`
  const database = await openDatabase({ driver: 'pg', url: url.toString(), maxConnections: 5 })
  await database.migrate()
  const close = database.close
  database.close = async () => {
    await close()
    const dropper = new pg.Client({ connectionString: adminUrl })
    await dropper.connect()
    await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
    await dropper.end()
  }
  return database
}
