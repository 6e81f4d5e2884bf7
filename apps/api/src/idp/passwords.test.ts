import { scryptSync } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { hashPassword, passwordProblem, verifyPassword } from './passwords.ts'

describe('password hashing (scrypt)', () => {
  it('verifies the right password and refuses a wrong one', async () => {
    const hash = await hashPassword('veloptima-demo')
    expect(await verifyPassword('veloptima-demo', hash)).toBe(true)
    expect(await verifyPassword('veloptima-demO', hash)).toBe(false)
  })

  it('salts: the same password hashes differently each time', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'))
  })

  it('is memory-hard: N=2^15, r=8 (32 MiB), and the stored key is scrypt of the salt', async () => {
    const hash = await hashPassword('pw')
    const [kind, n, r, p, salt, key] = hash.split('$')
    expect([kind, n, r, p]).toEqual(['scrypt', '32768', '8', '1'])
    // Independent recomputation with node's synchronous scrypt.
    const expected = scryptSync('pw', Buffer.from(salt!, 'base64url'), 32, {
      N: 32768,
      r: 8,
      p: 1,
      maxmem: 64 * 1024 * 1024,
    })
    expect(key).toBe(expected.toString('base64url'))
  })

  it('refuses malformed stored hashes instead of throwing', async () => {
    expect(await verifyPassword('pw', '')).toBe(false)
    expect(await verifyPassword('pw', 'bcrypt$2b$10$abc')).toBe(false)
    expect(await verifyPassword('pw', 'scrypt$x$8$1$AAAA$AAAA')).toBe(false)
  })

  it('asks for 8 to 200 characters', () => {
    expect(passwordProblem('1234567')).toBe('Use at least 8 characters for the password.')
    expect(passwordProblem('12345678')).toBeUndefined()
    expect(passwordProblem('x'.repeat(201))).toBe('Use at most 200 characters for the password.')
  })
})
