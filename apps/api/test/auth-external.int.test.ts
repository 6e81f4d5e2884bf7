import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestDatabase } from '@veloptima/db/testing'
import type { Database } from '@veloptima/db'
import { loadConfig } from '../src/config.ts'
import { startEmbeddedIdp } from '../src/idp/index.ts'
import { Accounts } from '../src/idp/accounts.ts'
import { createMailer } from '../src/idp/mail.ts'
import { createProvider, listenIdp } from '../src/idp/provider.ts'
import { startTestApp, type TestApp } from './helpers.ts'
import { signInWithPassword, type FlowSettings } from './idp-flow.ts'

// "External provider by configuration only": the app is pointed at another OIDC provider (here
// a separate provider process with its own database, keys, issuer, client and audience) through
// AUTH_* variables alone, and signs its users in.
describe('an external OIDC provider configured by AUTH_* variables', () => {
  const port = 5100 + Math.floor(Math.random() * 440) * 2
  const externalPort = port + 1
  const env = {
    HOST: 'localhost',
    PORT: String(port),
    LOG_LEVEL: 'silent',
    AUTH_DOMAIN: `http://localhost:${externalPort}`,
    AUTH_CLIENT_ID: 'external-spa',
    AUTH_AUDIENCE: 'https://api.veloptima.test',
  }
  let t: TestApp
  let external: Database
  let stop: () => Promise<void>
  const settings: FlowSettings = {
    issuer: `http://localhost:${externalPort}/`,
    clientId: 'external-spa',
    audience: 'https://api.veloptima.test',
    redirectUri: `http://localhost:${port}/`,
  }

  beforeAll(async () => {
    t = await startTestApp(env)
    external = await openTestDatabase()
    await new Accounts(external.db).create({
      email: 'pro@example.org',
      name: 'Pro Rider',
      password: 'external-password',
      permissions: ['create:simulations', 'access:aerooptimization'],
    })
    const provider = await createProvider(
      {
        issuer: settings.issuer,
        clientId: settings.clientId,
        audience: settings.audience,
        appOrigins: [`http://localhost:${port}`],
      },
      {
        db: external.db,
        mailer: createMailer({ from: 'x@example.org' }, () => undefined),
        log: () => undefined,
      },
    )
    ;({ close: stop } = await listenIdp(provider, externalPort, '127.0.0.1', external.db))
  })
  afterAll(async () => {
    await stop()
    await external.close()
    await t.close()
  })

  it('does not start the embedded provider', async () => {
    expect(await startEmbeddedIdp(loadConfig(env), t.database, () => undefined)).toBeUndefined()
  })

  it('gives the SPA the external domain, client id and audience', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/public-config' })
    expect(response.json().auth).toEqual({
      domain: `http://localhost:${externalPort}`,
      client_id: 'external-spa',
      audience: 'https://api.veloptima.test',
    })
  })

  it('exchanges the external provider’s access token for a session with its permissions', async () => {
    const { tokens } = await signInWithPassword(settings, 'pro@example.org', 'external-password')
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/custom-token',
      payload: { accessToken: tokens!.access_token },
    })
    expect(response.statusCode).toBe(200)
    expect(response.json()).toMatchObject({
      user: { email: 'pro@example.org', displayName: 'Pro Rider' },
      claims: { 'access:aerooptimization': true, 'create:simulations': true },
    })
  })
})
