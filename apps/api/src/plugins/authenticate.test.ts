import { describe, expect, it } from 'vitest'
import { SessionTokens } from '../services/session-token.ts'
import { VerifiedTokens } from './authenticate.ts'

const tokens = new SessionTokens(new Uint8Array(32).fill(7), 'http://localhost:3000')
const rider = { uid: 'u1', email: 'r@example.com', displayName: 'R', claims: { a: true } }

describe('VerifiedTokens (session tokens verified once, until they expire)', () => {
  it('remembers a verified token until its exp, then forgets it', async () => {
    const { token, expiresAt } = await tokens.sign(rider, 60)
    const cache = new VerifiedTokens()
    const user = await tokens.verify(token)
    cache.set(token, user)
    expect(cache.get(token, expiresAt.getTime() - 1)).toEqual(rider)
    // expiresAt is the token's own exp claim (SessionTokens.sign): from then on it is verified again.
    expect(cache.get(token, expiresAt.getTime())).toBeUndefined()
    expect(cache.get(token, Date.now())).toBeUndefined()
  })

  it('a token that differs in one byte is not the remembered one', async () => {
    const { token } = await tokens.sign(rider, 60)
    const cache = new VerifiedTokens()
    cache.set(token, await tokens.verify(token))
    // One byte of the decoded signature changed (a changed last character alone may only touch
    // base64url's unused low bits, leaving the signature's bytes as they were).
    const [header, payload, signature] = token.split('.') as [string, string, string]
    const bytes = Buffer.from(signature, 'base64url')
    bytes[bytes.length - 1]! ^= 0x01
    const forged = `${header}.${payload}.${bytes.toString('base64url')}`
    expect(forged).not.toBe(token)
    expect(cache.get(forged)).toBeUndefined()
    await expect(tokens.verify(forged)).rejects.toMatchObject({ code: 'invalid-credential' })
  })

  it('keeps at most its capacity, forgetting the oldest first', async () => {
    const cache = new VerifiedTokens(2)
    const signed = await Promise.all(
      ['u1', 'u2', 'u3'].map((uid) => tokens.sign({ ...rider, uid }, 60)),
    )
    for (const { token } of signed) cache.set(token, await tokens.verify(token))
    expect(cache.get(signed[0]!.token)).toBeUndefined()
    expect(cache.get(signed[1]!.token)?.uid).toBe('u2')
    expect(cache.get(signed[2]!.token)?.uid).toBe('u3')
  })

  it('does not remember a token without an expiry', () => {
    const cache = new VerifiedTokens()
    cache.set('not.a-jwt', rider)
    expect(cache.get('not.a-jwt')).toBeUndefined()
  })
})
