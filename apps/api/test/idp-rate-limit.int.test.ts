// The sign-in attempt limits in the database (idp/rate-limit.ts), shared by every process: two
// limiters on one database stand for two API processes. An attempt is counted before the
// expensive work it guards, so concurrent attempts get through no more often than the limit.
import { describe, expect, it } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { idpPayloads } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import { sweepExpired } from '../src/idp/adapter.ts'
import { AttemptLimits, type LimitRule } from '../src/idp/rate-limit.ts'
import { suiteDatabase } from './helpers.ts'

const MINUTE = 60_000

describe(`sign-in attempt limits on ${testDriver()}`, () => {
  const database = suiteDatabase()
  /** The attempts counted in the row of `key`. */
  const hitsOf = async (key: string) => {
    const [row] = await database.db
      .select()
      .from(idpPayloads)
      .where(and(eq(idpPayloads.kind, 'SignInLimit'), eq(idpPayloads.id, key)))
    return row?.payload.hits
  }

  it('lets exactly `limit` of 60 concurrent attempts from two processes through', async () => {
    const rule: LimitRule = { type: 'window', limit: 7, windowMs: MINUTE }
    const a = new AttemptLimits(database.db)
    const b = new AttemptLimits(database.db)
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).take([{ key: 'burst', rule }])),
    )
    expect(results.filter((r) => r.ok)).toHaveLength(7)
    const refused = results.filter((r) => !r.ok)
    expect(refused).toHaveLength(53)
    for (const r of refused) expect(r.retryAfter).toBeGreaterThan(0)
    // Refused attempts are not counted: the row holds the 7 that got through.
    expect(await hitsOf('burst')).toBe(7)
  })

  it('refuses after the window is full until it ends, then opens a new one', async () => {
    let now = 1_000_000
    const a = new AttemptLimits(database.db, () => now)
    const key = { key: 'window', rule: { type: 'window', limit: 3, windowMs: MINUTE } as const }
    for (let i = 0; i < 3; i++) {
      expect((await a.take([key])).ok).toBe(true)
      now += 1000
    }
    // Attempts at 0, 1 s and 2 s; now = 3 s: refused until the window that began at 0 ends.
    expect(await a.take([key])).toMatchObject({ ok: false, retryAfter: 57 })
    now = 1_000_000 + MINUTE
    expect((await a.take([key])).ok).toBe(true)
  })

  it('backs off after the limit: 1 min, then 2, 4 … up to the cap', async () => {
    let now = 2_000_000
    const a = new AttemptLimits(database.db, () => now)
    const rule: LimitRule = {
      type: 'backoff',
      limit: 3,
      baseMs: MINUTE,
      capMs: 5 * MINUTE,
      forgetMs: 60 * MINUTE,
    }
    const key = { key: 'pair', rule }
    for (let i = 0; i < 3; i++) expect((await a.take([key])).ok).toBe(true)
    const waits: number[] = []
    for (let i = 0; i < 5; i++) {
      const refused = await a.take([key])
      if (refused.ok) throw new Error('expected a refusal')
      waits.push(refused.retryAfter)
      now += refused.retryAfter * 1000
      expect((await a.take([key])).ok).toBe(true) // the one attempt after the block
    }
    expect(waits).toEqual([60, 120, 240, 300, 300])
    // Forgotten an hour after the last block ended: the limit applies afresh.
    now += 300_000 + 60 * MINUTE
    for (let i = 0; i < 3; i++) expect((await a.take([key])).ok).toBe(true)
    expect(await a.take([key])).toMatchObject({ ok: false, retryAfter: 60 })
  })

  it('counts on every key or on none, and reports the key that refused', async () => {
    const a = new AttemptLimits(database.db)
    const narrow = { key: 'narrow', rule: { type: 'window', limit: 1, windowMs: MINUTE } as const }
    const wide = { key: 'wide', rule: { type: 'window', limit: 10, windowMs: MINUTE } as const }
    expect(await a.take([narrow, wide])).toEqual({ ok: true, counted: ['narrow', 'wide'] })
    const refused = await a.take([narrow, wide])
    expect(refused).toMatchObject({ ok: false, blockedBy: narrow })
    expect(await hitsOf('wide')).toBe(1)
  })

  it('gives an attempt back, forgets a key, and skips a key whose mark is set', async () => {
    const a = new AttemptLimits(database.db)
    const rule = { type: 'window', limit: 1, windowMs: MINUTE } as const
    const key = { key: 'one', rule, unless: 'exempt' }
    expect((await a.take([key])).ok).toBe(true)
    expect((await a.take([key])).ok).toBe(false)
    await a.refund(['one'])
    expect((await a.take([key])).ok).toBe(true)
    await a.clear(['one'])
    expect((await a.take([key])).ok).toBe(true)
    expect((await a.take([key])).ok).toBe(false)
    await a.mark('exempt', MINUTE)
    expect(await a.take([key])).toEqual({ ok: true, counted: [] })
  })

  it('expired counts are swept with the provider payloads', async () => {
    const past = new AttemptLimits(database.db, () => 0)
    await past.take([{ key: 'old', rule: { type: 'window', limit: 1, windowMs: 1000 } }])
    const where = and(eq(idpPayloads.kind, 'SignInLimit'), eq(idpPayloads.id, 'old'))
    expect(await database.db.select().from(idpPayloads).where(where)).toHaveLength(1)
    expect(await sweepExpired(database.db)).toBeGreaterThanOrEqual(1)
    expect(await database.db.select().from(idpPayloads).where(where)).toHaveLength(0)
  })
})
