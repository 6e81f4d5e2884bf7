import { isIPv6 } from 'node:net'
import type { Db } from '@veloptima/db'
import {
  deleteAttemptCounts,
  liveMarks,
  lockAttemptCounts,
  refundAttempts,
  setMark,
  storeAttemptCount,
  type AttemptCount,
} from './repository.ts'

/**
 * How one key is limited.
 * - `window`: at most `limit` attempts in a fixed window of `windowMs` that starts with the
 *   first attempt; then refused until the window ends.
 * - `backoff`: `limit` attempts, the last of which starts a block of `baseMs`; each further
 *   attempt (allowed once the block ended) doubles it, up to `capMs`. The count is forgotten
 *   `forgetMs` after the last attempt or the end of the last block, or when cleared (a success).
 */
export type LimitRule =
  | { type: 'window'; limit: number; windowMs: number }
  | { type: 'backoff'; limit: number; baseMs: number; capMs: number; forgetMs: number }

/** A key to count an attempt on; `unless` names a mark (see `mark`) that exempts it. */
export type LimitedKey = { key: string; rule: LimitRule; unless?: string }

/** Allowed (with the keys it was counted on), or refused for `retryAfter` seconds by a key. */
export type Taken =
  { ok: true; counted: string[] } | { ok: false; retryAfter: number; blockedBy: LimitedKey }

type State = AttemptCount

/** The state a rule sees at `now`, before this attempt. */
function current(rule: LimitRule, state: State, now: number): State {
  if (rule.type === 'window' && state.until <= now) return { hits: 0, until: now + rule.windowMs }
  return state
}

/** Milliseconds until the key may be tried again; 0 when it may be tried now. */
function wait(rule: LimitRule, state: State, now: number): number {
  if (rule.type === 'window') return state.hits >= rule.limit ? state.until - now : 0
  return Math.max(0, state.until - now)
}

/** The state after this attempt, and when its row may be forgotten. */
function counted(rule: LimitRule, state: State, now: number): { state: State; expiresAt: number } {
  const hits = state.hits + 1
  if (rule.type === 'window') return { state: { hits, until: state.until }, expiresAt: state.until }
  const until =
    hits >= rule.limit
      ? now + Math.min(rule.capMs, rule.baseMs * 2 ** Math.min(hits - rule.limit, 30))
      : state.until
  return { state: { hits, until }, expiresAt: Math.max(now, until) + rule.forgetMs }
}

/**
 * Attempt limits kept in the database (`idp_payloads` rows of kind SignInLimit, swept with the
 * provider's expired payloads), shared by every process. `take` counts an attempt on all its
 * keys in one transaction that locks their rows, BEFORE the caller does the expensive part (a
 * password hash): of N concurrent attempts only those the limits allow get through, the rest
 * are refused without counting. docs/limits-signin.md describes the limits of the sign-in pages.
 */
export class AttemptLimits {
  constructor(
    private readonly db: Db,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts one attempt on every key, or none when one of them refuses it. */
  async take(keys: LimitedKey[]): Promise<Taken> {
    const now = this.now()
    const ids = [...new Set(keys.map((k) => k.key))].sort()
    const marks = [...new Set(keys.flatMap((k) => (k.unless ? [k.unless] : [])))]
    return this.db.transaction(async (tx) => {
      // Create-or-lock the rows in one order (no deadlock between two takes on PostgreSQL).
      const rows = await lockAttemptCounts(tx, ids, now)
      const marked = marks.length ? await liveMarks(tx, marks, new Date(now)) : new Set<string>()
      const stored = new Map(
        rows.map((r) => {
          const live = (r.expiresAt?.getTime() ?? 0) > now
          const p = r.count
          return [r.id, live ? { hits: p.hits ?? 0, until: p.until ?? 0 } : { hits: 0, until: 0 }]
        }),
      )
      const applying = keys.filter((k) => !(k.unless && marked.has(k.unless)))
      let refused: { ms: number; key: LimitedKey } | undefined
      for (const key of applying) {
        const ms = wait(key.rule, current(key.rule, stored.get(key.key)!, now), now)
        if (ms > 0 && (!refused || ms > refused.ms)) refused = { ms, key }
      }
      if (refused) {
        return { ok: false, retryAfter: Math.ceil(refused.ms / 1000), blockedBy: refused.key }
      }
      for (const key of applying) {
        const next = counted(key.rule, current(key.rule, stored.get(key.key)!, now), now)
        await storeAttemptCount(tx, key.key, next.state, new Date(next.expiresAt))
      }
      return { ok: true, counted: applying.map((k) => k.key) }
    })
  }

  /** Gives back the attempt counted on these keys (a success: only failures should count). */
  async refund(keys: string[]): Promise<void> {
    if (keys.length === 0) return
    await refundAttempts(this.db, keys, new Date(this.now()))
  }

  /** Forgets the attempts of these keys. */
  async clear(keys: string[]): Promise<void> {
    if (keys.length === 0) return
    await deleteAttemptCounts(this.db, keys)
  }

  /** Sets a mark for `ttlMs` (a key's `unless`). */
  async mark(id: string, ttlMs: number): Promise<void> {
    await setMark(this.db, id, new Date(this.now() + ttlMs))
  }
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE

/** The limits of the sign-in pages (docs/limits-signin.md). */
export const SIGN_IN_LIMITS = {
  /** One e-mail from one client address: 5 tries, then 1 min, 2, 4 … at most 1 hour. */
  pair: { type: 'backoff', limit: 5, baseMs: MINUTE, capMs: HOUR, forgetMs: 24 * HOUR },
  /** One e-mail from all addresses that have not signed in to it lately: 50 an hour. */
  email: { type: 'window', limit: 50, windowMs: HOUR },
  /** One client address, all e-mails: 20 failed tries in 15 minutes. */
  address: { type: 'window', limit: 20, windowMs: 15 * MINUTE },
  /** New accounts from one client address: 10 an hour. */
  signup: { type: 'window', limit: 10, windowMs: HOUR },
  /** Reset e-mails to one address: 5 in 15 minutes. */
  reset: { type: 'window', limit: 5, windowMs: 15 * MINUTE },
} satisfies Record<string, LimitRule>

/** How long an address that signed in to an account is exempt from the account's ceiling. */
export const KNOWN_ADDRESS_MS = 30 * 24 * HOUR

/**
 * The address the limits count a client by: an IPv4 address as is (also when mapped into
 * IPv6), an IPv6 address by its /64 network, which one subscriber usually holds whole.
 */
export function clientAddress(ip: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)
  if (mapped) return mapped[1]!
  if (!isIPv6(ip)) return ip
  const [head = '', tail = ''] = ip.split('%')[0]!.split('::')
  const left = head ? head.split(':') : []
  const right = ip.includes('::') && tail ? tail.split(':') : []
  // An embedded IPv4 tail counts as two groups; only the first four groups are kept anyway.
  const groups = [
    ...left,
    ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'),
    ...right,
  ]
  return `${groups
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`
}
