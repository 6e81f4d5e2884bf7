import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { Db } from '@veloptima/db'
import { hashPassword, verifyPassword } from './passwords.ts'
import {
  consumeResetToken,
  findAccountByEmail,
  findAccountBySub,
  findLiveResetToken,
  insertAccount,
  insertResetToken,
  setPasswordHash,
  type IdpAccount,
} from './repository.ts'

export type { IdpAccount }

export const normalizeEmail = (email: string) => email.trim().toLowerCase()

/** A valid-looking address: something@something.tld, no spaces, at most 254 characters. */
export const isEmail = (email: string) =>
  email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)

/** The embedded provider's accounts (e-mail + scrypt password hash) in `idp_accounts`. */
export class Accounts {
  constructor(private readonly db: Db) {}

  findByEmail(email: string): Promise<IdpAccount | undefined> {
    return findAccountByEmail(this.db, normalizeEmail(email))
  }

  findBySub(sub: string): Promise<IdpAccount | undefined> {
    return findAccountBySub(this.db, sub)
  }

  /** Creates an account; returns undefined when the e-mail is taken. */
  async create(input: {
    email: string
    name: string
    password: string
    permissions?: string[]
    orgId?: string
    orgName?: string
  }): Promise<IdpAccount | undefined> {
    return insertAccount(this.db, {
      sub: `veloptima|${randomUUID()}`,
      email: normalizeEmail(input.email),
      name: input.name.trim(),
      passwordHash: await hashPassword(input.password),
      permissions: input.permissions ?? [],
      orgId: input.orgId ?? null,
      orgName: input.orgName ?? null,
    })
  }

  /** The account when the password is right; undefined otherwise (same time either way). */
  async authenticate(email: string, password: string): Promise<IdpAccount | undefined> {
    const account = await this.findByEmail(email)
    // Hash even for an unknown e-mail, so timing does not tell which addresses exist.
    const ok = await verifyPassword(password, account?.passwordHash ?? DUMMY_HASH)
    return ok && account ? account : undefined
  }

  async setPassword(sub: string, password: string) {
    await setPasswordHash(this.db, sub, await hashPassword(password))
  }

  /** A one-time reset token valid for `ttlSeconds`; only its SHA-256 is stored. */
  async createResetToken(sub: string, ttlSeconds = 3600): Promise<string> {
    const token = randomBytes(32).toString('base64url')
    await insertResetToken(this.db, sha256(token), sub, new Date(Date.now() + ttlSeconds * 1000))
    return token
  }

  /** The account a live, unused reset token belongs to. */
  async findByResetToken(token: string): Promise<IdpAccount | undefined> {
    const sub = await findLiveResetToken(this.db, sha256(token))
    return sub ? this.findBySub(sub) : undefined
  }

  /** Sets the new password and burns the token; false when the token is no longer valid. */
  async resetPassword(token: string, password: string): Promise<IdpAccount | undefined> {
    const account = await this.findByResetToken(token)
    if (!account) return undefined
    if (!(await consumeResetToken(this.db, sha256(token)))) return undefined
    await this.setPassword(account.sub, password)
    return account
  }
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url')

// A real scrypt hash of a random password: verifying against it costs what a real check costs.
const DUMMY_HASH =
  'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$3pN8w5zQbY3JQ0sT3m6y4b0m0rD5m0YQf1a2b3c4d5e'
