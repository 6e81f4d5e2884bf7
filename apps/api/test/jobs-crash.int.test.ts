// The server process is killed (SIGKILL) in the middle of a job; after a restart the job is
// retried and completes exactly once. A real `src/server.ts` in a child process, on a data
// directory (PGlite) or a database (PostgreSQL) the test prepared.
import { spawn, type ChildProcess } from 'node:child_process'
import { freePort } from './ports.ts'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { openDatabase, optimizations, type Database } from '@veloptima/db'
import { openTestDatabase, testDriver } from '@veloptima/db/testing'
import { createUser, tempDir } from './files-helpers.ts'
import {
  createRunnable,
  eventually,
  LONG_EQUIPMENT,
  simulationsToken,
  syntheticSegments,
  writtenBy,
} from './runs-helpers.ts'

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url))

describe('a server killed in the middle of a job', () => {
  const dataDir = tempDir('crash')
  const children: ChildProcess[] = []
  let pgDatabase: Database | undefined
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL')
    await pgDatabase?.close()
  })

  it('retries the job after a restart and completes it exactly once', async () => {
    const port = await freePort()
    const idpPort = await freePort()
    const publicUrl = `http://localhost:${port}`

    // The rows and a session token, written before the server runs.
    let databaseUrl: string | undefined
    let seedDb: Database
    if (testDriver() === 'pg') {
      pgDatabase = await openTestDatabase()
      databaseUrl = pgDatabase.pool!.options.connectionString!
      seedDb = pgDatabase
    } else {
      seedDb = await openDatabase({ driver: 'pglite', dataDir: join(dataDir, 'pglite') })
      await seedDb.migrate()
    }
    await createUser(seedDb, 'rider')
    const { optimization } = await createRunnable(
      seedDb.db,
      { ownerUid: 'rider' },
      LONG_EQUIPMENT,
      syntheticSegments(5000),
    )
    await seedDb.db
      .update(optimizations)
      .set({ type: 'equipment' })
      .where(eq(optimizations.id, optimization.id))
    const token = await simulationsToken(seedDb, publicUrl, 'rider', 'Rider')
    if (testDriver() !== 'pg') await seedDb.close()
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }

    const start = async () => {
      const env: Record<string, string> = {
        ...(process.env as Record<string, string>),
        DATA_DIR: dataDir,
        PORT: String(port),
        IDP_PORT: String(idpPort),
        LOG_LEVEL: 'warn',
        JOB_WORKERS: '1',
        JOB_HEARTBEAT_SECONDS: '10',
        WEB_DIST_DIR: join(dataDir, 'no-web'),
      }
      delete env.DATABASE_URL
      if (databaseUrl) env.DATABASE_URL = databaseUrl
      const child = spawn(process.execPath, ['--import', 'tsx', 'apps/api/src/server.ts'], {
        cwd: repoRoot,
        env,
        stdio: 'ignore',
      })
      children.push(child)
      await eventually(
        () =>
          fetch(`${publicUrl}/api/health`)
            .then((r) => r.ok)
            .catch(() => false),
        60_000,
        'the server to start',
      )
      return child
    }
    const job = async (id: string) =>
      (await fetch(`${publicUrl}/api/jobs/${id}`, { headers })).json() as Promise<{
        state: string
        progress: number
        attempts: number
        message: string | null
        result_id?: string
      }>

    const first = await start()
    const res = await fetch(`${publicUrl}/api/optimizations/${optimization.id}/run`, {
      method: 'POST',
      headers,
      body: '{}',
    })
    expect(res.status).toBe(202)
    const { job_id } = (await res.json()) as { job_id: string }
    // In the middle: the optimizer has started on the 5,000 segments (progress 10 %).
    await eventually(async () => {
      const j = await job(job_id)
      return j.state === 'running' && j.progress >= 10
    }, 60_000)
    first.kill('SIGKILL')
    await new Promise((r) => first.once('exit', r))

    const second = await start()
    const done = await eventually(
      async () => {
        const j = await job(job_id)
        return j.state === 'succeeded' && j
      },
      120_000,
      'the retried job',
    )
    expect(done.attempts).toBe(2)
    second.kill('SIGINT')
    await new Promise((r) => second.once('exit', r))

    const check =
      pgDatabase ?? (await openDatabase({ driver: 'pglite', dataDir: join(dataDir, 'pglite') }))
    const written = await writtenBy(check.db, job_id, 'rider')
    if (!pgDatabase) await check.close()
    expect(written.results).toHaveLength(1)
    expect(written.results[0]!.status).toBe('succeeded')
    expect(written.results[0]!.id).toBe(done.result_id)
    expect(written.exportFiles).toHaveLength(1)
    expect(written.notifications).toHaveLength(1)
  })
})
