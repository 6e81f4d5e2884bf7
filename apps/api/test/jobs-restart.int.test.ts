import { createHash } from 'node:crypto'
import { freePort } from './ports.ts'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase, testDriver } from '@veloptima/db/testing'
import type { Database } from '@veloptima/db'
import { loadConfig } from '../src/config.ts'
import { startServer } from '../src/server.ts'
import { createUser, tempDir } from './files-helpers.ts'
import { createRunnable, eventually } from './runs-helpers.ts'

type Server = Awaited<ReturnType<typeof startServer>>

describe('a restart of the server keeps queued jobs and finished results', () => {
  const dataDir = tempDir('restart')
  let pgDatabase: Database | undefined
  let databaseUrl: string | undefined

  beforeAll(async () => {
    if (testDriver() === 'pg') {
      pgDatabase = await openTestDatabase()
      databaseUrl = pgDatabase.pool!.options.connectionString!
    }
  })
  afterAll(async () => {
    await pgDatabase?.close()
  })

  async function start(workers: number): Promise<Server> {
    const config = loadConfig({
      DATA_DIR: dataDir,
      PORT: String(await freePort()),
      IDP_PORT: String(await freePort()),
      LOG_LEVEL: 'silent',
      JOB_WORKERS: String(workers),
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    })
    return startServer(config)
  }

  async function bearer(server: Server) {
    const { token } = await server.app.deps.sessionTokens.sign({
      uid: 'rider',
      email: 'rider@example.com',
      displayName: 'Rider',
      claims: { 'create:simulations': true },
    })
    return { authorization: `Bearer ${token}` }
  }

  const job = async (server: Server, id: string) =>
    (
      await server.app.inject({
        method: 'GET',
        url: `/api/jobs/${id}`,
        headers: await bearer(server),
      })
    ).json()

  /** Queues a run of `optimizationId` through `server`: its version and job id. */
  const run = async (server: Server, optimizationId: string) =>
    (
      await server.app.inject({
        method: 'POST',
        url: `/api/optimizations/${optimizationId}/run`,
        headers: await bearer(server),
      })
    ).json()

  it('finishes after a restart the job queued before it, and still serves the earlier result', async () => {
    // First life: a worker runs job A to the end.
    const first = await start(1)
    await createUser(first.database, 'rider')
    const { optimization } = await createRunnable(first.database.db, { ownerUid: 'rider' })
    const runA = await run(first, optimization.id)
    const doneA = await eventually(async () => {
      const j = await job(first, runA.job_id)
      return j.state === 'succeeded' && j
    })
    await first.close()

    // Second life: no worker; job B is queued, then the server stops.
    const second = await start(0)
    const runB = await run(second, optimization.id)
    expect(runB.version).toBe(2)
    await new Promise((r) => setTimeout(r, 1000))
    expect((await job(second, runB.job_id)).state).toBe('queued')
    await second.close()

    // Third life: a worker picks B up; A's result and export are still there.
    const third = await start(1)
    const doneB = await eventually(async () => {
      const j = await job(third, runB.job_id)
      return j.state === 'succeeded' && j
    })
    expect(doneB).toMatchObject({ progress: 100, attempts: 1, result_id: runB.result_id })
    expect(await job(third, runA.job_id)).toMatchObject({
      state: 'succeeded',
      result_id: runA.result_id,
      export_file_id: doneA.export_file_id,
    })
    const file = (
      await third.app.inject({
        method: 'GET',
        url: `/api/files/${doneA.export_file_id}`,
        headers: await bearer(third),
      })
    ).json()
    const link = (
      await third.app.inject({
        method: 'GET',
        url: `/api/files/${doneA.export_file_id}/download-url`,
        headers: await bearer(third),
      })
    ).json()
    const u = new URL(link.url)
    const bytes = await third.app.inject({ method: 'GET', url: `${u.pathname}${u.search}` })
    expect(bytes.statusCode).toBe(200)
    expect(createHash('sha256').update(bytes.rawPayload).digest('hex')).toBe(file.sha256)
    expect(bytes.payload.split('\r\n')[0]).toBe(
      'section,start_km,end_km,terrain,grade_pct,target_power_w,speed_kmh,section_time_s,elapsed_s,elapsed,target',
    )
    await third.close()
  })
})
