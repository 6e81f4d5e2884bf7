// Starts the whole product in one process: database (PGlite or PostgreSQL), migrations,
// the API serving the built SPA, and (with the identity work) the embedded identity provider.
import { join } from 'node:path'
import { openDatabase } from '@veloptima/db'
import { buildApp } from './app.ts'
import { seedSampleCourses } from './routes/imports/samples.ts'
import type { Config } from './config.ts'
import { runEntry } from './entry.ts'
import { DEMO_ACCOUNTS, DEMO_PASSWORD, startEmbeddedIdp } from './idp/index.ts'
import { loadSessionTokens } from './services/session-token.ts'

export async function startServer(config: Config) {
  const database = config.DATABASE_URL
    ? await openDatabase({ driver: 'pg', url: config.DATABASE_URL })
    : await openDatabase({ driver: 'pglite', dataDir: join(config.dataDir, 'pglite') })
  await database.migrate()
  await seedSampleCourses(database)
  const sessionTokens = await loadSessionTokens(database, config.publicUrl)
  const app = await buildApp({ config, database, sessionTokens })
  await app.jobs.start({ workers: config.JOB_WORKERS })
  const idp = await startEmbeddedIdp(config, database, (line) => app.log.warn(line))
  await app.listen({ port: config.PORT, host: config.BIND_ADDRESS })
  let closing: Promise<void> | undefined
  const close = () =>
    (closing ??= (async () => {
      await idp?.close()
      await app.close()
      await database.close()
    })())
  return { app, database, idp, close }
}

runEntry(import.meta.url, {
  start: startServer,
  banner: (config, server) => {
    const where = config.DATABASE_URL ? 'PostgreSQL (DATABASE_URL)' : `PGlite in ${config.dataDir}`
    return [
      '',
      `  Veloptima is running at ${config.publicUrl}`,
      `  Database: ${where}`,
      ...(server.idp
        ? [
            `  Identity provider (embedded): ${server.idp.issuer}`,
            `  Demo sign-in (password ${DEMO_PASSWORD}): ${DEMO_ACCOUNTS.map((a) => a.email).join(', ')}`,
          ]
        : [`  Identity provider: ${config.AUTH_DOMAIN}`]),
      '  Press Ctrl-C to stop.',
      '',
    ].join('\n')
  },
  stopping: (signal) => `\n${signal}: stopping Veloptima…`,
})
