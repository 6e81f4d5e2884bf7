import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, sql } from 'drizzle-orm'
import { openTestDatabase, testDriver } from '../src/testing.ts'
import { rows, users, type Database } from '../src/index.ts'

describe(`database client on ${testDriver()}`, () => {
  let database: Database
  beforeAll(async () => {
    database = await openTestDatabase()
  })
  afterAll(async () => {
    await database.close()
  })

  it('reports itself reachable and fully migrated', async () => {
    expect(await database.check()).toEqual({ reachable: true, migrated: true })
  })

  it('migrating twice changes nothing', async () => {
    await database.migrate()
    expect(await database.check()).toEqual({ reachable: true, migrated: true })
  })

  it('upserts and reads a user through the one repository code path', async () => {
    const { db } = database
    await db
      .insert(users)
      .values({ uid: 'auth0|1', email: 'a@example.com', displayName: 'A' })
      .onConflictDoUpdate({ target: users.uid, set: { displayName: 'A2' } })
    await db
      .insert(users)
      .values({ uid: 'auth0|1', email: 'a@example.com', displayName: 'A' })
      .onConflictDoUpdate({ target: users.uid, set: { displayName: 'A2' } })
    const [row] = await db.select().from(users).where(eq(users.uid, 'auth0|1'))
    expect(row?.displayName).toBe('A2')
    expect(await rows(db, sql`select count(*)::int as n from users`)).toEqual([{ n: 1 }])
  })

  it('delivers NOTIFY to a listener', async () => {
    const received: string[] = []
    const stop = await database.listen('test_channel', (p) => received.push(p))
    await database.db.execute(sql`select pg_notify('test_channel', 'hello')`)
    for (let i = 0; i < 50 && received.length === 0; i++)
      await new Promise((r) => setTimeout(r, 20))
    await stop()
    expect(received).toEqual(['hello'])
  })
})
