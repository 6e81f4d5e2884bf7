// Embedded PGlite in its own worker thread: the API's event loop keeps running while a
// query works, transactions stay serialised as they were in-process (docs/decisions/0005), and
// PostgreSQL's errors and types come back as drizzle expects them. Runs on PGlite whatever
// DB_DRIVER says: it is about the embedded database.
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import { openDatabase, rows, users, type Database } from '../src/index.ts'

describe('embedded PGlite in a worker thread', () => {
  let database: Database
  beforeAll(async () => {
    database = await openDatabase({ driver: 'pglite' })
    await database.migrate()
    await database.db.execute(sql`create table probe (v int primary key)`)
  })
  afterAll(async () => {
    await database.close()
  })

  it('keeps this thread free while a query runs', async () => {
    // Timer ticks every 5 ms while a CPU-bound query runs. In-process, the query's WASM would
    // hold the event loop for its whole duration (one gap as long as the query); in a thread the
    // ticks go on, so the longest gap is a small part of the query's time.
    let last = performance.now()
    let longestGap = 0
    let ticks = 0
    const timer = setInterval(() => {
      const now = performance.now()
      longestGap = Math.max(longestGap, now - last)
      last = now
      ticks++
    }, 5)
    const t0 = performance.now()
    const [row] = await rows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from generate_series(1, 4000000) g where g % 7 = 3`,
    )
    const queryMs = performance.now() - t0
    clearInterval(timer)
    // 4,000,000 / 7 rounded: the numbers ≡ 3 (mod 7) from 3 to 3,999,998.
    expect(row?.n).toBe(571429)
    expect(queryMs).toBeGreaterThan(100) // the query really worked for a while…
    expect(ticks).toBeGreaterThan(3) // …and the timer ran meanwhile,
    expect(longestGap).toBeLessThan(queryMs / 2) // never held up for most of it
  })

  it.runIf(process.platform === 'linux')(
    "runs at a lower priority than the process (nice + 5: the API's event loop goes first)",
    () => {
      // /proc/self/task/<tid>/stat: field 19 is the thread's nice value (proc(5)); the first
      // task is the process's main thread.
      const nice = readdirSync('/proc/self/task').map((tid) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8')
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])
      })
      const main = nice[0]!
      expect(nice).toContain(Math.min(19, main + 5))
    },
  )

  it('a statement outside an open transaction waits for it and survives its rollback', async () => {
    // The probe of docs/decisions/0005: through pglite-socket the outside INSERT ran inside the
    // open transaction and was undone by its rollback. Here it must wait, then stay.
    let outsideDone = false
    let outside: Promise<unknown> | undefined
    const failure = await database.db
      .transaction(async (tx) => {
        await tx.execute(sql`insert into probe values (1)`)
        outside = database.db
          .execute(sql`insert into probe values (2)`)
          .then(() => (outsideDone = true))
        for (let i = 0; i < 5; i++) await tx.execute(sql`select pg_sleep(0.02)`)
        expect(outsideDone).toBe(false)
        throw new Error('roll back')
      })
      .catch((error: Error) => error.message)
    expect(failure).toBe('roll back')
    await outside
    expect(outsideDone).toBe(true)
    expect(await rows(database.db, sql`select v from probe order by v`)).toEqual([{ v: 2 }])
  })

  it('commits a transaction and reads its own writes inside it', async () => {
    const seen = await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into probe values (3)`)
      const inside = await rows<{ n: number }>(tx, sql`select count(*)::int as n from probe`)
      return inside[0]!.n
    })
    expect(seen).toBe(2)
    expect(await rows(database.db, sql`select v from probe order by v`)).toEqual([
      { v: 2 },
      { v: 3 },
    ])
  })

  it('rolls back to a savepoint inside a transaction (drizzle nested transactions)', async () => {
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`insert into probe values (4)`)
      await tx
        .transaction(async (inner) => {
          await inner.execute(sql`insert into probe values (5)`)
          throw new Error('inner')
        })
        .catch(() => undefined)
    })
    expect(await rows(database.db, sql`select v from probe where v >= 4 order by v`)).toEqual([
      { v: 4 },
    ])
  })

  it("hands PostgreSQL's error fields back (the unique-violation retry reads code 23505)", async () => {
    const error = (await database.db.execute(sql`insert into probe values (2)`).then(
      () => undefined,
      (e: unknown) => e,
    )) as { cause?: { code?: string; constraint?: string; message?: string } }
    expect(error?.cause?.code).toBe('23505')
    expect(error?.cause?.constraint).toBe('probe_pkey')
    expect(error?.cause?.message).toMatch(/duplicate key/)
  })

  it('returns types as drizzle maps them: timestamps as text, jsonb parsed, int8 as a number', async () => {
    await database.db
      .insert(users)
      .values({ uid: 'thread|1', email: 't@example.com', displayName: 'T' })
    const [user] = await database.db.select().from(users).where(eq(users.uid, 'thread|1'))
    expect(user?.createdAt).toBeInstanceOf(Date)
    const [row] = await rows<{ t: unknown; j: unknown; n: unknown }>(
      database.db,
      sql`select '2026-01-02 03:04:05+00'::timestamptz as t, '{"a":[1,2]}'::jsonb as j, 7::int8 as n`,
    )
    expect(row).toEqual({ t: '2026-01-02 03:04:05+00', j: { a: [1, 2] }, n: 7 })
  })
})

describe('embedded PGlite in a worker thread, on disk', () => {
  const dir = mkdtempSync(join(tmpdir(), 'veloptima-pglite-thread-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  it('keeps what was written after close and reopen', async () => {
    const first = await openDatabase({ driver: 'pglite', dataDir: dir })
    await first.migrate()
    await first.db.insert(users).values({ uid: 'disk|1', email: 'd@example.com', displayName: 'D' })
    await first.close()
    const afterClose = await first.db.execute(sql`select 1`).catch((e: { cause?: Error }) => e)
    expect((afterClose as { cause?: Error }).cause?.message).toMatch(/closed/)
    const second = await openDatabase({ driver: 'pglite', dataDir: dir })
    try {
      expect(await second.check()).toEqual({ reachable: true, migrated: true })
      const found = await second.db.select().from(users).where(eq(users.uid, 'disk|1'))
      expect(found.map((u) => u.email)).toEqual(['d@example.com'])
    } finally {
      await second.close()
    }
  })
})
