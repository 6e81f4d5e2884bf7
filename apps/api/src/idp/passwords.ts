import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto'

// Passwords are hashed with scrypt (memory-hard: N=2^15, r=8 needs 32 MiB per hash), from
// node:crypto, so there is no native dependency. The parameters are stored with each hash so
// they can be raised later without invalidating existing accounts.
const N = 2 ** 15
const R = 8
const P = 1
const KEY_LENGTH = 32

let derivations = 0

/**
 * How many scrypt derivations this process has started (hashes and checks): what the sign-in
 * limits (idp/rate-limit.ts) bound, read by the tests that fire bursts of attempts.
 */
export const scryptDerivations = () => derivations

function derive(password: string, salt: Buffer, options: ScryptOptions, length: number) {
  derivations += 1
  return new Promise<Buffer>((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, length, options, (error, key) =>
      error ? reject(error) : resolve(key),
    )
  })
}

const maxmem = (n: number, r: number) => 128 * n * r * 2

/** `scrypt$N$r$p$salt$hash` (base64url). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16)
  const key = await derive(password, salt, { N, r: R, p: P, maxmem: maxmem(N, R) }, KEY_LENGTH)
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$')
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parts = stored.split('$')
  if (parts.length !== 6 || parts[0] !== 'scrypt') return false
  const [n, r, p] = parts.slice(1, 4).map(Number) as [number, number, number]
  const salt = Buffer.from(parts[4] ?? '', 'base64url')
  const expected = Buffer.from(parts[5] ?? '', 'base64url')
  if (!n || !r || !p || expected.length === 0) return false
  const key = await derive(password, salt, { N: n, r, p, maxmem: maxmem(n, r) }, expected.length)
  return timingSafeEqual(key, expected)
}

/** The rules a new password must meet; returns the problem, or undefined when it is fine. */
export function passwordProblem(password: string): string | undefined {
  if (password.length < 8) return 'Use at least 8 characters for the password.'
  if (password.length > 200) return 'Use at most 200 characters for the password.'
  return undefined
}
