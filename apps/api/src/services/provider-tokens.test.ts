import { beforeAll, describe, expect, it } from 'vitest'
import {
  createLocalJWKSet,
  exportJWK,
  generateKeyPair,
  SignJWT,
  UnsecuredJWT,
  type JWK,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose'
import {
  callbackParams,
  checkIdTokenClaims,
  checkState,
  createAccessTokenVerifier,
  remoteKeys,
  verifyIdToken,
  type IdTokenOptions,
} from './provider-tokens.ts'

// Every rule of docs/specification.md §5 ("Identity token checks, each failing with an error"),
// each against a token crafted to break exactly that rule, and the API's access-token checks.

const ISSUER = 'http://localhost:4000/'
const CLIENT = 'veloptima-web'
const NOW = 1_800_000_000
const base: IdTokenOptions = { issuer: ISSUER, clientId: CLIENT, now: NOW }
const good = {
  iss: ISSUER,
  sub: 'veloptima|u1',
  aud: CLIENT,
  iat: NOW - 10,
  exp: NOW + 3600,
  nonce: 'n-123',
}
const rs256 = { alg: 'RS256' }

const codeOf = (f: () => void) => {
  try {
    f()
  } catch (error) {
    return (error as { code: string }).code
  }
  return 'passed'
}
const check = (
  claims: JWTPayload & Record<string, unknown>,
  options: Partial<IdTokenOptions> = {},
) => codeOf(() => checkIdTokenClaims(rs256, claims, { ...base, ...options }))
const without = (key: keyof typeof good) => {
  const copy: Record<string, unknown> = { ...good }
  delete copy[key]
  return copy
}

describe('ID token claim rules (§5)', () => {
  it('accepts a token that meets every rule', () => {
    expect(check(good, { nonce: 'n-123' })).toBe('passed')
  })

  it('iss must be present and match the expected issuer', () => {
    expect(check(without('iss'))).toBe('missing-issuer')
    expect(check({ ...good, iss: 'http://localhost:4000' })).toBe('issuer-mismatch')
  })

  it('sub must be present', () => {
    expect(check(without('sub'))).toBe('missing-subject')
  })

  it('alg must be RS256', () => {
    for (const alg of ['HS256', 'none', 'RS512', 'ES256']) {
      expect(codeOf(() => checkIdTokenClaims({ alg }, good, base))).toBe('invalid-algorithm')
    }
  })

  it('aud must be present; as an array it must contain the client id', () => {
    expect(check(without('aud'))).toBe('missing-audience')
    expect(check({ ...good, aud: [] })).toBe('missing-audience')
    expect(check({ ...good, aud: 'someone-else' })).toBe('audience-mismatch')
    expect(check({ ...good, aud: ['someone-else'] })).toBe('audience-mismatch')
    expect(check({ ...good, aud: [CLIENT] })).toBe('passed')
  })

  it('with several audiences, azp is required and must equal the client id', () => {
    const aud = [CLIENT, 'http://localhost:3000/api']
    expect(check({ ...good, aud })).toBe('missing-authorized-party')
    expect(check({ ...good, aud, azp: 'someone-else' })).toBe('authorized-party-mismatch')
    expect(check({ ...good, aud, azp: CLIENT })).toBe('passed')
  })

  it('nonce must match when expected', () => {
    expect(check(without('nonce'), { nonce: 'n-123' })).toBe('missing-nonce')
    expect(check(good, { nonce: 'n-other' })).toBe('nonce-mismatch')
    expect(check(without('nonce'))).toBe('passed')
  })

  it('auth_time is required as a number when max_age is set', () => {
    expect(check(good, { maxAge: 300 })).toBe('missing-auth-time')
    expect(check({ ...good, auth_time: '1' }, { maxAge: 300 })).toBe('missing-auth-time')
    expect(check({ ...good, auth_time: NOW - 100 }, { maxAge: 300 })).toBe('passed')
  })

  it('exp and iat must be numbers', () => {
    expect(check(without('exp'))).toBe('missing-expiry')
    expect(check({ ...good, exp: String(NOW + 3600) } as unknown as JWTPayload)).toBe(
      'missing-expiry',
    )
    expect(check(without('iat'))).toBe('missing-issued-at')
  })

  it('exp is checked with a leeway of 60 s by default', () => {
    expect(check({ ...good, exp: NOW - 60 })).toBe('passed')
    expect(check({ ...good, exp: NOW - 61 })).toBe('token-expired')
    expect(check({ ...good, exp: NOW - 61 }, { leeway: 120 })).toBe('passed')
  })

  it('nbf is checked with the leeway', () => {
    expect(check({ ...good, nbf: NOW + 60 })).toBe('passed')
    expect(check({ ...good, nbf: NOW + 61 })).toBe('token-not-yet-valid')
  })

  it('auth_time plus max_age plus leeway must not have passed', () => {
    expect(check({ ...good, auth_time: NOW - 360 }, { maxAge: 300 })).toBe('passed')
    expect(check({ ...good, auth_time: NOW - 361 }, { maxAge: 300 })).toBe('auth-time-too-old')
  })

  it('an organization starting with org_ is matched against org_id', () => {
    const org = { organization: 'org_abc' }
    expect(check(good, org)).toBe('missing-organization-id')
    expect(check({ ...good, org_id: 'org_xyz' }, org)).toBe('organization-id-mismatch')
    expect(check({ ...good, org_id: 'org_abc' }, org)).toBe('passed')
  })

  it('another organization value is matched in lower case against org_name', () => {
    const org = { organization: 'Team-Fast' }
    expect(check(good, org)).toBe('missing-organization-name')
    expect(check({ ...good, org_name: 'team-slow' }, org)).toBe('organization-name-mismatch')
    expect(check({ ...good, org_name: 'team-fast' }, org)).toBe('passed')
  })

  it('reports what it found, with the messages of the Auth0 SDK', () => {
    expect(() => checkIdTokenClaims(rs256, { ...good, iss: 'http://evil/' }, base)).toThrow(
      'Issuer (iss) claim mismatch in the ID token; expected "http://localhost:4000/", found "http://evil/"',
    )
  })
})

describe('callback checks (§5)', () => {
  it('the state returned must equal the state sent', () => {
    expect(codeOf(() => checkState('abc', 'abc'))).toBe('passed')
    expect(codeOf(() => checkState('abc', 'abd'))).toBe('state_mismatch')
    expect(codeOf(() => checkState('abc', null))).toBe('state_mismatch')
    expect(codeOf(() => checkState(undefined, 'abc'))).toBe('missing_transaction')
  })

  it('the callback URL must carry query parameters', () => {
    expect(callbackParams('http://localhost:3000/?code=c&state=s').get('code')).toBe('c')
    expect(codeOf(() => callbackParams('http://localhost:3000/'))).toBe('missing-query')
    expect(codeOf(() => callbackParams('http://localhost:3000/?'))).toBe('missing-query')
  })
})

describe('signed tokens', () => {
  let jwk: JWK
  let key: CryptoKey
  let foreign: CryptoKey
  let keys: JWTVerifyGetKey
  const AUD = 'http://localhost:3000/api'

  beforeAll(async () => {
    const pair = await generateKeyPair('RS256', { extractable: true })
    key = pair.privateKey
    jwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' }
    keys = createLocalJWKSet({ keys: [jwk] })
    foreign = (await generateKeyPair('RS256')).privateKey
  })

  const sign = (
    payload: JWTPayload,
    options: { kid?: string; signer?: CryptoKey; iat?: number; exp?: number | string } = {},
  ) =>
    new SignJWT(payload)
      .setProtectedHeader({ alg: 'RS256', kid: options.kid ?? 'k1' })
      .setIssuedAt(options.iat)
      .setExpirationTime(options.exp ?? '10m')
      .sign(options.signer ?? key)

  describe('ID tokens', () => {
    const opts = { issuer: ISSUER, clientId: CLIENT }
    const claims = { iss: ISSUER, sub: 'veloptima|u1', aud: CLIENT }
    const code = (p: Promise<unknown>) =>
      p.then(
        () => 'passed',
        (e: { code: string }) => e.code,
      )

    it('verifies the signature, then the claim rules', async () => {
      await expect(verifyIdToken(await sign(claims), keys, opts)).resolves.toMatchObject(claims)
      expect(await code(verifyIdToken(await sign({ ...claims, iss: 'x' }), keys, opts))).toBe(
        'issuer-mismatch',
      )
    })

    it('refuses alg none and HS256 before looking at the signature', async () => {
      const none = new UnsecuredJWT(claims).setIssuedAt().setExpirationTime('10m').encode()
      expect(await code(verifyIdToken(none, keys, opts))).toBe('invalid-algorithm')
      const hs = await new SignJWT(claims)
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(new TextEncoder().encode('a-shared-secret-of-32-bytes-long!'))
      expect(await code(verifyIdToken(hs, keys, opts))).toBe('invalid-algorithm')
    })

    it('refuses a tampered payload and an unknown key', async () => {
      const [h, , s] = (await sign(claims)).split('.')
      const forged = Buffer.from(JSON.stringify({ ...claims, sub: 'admin', iat: 1, exp: 9e9 }))
      const tampered = `${h}.${forged.toString('base64url')}.${s}`
      expect(await code(verifyIdToken(tampered, keys, opts))).toBe('invalid-signature')
      const unknown = await sign(claims, { kid: 'k2', signer: foreign })
      expect(await code(verifyIdToken(unknown, keys, opts))).toBe('unknown-key')
    })
  })

  describe('access tokens (the custom-token exchange)', () => {
    const verify = () => createAccessTokenVerifier({ issuer: ISSUER, audience: AUD, keys })
    const at = { iss: ISSUER, aud: AUD, sub: 'veloptima|u1', permissions: ['create:simulations'] }
    const code = async (token: string) =>
      verify()(token).then(
        () => 'passed',
        (e: { code: string; details?: { why?: string } }) => `${e.code}: ${e.details?.why ?? ''}`,
      )

    it('returns the subject, permissions and profile of a good token', async () => {
      const claims = await verify()(
        await sign({ ...at, email: 'a@example.com', name: 'A', org_id: 'org_1' }),
      )
      expect(claims).toEqual({
        sub: 'veloptima|u1',
        permissions: ['create:simulations'],
        email: 'a@example.com',
        name: 'A',
        picture: undefined,
        orgId: 'org_1',
        orgName: undefined,
      })
    })

    it('refuses the wrong issuer', async () => {
      expect(await code(await sign({ ...at, iss: 'http://localhost:4001/' }))).toBe(
        `invalid-credential: it was not issued by ${ISSUER}`,
      )
    })

    it('refuses the wrong audience', async () => {
      expect(await code(await sign({ ...at, aud: 'http://other/api' }))).toBe(
        `invalid-credential: it is not meant for ${AUD}`,
      )
    })

    it('refuses alg none and HS256', async () => {
      const none = new UnsecuredJWT(at).setIssuedAt().setExpirationTime('10m').encode()
      expect(await code(none)).toBe('invalid-credential: it is not signed with RS256')
      const hs = await new SignJWT(at)
        .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
        .setIssuedAt()
        .setExpirationTime('10m')
        .sign(new TextEncoder().encode('a-shared-secret-of-32-bytes-long!'))
      expect(await code(hs)).toBe('invalid-credential: it is not signed with RS256')
    })

    it('refuses an expired token with user-token-expired (beyond 60 s of leeway)', async () => {
      const now = Math.floor(Date.now() / 1000)
      expect(await code(await sign(at, { iat: now - 700, exp: now - 61 }))).toBe(
        'user-token-expired: ',
      )
      expect(await code(await sign(at, { iat: now - 700, exp: now - 30 }))).toBe('passed')
    })

    it('refuses a tampered signature', async () => {
      const [h, , s] = (await sign(at)).split('.')
      const forged = Buffer.from(
        JSON.stringify({ ...at, permissions: ['access:aerooptimization'], iat: 1, exp: 9e9 }),
      ).toString('base64url')
      expect(await code(`${h}.${forged}.${s}`)).toBe(
        'invalid-credential: its signature does not match',
      )
    })

    it('refuses a token signed by a key the provider does not publish', async () => {
      expect(await code(await sign(at, { kid: 'k2', signer: foreign }))).toBe(
        'invalid-credential: it is signed with a key the provider does not publish',
      )
    })

    it('answers network-request-failed when the provider’s keys cannot be fetched', async () => {
      const offline = createAccessTokenVerifier({
        issuer: ISSUER,
        audience: AUD,
        // Port 9 (discard) on loopback: nothing listens there.
        keys: remoteKeys('http://127.0.0.1:9/.well-known/jwks.json'),
      })
      await expect(offline(await sign(at))).rejects.toMatchObject({
        code: 'network-request-failed',
        status: 503,
      })
    })

    it('refuses a token without a subject', async () => {
      const { sub: _sub, ...noSub } = at
      expect(await code(await sign(noSub))).toMatch(/^invalid-credential: claim sub/)
    })
  })
})
