// Liveness and readiness. Readiness checks what a request needs (docs/deployment.md
// "Readiness"): the database, the file storage (here the local directory; the S3 bucket in
// s3-storage.int.test.ts and multi-process.int.test.ts) and the identity provider's key set —
// each case against the real thing: the embedded identity provider listening or not, a directory
// that cannot exist, a PostgreSQL address nothing listens on.
import { writeFileSync } from 'node:fs'
import { freePort } from './ports.ts'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openDatabase } from '@veloptima/db'
import { loadConfig } from '../src/config.ts'
import { LocalStorage } from '../src/files/local-storage.ts'
import { startEmbeddedIdp } from '../src/idp/index.ts'
import { checkReadiness } from '../src/routes/health/readiness.ts'
import { tempDir } from './files-helpers.ts'
import { startTestApp, type TestApp } from './helpers.ts'

describe('health and readiness', () => {
  let t: TestApp
  let idp: Awaited<ReturnType<typeof startEmbeddedIdp>>
  let env: Record<string, string>
  beforeAll(async () => {
    const idpPort = await freePort()
    env = {
      HOST: '127.0.0.1',
      IDP_PORT: String(idpPort),
      FILES_DIR: join(tempDir('ready'), 'files'),
    }
    t = await startTestApp(env)
    // The embedded identity provider on the same database, as server.ts starts it.
    idp = await startEmbeddedIdp(
      loadConfig({ LOG_LEVEL: 'silent', ...env }),
      t.database,
      () => undefined,
    )
  })
  afterAll(async () => {
    await idp?.close()
    await t.close()
  })

  it('GET /api/health answers ok without a session', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' })
    expect(res.statusCode).toBe(200)
    expect(res.json()).toEqual({ status: 'ok' })
  })

  it('GET /api/ready answers 200 when the database, the file directory and the identity provider are there', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/ready' })
    expect(res.statusCode, res.body).toBe(200)
    expect(res.json()).toEqual({
      status: 'ready',
      missing: [],
      problems: [],
      database: { driver: t.database.driver, reachable: true, migrated: true },
      storage: { driver: 'local', ready: true, where: env.FILES_DIR },
      identityProvider: {
        ready: true,
        jwksUrl: `http://127.0.0.1:${env.IDP_PORT}/.well-known/jwks.json`,
      },
    })
  })

  it('answers 503 naming the identity provider when its key set cannot be reached', async () => {
    const closed = await freePort()
    const other = await startTestApp({ ...env, AUTH_ISSUER: `http://127.0.0.1:${closed}/` })
    try {
      const res = await other.app.inject({ method: 'GET', url: '/api/ready' })
      expect(res.statusCode).toBe(503)
      const body = res.json()
      expect(body.status).toBe('not-ready')
      expect(body.missing).toEqual(['identity provider'])
      expect(body.problems[0]).toContain(`http://127.0.0.1:${closed}/.well-known/jwks.json`)
      expect(body.problems[0]).toContain('ECONNREFUSED')
    } finally {
      await other.close()
    }
  })

  it('answers 503 naming the file directory when it cannot be written', async () => {
    // A path below a regular file: no directory can be made there, whoever runs the test.
    const file = join(tempDir('ready-file'), 'not-a-directory')
    writeFileSync(file, 'x')
    const other = await startTestApp({ ...env, FILES_DIR: join(file, 'files') })
    try {
      const res = await other.app.inject({ method: 'GET', url: '/api/ready' })
      expect(res.statusCode).toBe(503)
      expect(res.json().missing).toEqual(['file directory'])
      expect(res.json().problems[0]).toContain(`${join(file, 'files')} (FILES_DIR) is not writable`)
    } finally {
      await other.close()
    }
  })

  it('names the database when PostgreSQL cannot be reached', async () => {
    const closed = await freePort()
    const database = await openDatabase({
      driver: 'pg',
      url: `postgres://veloptima@127.0.0.1:${closed}/veloptima`,
    })
    try {
      const { ready, body } = await checkReadiness({
        database,
        storage: new LocalStorage(env.FILES_DIR!),
      })
      expect(ready).toBe(false)
      expect(body.missing).toEqual(['database'])
      expect(body.database).toEqual({ driver: 'pg', reachable: false, migrated: false })
    } finally {
      await database.close()
    }
  })

  it('an unknown API route answers a JSON 404 with a stable code', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' })
    expect(res.statusCode).toBe(404)
    expect(res.json()).toMatchObject({ code: 'not-found' })
  })
})
