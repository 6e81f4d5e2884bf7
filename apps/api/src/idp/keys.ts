import { randomBytes } from 'node:crypto'
import { eq } from 'drizzle-orm'
import { exportJWK, generateKeyPair, type JWK } from 'jose'
import { secrets, type Db } from '@veloptima/db'

// The identity provider's signing keys and cookie keys, generated on first start and kept in
// `secrets`: tokens issued before a restart stay valid after it.

async function loadOrCreate<T>(db: Db, name: string, create: () => Promise<T>): Promise<T> {
  const [existing] = await db.select().from(secrets).where(eq(secrets.name, name))
  if (existing) return existing.value as T
  await db
    .insert(secrets)
    .values({ name, value: await create() })
    .onConflictDoNothing()
  // Another process may have won the race: read back what is stored.
  const [row] = await db.select().from(secrets).where(eq(secrets.name, name))
  if (!row) throw new Error(`secret ${name} is missing after insert`)
  return row.value as T
}

export async function loadSigningKeys(db: Db): Promise<{ keys: JWK[] }> {
  return loadOrCreate(db, 'idp-jwks', async () => {
    const { privateKey } = await generateKeyPair('RS256', {
      modulusLength: 2048,
      extractable: true,
    })
    const jwk = await exportJWK(privateKey)
    return {
      keys: [{ ...jwk, kid: randomBytes(8).toString('base64url'), alg: 'RS256', use: 'sig' }],
    }
  })
}

export async function loadCookieKeys(db: Db): Promise<string[]> {
  const value = await loadOrCreate(db, 'idp-cookie-keys', async () => ({
    keys: [randomBytes(32).toString('base64url')],
  }))
  return value.keys
}
