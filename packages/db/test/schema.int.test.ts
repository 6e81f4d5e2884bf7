import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq } from 'drizzle-orm'
import { openTestDatabase, testDriver } from '../src/testing.ts'
import {
  courses,
  jobs,
  notifications,
  optimizationResults,
  optimizations,
  riderSetups,
  teamMembers,
  teams,
  users,
  type Database,
} from '../src/index.ts'

const setup = {
  name: 'S',
  riderMass: 70,
  bikeMass: 8,
  positions: [{ name: 'p', cda: 0.3, min_speed: 0, max_speed: 20 }],
  crr: { smooth: 0.003, normal: 0.004, rough: 0.006 },
}

describe(`platform schema constraints on ${testDriver()}`, () => {
  let database: Database
  let teamId: string
  beforeAll(async () => {
    database = await openTestDatabase()
    const { db } = database
    await db.insert(users).values([
      { uid: 'u1', email: 'u1@example.com' },
      { uid: 'u2', email: 'u2@example.com' },
    ])
    const [team] = await db.insert(teams).values({ name: 'T' }).returning()
    teamId = team!.id
    await db.insert(teamMembers).values({ teamId, uid: 'u1', role: 'owner' })
  })
  afterAll(() => database.close())

  it('an owned item has exactly one owner: a user or a team', async () => {
    const { db } = database
    await expect(db.insert(riderSetups).values(setup)).rejects.toThrow()
    await expect(
      db.insert(riderSetups).values({ ...setup, ownerUid: 'u1', ownerTeam: teamId }),
    ).rejects.toThrow()
    await db.insert(riderSetups).values({ ...setup, ownerUid: 'u1' })
    await db.insert(riderSetups).values({ ...setup, ownerTeam: teamId })
  })

  it('only sample courses may have no owner', async () => {
    const { db } = database
    await expect(db.insert(courses).values({ name: 'orphan' })).rejects.toThrow()
    await db.insert(courses).values({ name: 'sample', sample: true })
    await expect(
      db.insert(courses).values({ name: 'x', sample: true, ownerUid: 'u1', ownerTeam: teamId }),
    ).rejects.toThrow()
  })

  it('deleting a user or a team deletes what they own; a deleted setup leaves optimizations', async () => {
    const { db } = database
    const [s] = await db
      .insert(riderSetups)
      .values({ ...setup, ownerUid: 'u2' })
      .returning()
    const [o] = await db
      .insert(optimizations)
      .values({ ownerUid: 'u1', type: 'pacing', name: 'o', riderSetupId: s!.id })
      .returning()
    await db.delete(users).where(eq(users.uid, 'u2'))
    expect(await db.select().from(riderSetups).where(eq(riderSetups.id, s!.id))).toEqual([])
    const [after] = await db.select().from(optimizations).where(eq(optimizations.id, o!.id))
    expect(after!.riderSetupId).toBeNull()
    const [t2] = await db.insert(teams).values({ name: 'T2' }).returning()
    const [ts] = await db
      .insert(riderSetups)
      .values({ ...setup, ownerTeam: t2!.id })
      .returning()
    await db.delete(teams).where(eq(teams.id, t2!.id))
    expect(await db.select().from(riderSetups).where(eq(riderSetups.id, ts!.id))).toEqual([])
  })

  it('result versions are unique per optimization, and one job makes at most one result', async () => {
    const { db } = database
    const [o] = await db
      .insert(optimizations)
      .values({ ownerUid: 'u1', type: 'equipment', name: 'e' })
      .returning()
    const [job] = await db.insert(jobs).values({ ownerUid: 'u1', kind: 'optimization' }).returning()
    const row = { optimizationId: o!.id, inputs: {} }
    await db.insert(optimizationResults).values({ ...row, version: 1, jobId: job!.id })
    await expect(db.insert(optimizationResults).values({ ...row, version: 1 })).rejects.toThrow()
    await expect(
      db.insert(optimizationResults).values({ ...row, version: 2, jobId: job!.id }),
    ).rejects.toThrow()
    await db.insert(optimizationResults).values({ ...row, version: 2 })
  })

  it('notification seq increases, and inserting one raises NOTIFY veloptima_live', async () => {
    const received: string[] = []
    const stop = await database.listen('veloptima_live', (p) => received.push(p))
    const [a] = await database.db
      .insert(notifications)
      .values({ uid: 'u1', title: 'a' })
      .returning()
    const [b] = await database.db
      .insert(notifications)
      .values({ uid: 'u1', title: 'b' })
      .returning()
    for (let i = 0; i < 50 && received.length < 2; i++) await new Promise((r) => setTimeout(r, 20))
    await stop()
    expect(b!.seq).toBeGreaterThan(a!.seq)
    expect(received.map((p) => JSON.parse(p))).toEqual([
      { t: 'notification', uid: 'u1', seq: a!.seq },
      { t: 'notification', uid: 'u1', seq: b!.seq },
    ])
  })
})
