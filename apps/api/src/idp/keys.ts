import { randomBytes } from 'node:crypto'
import { exportJWK, generateKeyPair, type JWK } from 'jose'
import type { Db } from '@veloptima/db'
import { loadOrCreateSecret } from './repository.ts'

// The identity provider's signing keys and cookie keys, generated on first start and kept in
// `secrets`: tokens issued before a restart stay valid after it.

export async function loadSigningKeys(db: Db): Promise<{ keys: JWK[] }> {
  return loadOrCreateSecret(db, 'idp-jwks', async () => {
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
  const value = await loadOrCreateSecret(db, 'idp-cookie-keys', () => ({
    keys: [randomBytes(32).toString('base64url')],
  }))
  return value.keys
}
