// Failed sign-in counting shared by every process (issue 16, stateless API): two limiters on one
// database stand for two API processes; failures counted through either block on both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { and, eq } from 'drizzle-orm'
import { idpPayloads, type Database } from '@veloptima/db'
import { openTestDatabase, testDriver } from '@veloptima/db/testing'
import { sweepExpired } from '../src/idp/adapter.ts'
import { FailedAttempts, StoredFailedAttempts } from '../src/idp/rate-limit.ts'

describe(`stored failed-attempt limiter on ${testDriver()}`, () => {
  let database: Database
  beforeAll(async () => {
    database = await openTestDatabase()
  })
  afterAll(() => database.close())

  it('counts failures from two processes together and blocks on both, like the in-memory one', async () => {
    let now = 1_000_000
    const clock = () => now
    const a = new StoredFailedAttempts(database.db, 'email', 3, 60_000, clock)
    const b = new StoredFailedAttempts(database.db, 'email', 3, 60_000, clock)
    const memory = new FailedAttempts(3, 60_000, clock) // the reference: one process
    for (const limiter of [a, b, a]) {
      expect(await a.retryAfter('x@example.com')).toBe(0)
      await limiter.fail('x@example.com')
      memory.fail('x@example.com')
      now += 1000
    }
    // Failures at 0, 1 s and 2 s; now = 3 s: blocked until the first leaves at 60 s.
    expect(await a.retryAfter('x@example.com')).toBe(57)
    expect(await b.retryAfter('x@example.com')).toBe(memory.retryAfter('x@example.com'))
    expect(await b.retryAfter('y@example.com')).toBe(0)
    now = 1_000_000 + 60_001
    expect(await b.retryAfter('x@example.com')).toBe(0)
  })

  it('forgets a key on success, and keeps only the failures in the window', async () => {
    let now = 5_000_000
    const clock = () => now
    const a = new StoredFailedAttempts(database.db, 'address', 2, 10_000, clock)
    await a.fail('10.0.0.1')
    now += 20_000 // the first failure leaves the window
    await a.fail('10.0.0.1')
    const where = and(
      eq(idpPayloads.kind, 'FailedAttempts'),
      eq(idpPayloads.id, 'address:10.0.0.1'),
    )
    const [row] = await database.db.select().from(idpPayloads).where(where)
    expect(row?.payload).toEqual({ t: [now] })
    expect(row?.expiresAt?.getTime()).toBe(now + 10_000)
    await a.fail('10.0.0.1')
    expect(await a.retryAfter('10.0.0.1')).toBeGreaterThan(0)
    await a.clear('10.0.0.1')
    expect(await a.retryAfter('10.0.0.1')).toBe(0)
    expect(await database.db.select().from(idpPayloads).where(where)).toHaveLength(0)
  })

  it('expired counts are swept with the provider payloads', async () => {
    const past = new StoredFailedAttempts(database.db, 'signup', 10, 1000, () => 0)
    await past.fail('10.0.0.2') // expires at 1970-01-01T00:00:01Z
    expect(await sweepExpired(database.db)).toBeGreaterThanOrEqual(1)
    expect(await past.retryAfter('10.0.0.2')).toBe(0)
  })
})
