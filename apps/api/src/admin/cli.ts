// `npm run admin -- COMMAND`: administrator commands on the database the server uses.
// When a server runs on this DATA_DIR it sends the command there (DATA_DIR/admin.json): the
// embedded PGlite directory can only be open in one process. Otherwise it opens the database
// itself: DATABASE_URL's PostgreSQL, or the PGlite directory.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { openDatabase } from '@veloptima/db'
import { ConfigError, loadConfig } from '../config.ts'
import { AdminError, runAdminCommand, usage } from './commands.ts'
import { adminFile } from './endpoint.ts'

async function viaServer(file: string, argv: string[]): Promise<string[] | undefined> {
  let info: { url: string; secret: string; pid: number }
  try {
    info = JSON.parse(readFileSync(file, 'utf8')) as typeof info
  } catch {
    return undefined
  }
  try {
    process.kill(info.pid, 0)
  } catch {
    return undefined // the server that wrote it is gone
  }
  try {
    const response = await fetch(info.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-admin-secret': info.secret },
      body: JSON.stringify({ argv }),
      signal: AbortSignal.timeout(30_000),
    })
    const body = (await response.json()) as { ok?: boolean; lines?: string[]; message?: string }
    if (!response.ok)
      throw new AdminError(body.message ?? `The server answered ${response.status}.`)
    if (!body.ok) throw new AdminError((body.lines ?? []).join('\n'))
    return body.lines ?? []
  } catch (error) {
    if (error instanceof AdminError) throw error
    return undefined // not answering: treat as not running
  }
}

async function main(argv: string[]): Promise<number> {
  if (argv.length === 0 || argv[0] === '--help' || argv[0] === 'help') {
    console.log(usage())
    return argv.length === 0 ? 2 : 0
  }
  const config = loadConfig()
  let lines: string[] | undefined
  // A server running on this data directory takes the command (it also drops its caches).
  const file = adminFile(config.dataDir)
  if (existsSync(file)) lines = await viaServer(file, argv)
  if (!lines) {
    const database = config.DATABASE_URL
      ? await openDatabase({ driver: 'pg', url: config.DATABASE_URL, maxConnections: 2 })
      : await openDatabase({ driver: 'pglite', dataDir: join(config.dataDir, 'pglite') })
    try {
      await database.migrate()
      lines = (await runAdminCommand(database.db, argv)).lines
    } finally {
      await database.close()
    }
  }
  console.log(lines.join('\n'))
  return 0
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof AdminError || error instanceof ConfigError) {
      console.error(error.message)
      process.exit(1)
    }
    console.error(error)
    process.exit(1)
  },
)
