import type { FastifyInstance, FastifyRequest } from 'fastify'
import { AppError, unauthenticated } from '../errors.ts'
import type { SessionUser } from '../services/session-token.ts'

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller, set by `app.authenticate`; undefined on public routes. */
    user?: SessionUser
  }
  interface FastifyInstance {
    /** preHandler: requires a valid session token (`Authorization: Bearer …`). */
    authenticate: (request: FastifyRequest) => Promise<void>
    /** preHandler factory: requires a session and every listed claim. */
    requireClaims: (...claims: string[]) => (request: FastifyRequest) => Promise<void>
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

export function registerAuthentication(app: FastifyInstance) {
  app.decorateRequest('user', undefined)
  const authenticate = async (request: FastifyRequest) => {
    const token = bearerToken(request)
    if (!token) throw unauthenticated()
    request.user = await app.deps.sessionTokens.verify(token)
  }
  app.decorate('authenticate', authenticate)
  app.decorate('requireClaims', (...claims: string[]) => async (request: FastifyRequest) => {
    await authenticate(request)
    const missing = claims.filter((c) => !request.user?.claims[c])
    if (missing.length) {
      throw new AppError(
        'missing-claim',
        403,
        `This needs the permission ${missing.join(', ')}. See the plans on the pricing page.`,
        { missing },
      )
    }
  })
}
