// Who may call each API route, declared on the route itself and enforced by one hook.
//
// Every route under /api/ carries `config.policy`; registering one without it fails at startup,
// so no route can forget its check. The table of every route's policy is docs/security.md
// ("Who may call what"); apps/api/test/authorization-matrix.int.test.ts holds the code to it.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify'
import { AppError } from '../errors.ts'
import { callerOf } from './authenticate.ts'

/** The claims a route may require (the specification's claim table, docs/security.md). */
export const CLAIMS = {
  simulations: 'create:simulations',
  aero: 'access:aerooptimization',
  betaFeedback: 'access:betaFeedback',
} as const
export type Claim = (typeof CLAIMS)[keyof typeof CLAIMS]

export type TeamRole = 'member' | 'admin' | 'owner'
export const TEAM_RANK: Record<TeamRole, number> = { member: 0, admin: 1, owner: 2 }

export type Policy =
  /** Anyone; `why` says what protects the route instead (a signature, a verified token…). */
  | { access: 'public'; why: string }
  /** The operator's own tools: `allow` decides from the request alone (a secret, loopback). */
  | {
      access: 'operator'
      why: string
      allow: (request: FastifyRequest) => boolean
      refusal: string
    }
  /**
   * A signed-in user whose account is not disabled, holding every claim of `claims` and at least
   * one of `anyClaim`; with `team`, a member of the team named by that path parameter with at
   * least that role (non-members get 404, as if the team did not exist).
   */
  | {
      access: 'user'
      claims?: readonly Claim[]
      anyClaim?: readonly Claim[]
      team?: { param: string; role: TeamRole }
    }

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: Policy
  }
  interface FastifyInstance {
    /** Every API route's policy, in registration order (for the docs and the matrix test). */
    policies: { method: string; url: string; policy: Policy }[]
  }
}

/** Route options of a route open to anyone. */
export const open = (why: string) => ({ config: { policy: { access: 'public', why } as Policy } })

/** Route options of a route for signed-in users (see `Policy`). */
export const user = (rule: Omit<Extract<Policy, { access: 'user' }>, 'access'> = {}) => ({
  config: { policy: { access: 'user', ...rule } as Policy },
})

/** Route options of an operator's route. */
export const operator = (
  why: string,
  allow: (request: FastifyRequest) => boolean,
  refusal: string,
) => ({ config: { policy: { access: 'operator', why, allow, refusal } as Policy } })

function missingClaim(missing: string[]) {
  return new AppError(
    'missing-claim',
    `This needs the permission ${missing.join(' or ')}. See the plans on the pricing page.`,
    { missing },
  )
}

/** Registers the enforcing hook; call before any route is registered. */
export function registerPolicy(app: FastifyInstance) {
  app.decorate('policies', [])

  async function enforce(request: FastifyRequest, reply: FastifyReply) {
    const policy = request.routeOptions.config.policy
    if (!policy) throw new AppError('forbidden', 'This route has no access policy.')
    if (policy.access === 'public') return
    if (policy.access === 'operator') {
      if (!policy.allow(request)) throw new AppError('forbidden', policy.refusal)
      return
    }
    // What a signed-in caller reads is theirs: no cache along the way keeps it.
    reply.header('cache-control', 'no-store')
    await app.authenticate(request)
    const caller = callerOf(request)
    await app.platform.users.ensure(caller)
    const missing = (policy.claims ?? []).filter((c) => !caller.claims[c])
    if (missing.length) throw missingClaim(missing)
    if (policy.anyClaim?.length && !policy.anyClaim.some((c) => caller.claims[c])) {
      throw missingClaim([...policy.anyClaim])
    }
    if (policy.team) {
      const teamId = (request.params as Record<string, string>)[policy.team.param] ?? ''
      const membership = await app.platform.teams.membership(caller.uid, teamId)
      if (TEAM_RANK[membership.role as TeamRole] < TEAM_RANK[policy.team.role]) {
        throw new AppError(
          'forbidden',
          policy.team.role === 'owner'
            ? 'Only the team’s owners can do this.'
            : 'Only the team’s owners and admins can do this.',
        )
      }
    }
  }

  app.addHook('onRoute', (route: RouteOptions) => {
    const url = route.url
    if (!url.startsWith('/api/')) return // the web app's static files
    const policy = route.config?.policy
    if (!policy) {
      throw new Error(
        `${String(route.method)} ${url} has no access policy: give it config.policy (plugins/policy.ts).`,
      )
    }
    for (const method of [route.method].flat()) {
      if (method !== 'HEAD') app.policies.push({ method, url, policy })
    }
    const existing = route.onRequest ? [route.onRequest].flat() : []
    route.onRequest = [enforce, ...existing]
  })
}
