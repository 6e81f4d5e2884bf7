// Integration-test helpers: a real app on a fresh migrated database (PGlite or PostgreSQL,
// by DB_DRIVER), session tokens for made-up callers, and what a suite starts once for its tests.
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll } from 'vitest'
import { openTestDatabase } from '@veloptima/db/testing'
import type { Database } from '@veloptima/db'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { loadSessionTokens, type SessionUser } from '../src/services/session-token.ts'
import { createUser } from './files-helpers.ts'

export type TestApp = {
  app: FastifyInstance
  database: Database
  /**
   * A bearer header for a caller (the user row is not created). Without `claims`, the caller holds
   * both product claims (a subscriber of the aero plan); pass `claims: {}` for one without any.
   */
  bearer(user: Partial<SessionUser> & { uid: string }): Promise<{ authorization: string }>
  /** The caller's user row (made if missing) and a bearer header for them, as `bearer` makes it. */
  signIn(user: Partial<SessionUser> & { uid: string }): Promise<{ authorization: string }>
  close(): Promise<void>
}

export async function startTestApp(env: Record<string, string> = {}): Promise<TestApp> {
  const database = await openTestDatabase()
  // No test reaches the internet: the weather source is off unless the test points it at the
  // local Open-Meteo stand-in (WEATHER_PROVIDER, WEATHER_URL in `env`).
  const config = loadConfig({
    LOG_LEVEL: 'silent',
    DATA_DIR: '/tmp/veloptima-test',
    WEATHER_PROVIDER: 'none',
    ...env,
  })
  const sessionTokens = await loadSessionTokens(database, config.publicUrl)
  const app = await buildApp({ config, database, sessionTokens })
  await app.ready()
  const bearer: TestApp['bearer'] = async (user) => {
    const { token } = await sessionTokens.sign({
      email: `${user.uid}@example.com`,
      displayName: user.uid,
      claims: { 'create:simulations': true, 'access:aerooptimization': true },
      ...user,
    })
    return { authorization: `Bearer ${token}` }
  }
  return {
    app,
    database,
    bearer,
    async signIn(user) {
      await createUser(database, user.uid)
      return bearer(user)
    },
    async close() {
      await app.close()
      await database.close()
    },
  }
}

/** The app `t` with the stand-in server it talks to: closing it closes the app, then the stand-in. */
export function withStandIn<S extends { close(): Promise<void> }>(
  t: TestApp,
  standIn: S,
): TestApp & { standIn: S } {
  return {
    ...t,
    standIn,
    async close() {
      await t.close()
      await standIn.close()
    },
  }
}

/**
 * What `start` makes, started before the suite's tests and closed after them. The object returned
 * stands for the started one from the suite's first hook on; reading it earlier throws.
 */
export function forSuite<T extends object & { close(): Promise<void> }>(
  start: () => Promise<T>,
): T {
  let started: T | undefined
  beforeAll(async () => {
    started = await start()
  })
  afterAll(() => started?.close())
  return new Proxy({} as T, {
    get(_, key) {
      if (!started) throw new Error(`${String(key)} read before the suite started`)
      return Reflect.get(started, key)
    },
  })
}

/** A test app for the suite's tests (see startTestApp). */
export const suiteApp = (env: Record<string, string> = {}) => forSuite(() => startTestApp(env))

/** An empty, migrated database for the suite's tests. */
export const suiteDatabase = () => forSuite(openTestDatabase)
