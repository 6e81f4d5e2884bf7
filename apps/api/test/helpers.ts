// Integration-test helpers: a real app on a fresh migrated database (PGlite or PostgreSQL,
// by DB_DRIVER), and session tokens for made-up callers.
import type { FastifyInstance } from 'fastify'
import { openTestDatabase } from '@veloptima/db/testing'
import type { Database } from '@veloptima/db'
import { buildApp } from '../src/app.ts'
import { loadConfig } from '../src/config.ts'
import { loadSessionTokens, type SessionUser } from '../src/services/session-token.ts'

export type TestApp = {
  app: FastifyInstance
  database: Database
  /**
   * A bearer header for a caller (the user row is not created). Without `claims`, the caller holds
   * both product claims (a subscriber of the aero plan); pass `claims: {}` for one without any.
   */
  bearer(user: Partial<SessionUser> & { uid: string }): Promise<{ authorization: string }>
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
  return {
    app,
    database,
    async bearer(user) {
      const { token } = await sessionTokens.sign({
        email: `${user.uid}@example.com`,
        displayName: user.uid,
        claims: { 'create:simulations': true, 'access:aerooptimization': true },
        ...user,
      })
      return { authorization: `Bearer ${token}` }
    },
    async close() {
      await app.close()
      await database.close()
    },
  }
}
