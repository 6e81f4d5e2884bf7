import { randomBytes } from 'node:crypto'
import { SignJWT, errors as joseErrors, jwtVerify } from 'jose'
import type { Database } from '@veloptima/db'
import { AppError } from '../errors.ts'
import { loadOrCreateSecret } from '../idp/repository.ts'

/** What the app's own session token says about its bearer. `claims` is the map of flags. */
export type SessionUser = {
  uid: string
  email: string
  displayName: string
  claims: Record<string, boolean>
}

const KEY_NAME = 'session-token-hs256'
const AUDIENCE = 'veloptima-api'

/**
 * The app's own short-lived session tokens (the specification's `firebaseToken`): HS256 JWTs
 * signed with a key generated once and kept in the database, so a restart keeps sessions valid.
 */
export class SessionTokens {
  constructor(
    private readonly key: Uint8Array,
    private readonly issuer: string,
  ) {}

  async sign(user: SessionUser, ttlSeconds = 3600): Promise<{ token: string; expiresAt: Date }> {
    const now = Math.floor(Date.now() / 1000)
    const token = await new SignJWT({
      email: user.email,
      name: user.displayName,
      claims: user.claims,
    })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(user.uid)
      .setIssuer(this.issuer)
      .setAudience(AUDIENCE)
      .setIssuedAt(now)
      .setExpirationTime(now + ttlSeconds)
      .sign(this.key)
    return { token, expiresAt: new Date((now + ttlSeconds) * 1000) }
  }

  /** Verifies a session token; throws `user-token-expired` or `invalid-credential`. */
  async verify(token: string): Promise<SessionUser> {
    try {
      const { payload } = await jwtVerify(token, this.key, {
        issuer: this.issuer,
        audience: AUDIENCE,
        algorithms: ['HS256'],
      })
      if (typeof payload.sub !== 'string' || !payload.sub) throw new Error('no subject')
      const claims = (payload.claims ?? {}) as Record<string, boolean>
      return {
        uid: payload.sub,
        email: typeof payload.email === 'string' ? payload.email : '',
        displayName: typeof payload.name === 'string' ? payload.name : '',
        claims: Object.fromEntries(Object.entries(claims).filter(([, v]) => v === true)),
      }
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) {
        throw new AppError('user-token-expired', 'Your session has expired. Sign in again.')
      }
      throw new AppError('invalid-credential', 'The session token is not valid.')
    }
  }
}

/** Loads the signing key from the database, creating it on first start. */
export async function loadSessionTokens(
  database: Database,
  issuer: string,
): Promise<SessionTokens> {
  const { k } = await loadOrCreateSecret<{ k?: string }>(database.db, KEY_NAME, () => ({
    k: randomBytes(32).toString('base64url'),
  }))
  if (!k) throw new Error(`secret ${KEY_NAME} is missing after insert`)
  return new SessionTokens(Buffer.from(k, 'base64url'), issuer)
}
