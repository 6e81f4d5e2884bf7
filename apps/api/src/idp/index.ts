import type { Database } from '@veloptima/db'
import type { Config } from '../config.ts'
import { ensureDemoAccounts } from './demo.ts'
import { createMailer } from './mail.ts'
import { createProvider, listenIdp } from './provider.ts'
import { authSettings } from './settings.ts'

export { DEMO_ACCOUNTS, DEMO_PASSWORD } from './demo.ts'

/**
 * Starts the embedded identity provider on IDP_PORT when no external provider is configured;
 * returns undefined in external mode.
 */
export async function startEmbeddedIdp(
  config: Config,
  database: Database,
  log: (line: string) => void,
  options: { now?: () => number } = {},
): Promise<{ issuer: string; demoCreated: string[]; close(): Promise<void> } | undefined> {
  const settings = authSettings(config)
  if (!settings.embedded) return undefined
  const demoCreated = await ensureDemoAccounts(database.db)
  const provider = await createProvider(
    {
      issuer: settings.issuer,
      clientId: settings.clientId,
      audience: settings.audience,
      appOrigins: settings.appOrigins,
    },
    {
      db: database.db,
      mailer: createMailer({ url: config.SMTP_URL, from: config.SMTP_FROM }, log),
      log,
      ...(options.now ? { now: options.now } : {}),
    },
  )
  if (config.TRUST_PROXY) {
    // Behind a balancer: the client's address is the last X-Forwarded-For entry (the one the
    // balancer appended), for the per-address sign-in limits. The provider's port must then be
    // reachable only through the balancer.
    provider.proxy = true
    provider.maxIpsCount = 1
  }
  provider.on('server_error', (_ctx, error) => log(`identity provider error: ${error.stack}`))
  const { close } = await listenIdp(provider, config.IDP_PORT, config.BIND_ADDRESS, database.db)
  return { issuer: settings.issuer, demoCreated, close }
}
