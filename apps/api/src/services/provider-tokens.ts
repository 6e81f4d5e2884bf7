import {
  compactVerify,
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose'
import { AppError } from '../errors.ts'

// Checks of the identity provider's tokens. The ID-token rules are those of the specification
// §5 (the same ones @auth0/auth0-spa-js applies in the browser, with its messages), so the API
// can verify an ID token on its own; the access-token verifier guards the custom-token exchange.

/** A failed ID-token or callback check: `code` names the rule, `message` says what was found. */
export class TokenCheckError extends Error {
  constructor(
    public readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

export type IdTokenOptions = {
  issuer: string
  clientId: string
  /** The nonce sent with the authorization request, when one is expected. */
  nonce?: string | undefined
  /** max_age sent with the authorization request, in seconds. */
  maxAge?: number | undefined
  /** An organization id (`org_…`) or name the login asked for. */
  organization?: string | undefined
  /** Clock tolerance in seconds (docs/specification.md §9: 60 s). */
  leeway?: number | undefined
  /** Current time in seconds since the epoch (tests pass a fixed clock). */
  now?: number | undefined
}

const fail = (code: string, message: string): never => {
  throw new TokenCheckError(code, message)
}

/**
 * A claim that must be a non-empty string (else `missing-<rule>`, "must be a string present …"
 * and `when`) equal to `expected` (else `<rule>-mismatch`, "expected …, found …").
 */
function mustEqual(
  claims: Record<string, unknown>,
  of: { claim: string; name: string; rule: string },
  expected: string,
  when = '',
) {
  const value = claims[of.claim]
  const what = `${of.name} (${of.claim}) claim`
  if (typeof value !== 'string' || !value) {
    fail(`missing-${of.rule}`, `${what} must be a string present in the ID token${when}`)
  }
  if (value !== expected) {
    fail(
      `${of.rule}-mismatch`,
      `${what} mismatch in the ID token; expected "${expected}", found "${String(value)}"`,
    )
  }
}

/** Applies every claim rule of §5 to a decoded ID token; throws the first failure. */
export function checkIdTokenClaims(
  header: { alg?: string | undefined },
  claims: JWTPayload & Record<string, unknown>,
  options: IdTokenOptions,
): void {
  const leeway = options.leeway ?? 60
  const now = options.now ?? Math.floor(Date.now() / 1000)
  if (header.alg !== 'RS256') {
    fail(
      'invalid-algorithm',
      `Signature algorithm of "${header.alg}" is not supported. Expected the ID token to be signed with "RS256".`,
    )
  }
  mustEqual(claims, { claim: 'iss', name: 'Issuer', rule: 'issuer' }, options.issuer)
  if (typeof claims.sub !== 'string' || !claims.sub) {
    fail('missing-subject', 'Subject (sub) claim must be a string present in the ID token')
  }
  const aud = claims.aud
  if (!(typeof aud === 'string' && aud) && !(Array.isArray(aud) && aud.length > 0)) {
    fail(
      'missing-audience',
      'Audience (aud) claim must be a string or array of strings present in the ID token',
    )
  }
  if (Array.isArray(aud)) {
    if (!aud.includes(options.clientId)) {
      fail(
        'audience-mismatch',
        `Audience (aud) claim mismatch in the ID token; expected "${options.clientId}" but was not one of "${aud.join(', ')}"`,
      )
    }
    if (aud.length > 1) {
      const azp = { claim: 'azp', name: 'Authorized Party', rule: 'authorized-party' }
      mustEqual(claims, azp, options.clientId, ' when Audience (aud) claim has multiple values')
    }
  } else if (aud !== options.clientId) {
    fail(
      'audience-mismatch',
      `Audience (aud) claim mismatch in the ID token; expected "${options.clientId}" but found "${aud}"`,
    )
  }
  if (options.nonce !== undefined) {
    mustEqual(claims, { claim: 'nonce', name: 'Nonce', rule: 'nonce' }, options.nonce)
  }
  if (options.maxAge !== undefined && typeof claims.auth_time !== 'number') {
    fail(
      'missing-auth-time',
      'Authentication Time (auth_time) claim must be a number present in the ID token when Max Age (max_age) is specified',
    )
  }
  if (typeof claims.exp !== 'number') {
    fail('missing-expiry', 'Expiration Time (exp) claim must be a number present in the ID token')
  }
  if (typeof claims.iat !== 'number') {
    fail('missing-issued-at', 'Issued At (iat) claim must be a number present in the ID token')
  }
  const exp = claims.exp as number
  if (now > exp + leeway) {
    fail(
      'token-expired',
      `Expiration Time (exp) claim error in the ID token; current time (${now}) is after expiration time (${exp + leeway})`,
    )
  }
  if (claims.nbf !== undefined) {
    if (typeof claims.nbf !== 'number' || now < claims.nbf - leeway) {
      fail(
        'token-not-yet-valid',
        `Not Before time (nbf) claim in the ID token indicates that this token can't be used just yet. Current time (${now}) is before ${Number(claims.nbf) - leeway}`,
      )
    }
  }
  if (options.maxAge !== undefined) {
    const latest = (claims.auth_time as number) + options.maxAge + leeway
    if (now > latest) {
      fail(
        'auth-time-too-old',
        `Authentication Time (auth_time) claim in the ID token indicates that too much time has passed since the last end-user authentication. Current time (${now}) is after last auth at ${latest}`,
      )
    }
  }
  const org = options.organization?.trim()
  if (org) {
    if (org.startsWith('org_')) {
      mustEqual(claims, { claim: 'org_id', name: 'Organization ID', rule: 'organization-id' }, org)
    } else {
      const orgName = { claim: 'org_name', name: 'Organization Name', rule: 'organization-name' }
      mustEqual(claims, orgName, org.toLowerCase())
    }
  }
}

/** Verifies an ID token's signature against the provider's keys, then every rule of §5. */
export async function verifyIdToken(
  token: string,
  keys: JWTVerifyGetKey,
  options: IdTokenOptions,
): Promise<JWTPayload & Record<string, unknown>> {
  let header
  try {
    header = decodeProtectedHeader(token)
  } catch {
    return fail('malformed', 'ID token could not be decoded')
  }
  if (header.alg !== 'RS256') checkIdTokenClaims(header, {}, options)
  let payload: JWTPayload
  try {
    // Claim rules are ours (with the §5 messages); jose checks the signature only.
    const { payload: bytes } = await compactVerify(token, keys, { algorithms: ['RS256'] })
    payload = JSON.parse(new TextDecoder().decode(bytes)) as JWTPayload
  } catch (error) {
    if (error instanceof joseErrors.JWKSNoMatchingKey) {
      return fail(
        'unknown-key',
        `No key of the provider matches the ID token's kid "${header.kid}"`,
      )
    }
    return fail('invalid-signature', 'ID token signature could not be verified')
  }
  checkIdTokenClaims(header, payload, options)
  return payload
}

/** §5: the state returned must equal the state sent (`state_mismatch`: 'Invalid state'). */
export function checkState(sent: string | undefined, returned: string | null | undefined) {
  if (!sent) fail('missing_transaction', 'Invalid state')
  if (sent !== returned) fail('state_mismatch', 'Invalid state')
}

/** §5: the callback URL must carry query parameters; returns them. */
export function callbackParams(url: string): URLSearchParams {
  const query = url.split('?').slice(1).join('?').split('#')[0] ?? ''
  if (!query) fail('missing-query', 'There are no query params available for parsing.')
  return new URLSearchParams(query)
}

/** What the API reads from a provider access token. */
export type AccessTokenClaims = {
  sub: string
  permissions: string[]
  email?: string | undefined
  name?: string | undefined
  picture?: string | undefined
  orgId?: string | undefined
  orgName?: string | undefined
}

const str = (v: unknown) => (typeof v === 'string' && v ? v : undefined)

/**
 * Verifies provider access tokens: RS256 only, signed by a key of the provider's key set,
 * the expected issuer and audience, not expired. Errors are the §8 codes:
 * `user-token-expired` for an expired token, `invalid-credential` for everything else.
 */
export function createAccessTokenVerifier(options: {
  issuer: string
  audience: string
  keys: JWTVerifyGetKey
  leeway?: number
}) {
  return async function verifyAccessToken(token: string): Promise<AccessTokenClaims> {
    let payload: JWTPayload
    try {
      ;({ payload } = await jwtVerify(token, options.keys, {
        issuer: options.issuer,
        audience: options.audience,
        algorithms: ['RS256'],
        clockTolerance: options.leeway ?? 60,
        requiredClaims: ['sub', 'exp', 'iat'],
      }))
    } catch (error) {
      throw accessTokenError(error, options)
    }
    const permissions = Array.isArray(payload.permissions)
      ? payload.permissions.filter((p): p is string => typeof p === 'string')
      : []
    return {
      sub: payload.sub as string,
      permissions,
      email: str(payload.email),
      name: str(payload.name),
      picture: str(payload.picture),
      orgId: str(payload.org_id),
      orgName: str(payload.org_name),
    }
  }
}

function accessTokenError(error: unknown, expected: { issuer: string; audience: string }) {
  const invalid = (why: string) =>
    new AppError('invalid-credential', `The access token is not valid: ${why}.`, { why })
  if (error instanceof joseErrors.JWTExpired) {
    return new AppError('user-token-expired', 'The access token has expired. Sign in again.')
  }
  if (error instanceof joseErrors.JWTClaimValidationFailed) {
    if (error.claim === 'iss') return invalid(`it was not issued by ${expected.issuer}`)
    if (error.claim === 'aud') return invalid(`it is not meant for ${expected.audience}`)
    return invalid(`claim ${error.claim} failed its check (${error.reason})`)
  }
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return invalid('it is not signed with RS256')
  if (error instanceof joseErrors.JWKSNoMatchingKey) {
    return invalid('it is signed with a key the provider does not publish')
  }
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) {
    return invalid('its signature does not match')
  }
  if (error instanceof joseErrors.JWKSTimeout || !(error instanceof joseErrors.JOSEError)) {
    return new AppError(
      'network-request-failed',
      'The identity provider could not be reached to check the sign-in. Try again.',
    )
  }
  return invalid('it is not a well-formed signed token')
}

/** The provider's published keys (cached by jose, refetched on an unknown `kid`). */
export const remoteKeys = (jwksUrl: string) =>
  createRemoteJWKSet(new URL(jwksUrl), { timeoutDuration: 10_000 })
