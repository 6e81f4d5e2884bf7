import { and, eq, sql } from 'drizzle-orm'
import { idpPayloads, type Db } from '@veloptima/db'

/**
 * Counts failed attempts per key (an e-mail, an address) in a sliding window. After `max`
 * failures the key is blocked until the oldest failure leaves the window. In memory, for one
 * process (tests, tools); the provider uses StoredFailedAttempts below.
 */
export class FailedAttempts {
  private readonly failures = new Map<string, number[]>()

  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private recent(key: string): number[] {
    const since = this.now() - this.windowMs
    const list = (this.failures.get(key) ?? []).filter((t) => t > since)
    if (list.length) this.failures.set(key, list)
    else this.failures.delete(key)
    return list
  }

  /** Seconds until the key may try again; 0 when it may try now. */
  retryAfter(key: string): number {
    const list = this.recent(key)
    if (list.length < this.max) return 0
    const oldest = list[list.length - this.max] ?? this.now()
    return Math.max(1, Math.ceil((oldest + this.windowMs - this.now()) / 1000))
  }

  fail(key: string) {
    const list = this.recent(key)
    list.push(this.now())
    this.failures.set(key, list)
  }

  clear(key: string) {
    this.failures.delete(key)
  }
}

/** What the sign-in pages need of a limiter: FailedAttempts (one process) or the stored one. */
export interface AttemptLimiter {
  retryAfter(key: string): number | Promise<number>
  fail(key: string): void | Promise<void>
  clear(key: string): void | Promise<void>
}

const KIND = 'FailedAttempts'

/**
 * FailedAttempts with its failures in the database (an `idp_payloads` row of kind
 * FailedAttempts per key, expiring with the window), so that every process of a scaled-out
 * installation counts the same failures. A failure is appended in one statement (no lost
 * update between processes); the rows are swept with the provider's expired payloads.
 */
export class StoredFailedAttempts implements AttemptLimiter {
  constructor(
    private readonly db: Db,
    private readonly scope: string,
    private readonly max: number,
    private readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  private where(key: string) {
    return and(eq(idpPayloads.kind, KIND), eq(idpPayloads.id, `${this.scope}:${key}`))
  }

  async retryAfter(key: string): Promise<number> {
    const [row] = await this.db
      .select({ payload: idpPayloads.payload })
      .from(idpPayloads)
      .where(this.where(key))
    const now = this.now()
    const since = now - this.windowMs
    const list = ((row?.payload.t as number[] | undefined) ?? []).filter((t) => t > since)
    if (list.length < this.max) return 0
    const oldest = list[list.length - this.max] ?? now
    return Math.max(1, Math.ceil((oldest + this.windowMs - now) / 1000))
  }

  async fail(key: string): Promise<void> {
    const now = this.now()
    const since = now - this.windowMs
    const expiresAt = new Date(now + this.windowMs)
    await this.db
      .insert(idpPayloads)
      .values({ kind: KIND, id: `${this.scope}:${key}`, payload: { t: [now] }, expiresAt })
      .onConflictDoUpdate({
        target: [idpPayloads.kind, idpPayloads.id],
        set: {
          // The failures still in the window, then this one.
          payload: sql`jsonb_build_object('t', coalesce((select jsonb_agg(x) from jsonb_array_elements(${idpPayloads.payload} -> 't') as x where x::text::bigint > ${since}), '[]'::jsonb) || to_jsonb(${now}::bigint))`,
          expiresAt,
        },
      })
  }

  async clear(key: string): Promise<void> {
    await this.db.delete(idpPayloads).where(this.where(key))
  }
}
