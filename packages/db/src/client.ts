import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import type { PGlite } from '@electric-sql/pglite'
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite'
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres'
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator'
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator'
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core'
import { sql, type SQL } from 'drizzle-orm'
import pg from 'pg'
import * as schema from './schema/index.ts'
import { PgliteThread } from './pglite-thread-client.ts'

export type Schema = typeof schema
/** One type for both drivers: repositories are written once against it. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>

export const migrationsFolder = fileURLToPath(new URL('../drizzle', import.meta.url))

export type DatabaseOptions =
  | { driver: 'pglite'; dataDir?: string | undefined }
  | { driver: 'pg'; url: string; maxConnections?: number | undefined }

export type Database = {
  db: Db
  driver: 'pglite' | 'pg'
  /**
   * The embedded database (embedded mode only): PGlite in its own worker thread, reached through
   * query/exec/transaction/listen. pg-boss uses it through `fromPglite` (docs/decisions/0005).
   */
  pglite?: PgliteThread
  /** The node-postgres pool (server mode only). */
  pool?: pg.Pool
  /** Applies pending migrations; idempotent. */
  migrate(): Promise<void>
  /** Subscribes to NOTIFY on `channel`; returns the unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>
  /** Runs `SELECT 1` and checks that every migration is applied. */
  check(): Promise<{ reachable: boolean; migrated: boolean }>
  close(): Promise<void>
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.driver === 'pglite') return openPglite(options.dataDir)
  return openPg(options.url, options.maxConnections ?? 10)
}

async function openPglite(dataDir: string | undefined): Promise<Database> {
  if (dataDir) mkdirSync(dataDir, { recursive: true })
  // PGlite runs in a worker thread (docs/data.md): its queries never block this event loop. drizzle's
  // PGlite driver calls only query(sql, params, { rowMode, parsers }) and transaction(fn), which
  // the thread's client offers with PGlite's semantics.
  const thread = await PgliteThread.start(dataDir)
  const client = thread as unknown as PGlite
  const db = drizzlePglite({ client, schema }) as unknown as Db
  return {
    db,
    driver: 'pglite',
    pglite: thread,
    migrate: () => migratePglite(drizzlePglite({ client, schema }), { migrationsFolder }),
    listen: async (channel, onPayload) => {
      const unsubscribe = await thread.listen(channel, onPayload)
      return async () => unsubscribe()
    },
    check: () => checkDatabase(db),
    close: () => thread.close(),
  }
}

async function openPg(url: string, max: number): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max })
  pool.on('error', () => {
    // An idle client lost its connection; the pool replaces it on the next query.
  })
  const db = drizzlePg({ client: pool, schema }) as unknown as Db
  return {
    db,
    driver: 'pg',
    pool,
    migrate: () => migrateUnderLock(pool),
    listen: async (channel, onPayload) => {
      const client = await pool.connect()
      const handler = (msg: pg.Notification) => {
        if (msg.channel === channel) onPayload(msg.payload ?? '')
      }
      client.on('notification', handler)
      await client.query(`LISTEN "${channel.replaceAll('"', '""')}"`)
      return async () => {
        client.off('notification', handler)
        await client.query(`UNLISTEN "${channel.replaceAll('"', '""')}"`).catch(() => undefined)
        client.release()
      }
    },
    check: () => checkDatabase(db),
    close: () => pool.end(),
  }
}

/** Advisory-lock key of the migrations (any constant shared by every process of the product). */
export const MIGRATION_LOCK_KEY = 0x7e10_0001

/**
 * Applies the migrations while holding a session-level advisory lock, so that processes started
 * together on one database (several API processes and workers) migrate one after the other: the
 * first applies them, the others wait and find nothing left to do (drizzle's migrator alone
 * races: two processes both see a migration as pending and the loser fails on its CREATE).
 */
async function migrateUnderLock(pool: pg.Pool): Promise<void> {
  const client = await pool.connect()
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY])
    try {
      await migratePg(drizzlePg({ client, schema }), { migrationsFolder })
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY])
    }
  } finally {
    client.release()
  }
}

/**
 * Runs raw SQL and returns its rows, the same shape on both drivers. Cast counts and bigints in
 * SQL (`count(*)::int`): PGlite returns int8 as a number, node-postgres as a string.
 */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] }
  return result.rows
}

async function checkDatabase(db: Db): Promise<{ reachable: boolean; migrated: boolean }> {
  try {
    await db.execute(sql`select 1`)
  } catch {
    return { reachable: false, migrated: false }
  }
  try {
    const { readMigrationFiles } = await import('drizzle-orm/migrator')
    const expected = readMigrationFiles({ migrationsFolder }).length
    const [row] = await rows<{ n: number }>(
      db,
      sql`select count(*)::int as n from drizzle.__drizzle_migrations`,
    )
    const n = Number(row?.n ?? 0)
    return { reachable: true, migrated: n >= expected }
  } catch {
    return { reachable: true, migrated: false }
  }
}
