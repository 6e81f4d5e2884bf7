import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { and, eq, isNull, sql } from 'drizzle-orm'
import { idpAccounts, idpPayloads, type Db } from '@veloptima/db'
import { hashPassword, verifyPassword } from './passwords.ts'

export type IdpAccount = typeof idpAccounts.$inferSelect

export const normalizeEmail = (email: string) => email.trim().toLowerCase()

/** A valid-looking address: something@something.tld, no spaces, at most 254 characters. */
export const isEmail = (email: string) =>
  email.length <= 254 && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)

/** The embedded provider's accounts (e-mail + scrypt password hash) in `idp_accounts`. */
export class Accounts {
  constructor(private readonly db: Db) {}

  async findByEmail(email: string): Promise<IdpAccount | undefined> {
    const [row] = await this.db
      .select()
      .from(idpAccounts)
      .where(eq(idpAccounts.email, normalizeEmail(email)))
    return row
  }

  async findBySub(sub: string): Promise<IdpAccount | undefined> {
    const [row] = await this.db.select().from(idpAccounts).where(eq(idpAccounts.sub, sub))
    return row
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
    const [row] = await this.db
      .insert(idpAccounts)
      .values({
        sub: `veloptima|${randomUUID()}`,
        email: normalizeEmail(input.email),
        name: input.name.trim(),
        passwordHash: await hashPassword(input.password),
        permissions: input.permissions ?? [],
        orgId: input.orgId ?? null,
        orgName: input.orgName ?? null,
      })
      .onConflictDoNothing()
      .returning()
    return row
  }

  /** The account when the password is right; undefined otherwise (same time either way). */
  async authenticate(email: string, password: string): Promise<IdpAccount | undefined> {
    const account = await this.findByEmail(email)
    // Hash even for an unknown e-mail, so timing does not tell which addresses exist.
    const ok = await verifyPassword(password, account?.passwordHash ?? DUMMY_HASH)
    return ok && account ? account : undefined
  }

  async setPassword(sub: string, password: string) {
    await this.db
      .update(idpAccounts)
      .set({ passwordHash: await hashPassword(password) })
      .where(eq(idpAccounts.sub, sub))
  }

  /** A one-time reset token valid for `ttlSeconds`; only its SHA-256 is stored. */
  async createResetToken(sub: string, ttlSeconds = 3600): Promise<string> {
    const token = randomBytes(32).toString('base64url')
    await this.db.insert(idpPayloads).values({
      kind: 'PasswordReset',
      id: sha256(token),
      payload: { sub },
      expiresAt: new Date(Date.now() + ttlSeconds * 1000),
    })
    return token
  }

  /** The account a live, unused reset token belongs to. */
  async findByResetToken(token: string): Promise<IdpAccount | undefined> {
    const [row] = await this.db
      .select()
      .from(idpPayloads)
      .where(
        and(
          eq(idpPayloads.kind, 'PasswordReset'),
          eq(idpPayloads.id, sha256(token)),
          isNull(idpPayloads.consumedAt),
          sql`${idpPayloads.expiresAt} > now()`,
        ),
      )
    const sub = (row?.payload as { sub?: string } | undefined)?.sub
    return sub ? this.findBySub(sub) : undefined
  }

  /** Sets the new password and burns the token; false when the token is no longer valid. */
  async resetPassword(token: string, password: string): Promise<IdpAccount | undefined> {
    const account = await this.findByResetToken(token)
    if (!account) return undefined
    const used = await this.db
      .update(idpPayloads)
      .set({ consumedAt: new Date() })
      .where(
        and(
          eq(idpPayloads.kind, 'PasswordReset'),
          eq(idpPayloads.id, sha256(token)),
          isNull(idpPayloads.consumedAt),
        ),
      )
      .returning({ id: idpPayloads.id })
    if (used.length === 0) return undefined
    await this.setPassword(account.sub, password)
    return account
  }
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('base64url')

// A real scrypt hash of a random password: verifying against it costs what a real check costs.
const DUMMY_HASH =
  'scrypt$32768$8$1$AAAAAAAAAAAAAAAAAAAAAA$3pN8w5zQbY3JQ0sT3m6y4b0m0rD5m0YQf1a2b3c4d5e'
