import type { FastifyInstance, FastifyRequest } from 'fastify'
import { unauthenticated } from '../errors.ts'
import type { SessionUser } from '../services/session-token.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, set by `app.authenticate`; undefined on public routes. */
    user?: SessionUser
  }
  interface FastifyInstance {
    /** preHandler: requires a valid session token (`Authorization: Bearer …`). */
    authenticate: (request: FastifyRequest) => Promise<void>
  }
}

/** The caller of a route that ran `app.authenticate`; throws if there is none. */
export function callerOf(request: FastifyRequest): SessionUser {
  if (!request.user) throw unauthenticated()
  return request.user
}

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization
  if (header?.startsWith('Bearer ')) return header.slice(7).trim()
  // EventSource cannot send headers: the live stream passes the token in the query.
  const query = request.query as { access_token?: unknown } | undefined
  return typeof query?.access_token === 'string' ? query.access_token : undefined
}

/** Tokens remembered at most (the oldest is forgotten first). */
const VERIFIED_MAX = 5000

/** The `exp` (seconds) of a token whose signature was just verified, or undefined. */
function expiryOf(token: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString()) as {
      exp?: unknown
    }
    return typeof payload.exp === 'number' ? payload.exp : undefined
  } catch {
    return undefined
  }
}

/**
 * Verified session tokens until they expire. A session token is a self-contained HS256 JWT (no
 * revocation list): once its signature, issuer and audience check out, the same string stays valid
 * until its `exp`, so a repeated token skips the HMAC (WebCrypto, about 3 % of the API thread's time
 * under the list benchmark). A token that differs in any byte is a different key and is verified.
 */
export class VerifiedTokens {
  private readonly entries = new Map<string, { user: SessionUser; expiresAtMs: number }>()

  constructor(private readonly max = VERIFIED_MAX) {}

  get(token: string, now = Date.now()): SessionUser | undefined {
    const entry = this.entries.get(token)
    if (!entry) return undefined
    if (now < entry.expiresAtMs) return entry.user
    this.entries.delete(token)
    return undefined
  }

  set(token: string, user: SessionUser) {
    const exp = expiryOf(token)
    if (exp === undefined) return
    if (this.entries.size >= this.max) {
      const oldest = this.entries.keys().next().value
      if (oldest !== undefined) this.entries.delete(oldest)
    }
    this.entries.set(token, { user, expiresAtMs: exp * 1000 })
  }
}

export function registerAuthentication(app: FastifyInstance) {
  app.decorateRequest('user', undefined)
  const verified = new VerifiedTokens()
  const authenticate = async (request: FastifyRequest) => {
    const token = bearerToken(request)
    if (!token) throw unauthenticated()
    const known = verified.get(token)
    if (known) {
      // A copy: what one request does with its caller never reaches another's.
      request.user = { ...known, claims: { ...known.claims } }
      return
    }
    const user = await app.deps.sessionTokens.verify(token)
    verified.set(token, user)
    request.user = user
  }
  app.decorate('authenticate', authenticate)
}
