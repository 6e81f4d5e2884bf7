// The embedded provider's rows: accounts (`idp_accounts`), oidc-provider's payloads, reset
// tokens and sign-in limits (`idp_payloads`, one row per kind and id), and the secrets it keeps
// (`secrets`).
import { and, eq, gt, inArray, isNull, lt, sql } from 'drizzle-orm'
import { idpAccounts, idpPayloads, secrets, type Db } from '@veloptima/db'

export type IdpAccount = typeof idpAccounts.$inferSelect
export type NewIdpAccount = typeof idpAccounts.$inferInsert
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0]

// Accounts.

export async function findAccountByEmail(db: Db, email: string): Promise<IdpAccount | undefined> {
  const [row] = await db.select().from(idpAccounts).where(eq(idpAccounts.email, email))
  return row
}

export async function findAccountBySub(db: Db, sub: string): Promise<IdpAccount | undefined> {
  const [row] = await db.select().from(idpAccounts).where(eq(idpAccounts.sub, sub))
  return row
}

/** Inserts an account; undefined when its e-mail is taken. */
export async function insertAccount(
  db: Db,
  values: NewIdpAccount,
): Promise<IdpAccount | undefined> {
  const [row] = await db.insert(idpAccounts).values(values).onConflictDoNothing().returning()
  return row
}

export async function setPasswordHash(db: Db, sub: string, passwordHash: string): Promise<void> {
  await db.update(idpAccounts).set({ passwordHash }).where(eq(idpAccounts.sub, sub))
}

// oidc-provider's payloads (sessions, interactions, grants, codes, refresh tokens…).

export type PayloadRow = typeof idpPayloads.$inferSelect
export type PayloadValues = Pick<
  typeof idpPayloads.$inferInsert,
  'payload' | 'grantId' | 'userCode' | 'uid' | 'expiresAt'
>

/** Creates or replaces the payload of (kind, id). */
export async function storePayload(
  db: Db,
  kind: string,
  id: string,
  values: PayloadValues,
): Promise<void> {
  await db
    .insert(idpPayloads)
    .values({ kind, id, ...values })
    .onConflictDoUpdate({ target: [idpPayloads.kind, idpPayloads.id], set: values })
}

/** The payload of this kind whose id, user code or interaction uid is `value`. */
export async function findPayload(
  db: Db,
  kind: string,
  by: 'id' | 'userCode' | 'uid',
  value: string,
): Promise<PayloadRow | undefined> {
  const [row] = await db
    .select()
    .from(idpPayloads)
    .where(and(eq(idpPayloads.kind, kind), eq(idpPayloads[by], value)))
    .limit(1)
  return row
}

export async function consumePayload(db: Db, kind: string, id: string): Promise<void> {
  await db
    .update(idpPayloads)
    .set({ consumedAt: new Date() })
    .where(and(eq(idpPayloads.kind, kind), eq(idpPayloads.id, id)))
}

export async function deletePayload(db: Db, kind: string, id: string): Promise<void> {
  await db.delete(idpPayloads).where(and(eq(idpPayloads.kind, kind), eq(idpPayloads.id, id)))
}

/** Deletes every payload of a grant (its tokens and codes). */
export async function deleteGrantPayloads(db: Db, grantId: string): Promise<void> {
  await db.delete(idpPayloads).where(eq(idpPayloads.grantId, grantId))
}

/** Deletes expired payloads of every kind; returns how many went. */
export async function deleteExpiredPayloads(db: Db): Promise<number> {
  const gone = await db
    .delete(idpPayloads)
    .where(lt(idpPayloads.expiresAt, new Date()))
    .returning({ id: idpPayloads.id })
  return gone.length
}

// Password reset tokens, stored by their hash.

const RESET = 'PasswordReset'

export async function insertResetToken(
  db: Db,
  tokenHash: string,
  sub: string,
  expiresAt: Date,
): Promise<void> {
  await db.insert(idpPayloads).values({ kind: RESET, id: tokenHash, payload: { sub }, expiresAt })
}

/** The account (sub) of a reset token that is unused and unexpired by the database's clock. */
export async function findLiveResetToken(db: Db, tokenHash: string): Promise<string | undefined> {
  const [row] = await db
    .select()
    .from(idpPayloads)
    .where(
      and(
        eq(idpPayloads.kind, RESET),
        eq(idpPayloads.id, tokenHash),
        isNull(idpPayloads.consumedAt),
        sql`${idpPayloads.expiresAt} > now()`,
      ),
    )
  return (row?.payload as { sub?: string } | undefined)?.sub
}

/** Marks an unused reset token used; false when it was used already. */
export async function consumeResetToken(db: Db, tokenHash: string): Promise<boolean> {
  const used = await db
    .update(idpPayloads)
    .set({ consumedAt: new Date() })
    .where(
      and(
        eq(idpPayloads.kind, RESET),
        eq(idpPayloads.id, tokenHash),
        isNull(idpPayloads.consumedAt),
      ),
    )
    .returning({ id: idpPayloads.id })
  return used.length > 0
}

// Sign-in attempt counts and marks (idp/rate-limit.ts).

const LIMIT = 'SignInLimit'
const MARK = 'SignInMark'

export type AttemptCount = { hits: number; until: number }
export type AttemptCountRow = { id: string; count: Partial<AttemptCount>; expiresAt: Date | null }

/**
 * Creates or locks the count rows of these keys, in the order given (sort them: two takes then
 * never deadlock on PostgreSQL); a new row starts expired, i.e. with no attempts.
 */
export async function lockAttemptCounts(
  tx: Tx,
  ids: string[],
  now: number,
): Promise<AttemptCountRow[]> {
  const rows = await tx
    .insert(idpPayloads)
    .values(
      ids.map((id) => ({
        kind: LIMIT,
        id,
        payload: { hits: 0, until: 0 },
        expiresAt: new Date(now),
      })),
    )
    .onConflictDoUpdate({
      target: [idpPayloads.kind, idpPayloads.id],
      set: { kind: sql`excluded.kind` },
    })
    .returning({
      id: idpPayloads.id,
      payload: idpPayloads.payload,
      expiresAt: idpPayloads.expiresAt,
    })
  return rows.map((r) => ({
    id: r.id,
    count: r.payload as Partial<AttemptCount>,
    expiresAt: r.expiresAt,
  }))
}

export async function storeAttemptCount(
  tx: Tx,
  id: string,
  count: AttemptCount,
  expiresAt: Date,
): Promise<void> {
  await tx
    .update(idpPayloads)
    .set({ payload: count, expiresAt })
    .where(and(eq(idpPayloads.kind, LIMIT), eq(idpPayloads.id, id)))
}

/** Takes one hit off each live count of these keys (never below 0). */
export async function refundAttempts(db: Db, ids: string[], now: Date): Promise<void> {
  await db
    .update(idpPayloads)
    .set({
      payload: sql`jsonb_set(${idpPayloads.payload}, '{hits}', to_jsonb(greatest(0, (${idpPayloads.payload} ->> 'hits')::int - 1)))`,
    })
    .where(
      and(
        eq(idpPayloads.kind, LIMIT),
        inArray(idpPayloads.id, ids),
        gt(idpPayloads.expiresAt, now),
      ),
    )
}

export async function deleteAttemptCounts(db: Db, ids: string[]): Promise<void> {
  await db.delete(idpPayloads).where(and(eq(idpPayloads.kind, LIMIT), inArray(idpPayloads.id, ids)))
}

/** Of these marks, the ones set and unexpired at `now`. */
export async function liveMarks(tx: Tx, ids: string[], now: Date): Promise<Set<string>> {
  const found = await tx
    .select({ id: idpPayloads.id })
    .from(idpPayloads)
    .where(
      and(eq(idpPayloads.kind, MARK), inArray(idpPayloads.id, ids), gt(idpPayloads.expiresAt, now)),
    )
  return new Set(found.map((r) => r.id))
}

export async function setMark(db: Db, id: string, expiresAt: Date): Promise<void> {
  await db
    .insert(idpPayloads)
    .values({ kind: MARK, id, payload: {}, expiresAt })
    .onConflictDoUpdate({ target: [idpPayloads.kind, idpPayloads.id], set: { expiresAt } })
}

// Secrets.

/**
 * The secret named `name`, created by `create` when missing. When several processes create it
 * at once, every one of them gets the value that was stored first.
 */
export async function loadOrCreateSecret<T>(
  db: Db,
  name: string,
  create: () => Promise<T> | T,
): Promise<T> {
  const [existing] = await db.select().from(secrets).where(eq(secrets.name, name))
  if (existing) return existing.value as T
  await db
    .insert(secrets)
    .values({ name, value: await create() })
    .onConflictDoNothing()
  const [row] = await db.select().from(secrets).where(eq(secrets.name, name))
  if (!row) throw new Error(`secret ${name} is missing after insert`)
  return row.value as T
}
