// Every list query reads only the columns it returns and walks an index in its keyset order:
// checked on the planner's own answer (EXPLAIN after ANALYZE) for tables of a few thousand
// rows spread over 200 owners, on the driver the suite runs against (DB_DRIVER=pg: PostgreSQL 15;
// default: PGlite). A list that fell back to reading the table would show a Seq Scan here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { desc, eq, sql, type SQL } from 'drizzle-orm'
import { optimizations, type Database } from '@veloptima/db'
import { openTestDatabase, testDriver } from '@veloptima/db/testing'
import type { OwnedCollection } from '../src/repositories/collection.ts'
import { listNotificationsQuery } from '../src/repositories/notifications.ts'
import { listResultsQuery } from '../src/repositories/results.ts'
import {
  aeroSessionRepo,
  courseRepo,
  deviceRepo,
  fileRepo,
  optimizationRepo,
  riderSetupRepo,
} from '../src/services/collection-specs.ts'

const OWNERS = 200
const ROWS = 8000
const TEAM = '00000000-0000-4000-8000-000000000001'
const ME = 'u1'
/** Items of the one caller of the big collection. */
const BIG = 5000

type PlanNode = {
  'Node Type': string
  'Index Name'?: string
  'Relation Name'?: string
  Plans?: PlanNode[]
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)]
}

/** Owner of row g: one of 200 users, every hundredth row the team's. */
const ownerUid = sql.raw(`case when g % 100 = 0 then null else 'u' || (g % ${OWNERS}) end`)
const ownerTeam = sql.raw(`case when g % 100 = 0 then '${TEAM}'::uuid end`)
const createdAt = sql.raw(`now() - g * interval '1 minute'`)
/** A track of 3 × 400 numbers: the weight a real course carries (kept out of lists). */
const heavyOf = (v: string) =>
  sql.raw(
    `(select jsonb_build_object('lat', a, 'lon', a, 'ele', a) from (select jsonb_agg(x + ${v}) as a from generate_series(1, 400) x) s)`,
  )
const heavy = heavyOf('g')

async function seed(database: Database) {
  const { db } = database
  const series = sql.raw(`generate_series(1, ${ROWS}) g`)
  await db.execute(
    sql`insert into users (uid, email) select 'u' || g, 'u' || g || '@example.com' from generate_series(0, ${OWNERS - 1}) g`,
  )
  await db.execute(sql`insert into teams (id, name) values (${TEAM}, 'Team')`)
  await db.execute(
    sql`insert into team_members (team_id, uid) values (${TEAM}, 'u1'), (${TEAM}, 'u2')`,
  )
  await db.execute(sql`insert into courses (owner_uid, owner_team, name, track, segments, created_at)
    select ${ownerUid}, ${ownerTeam}, 'Course ' || g, ${heavy}, '[]', ${createdAt} from ${series}`)
  await db.execute(sql`insert into courses (sample, name, track, created_at)
    select true, 'Sample ' || g, ${heavy}, ${createdAt} from generate_series(1, 5) g`)
  await db.execute(sql`insert into rider_setups (owner_uid, owner_team, name, rider_mass, bike_mass, positions, crr, created_at)
    select ${ownerUid}, ${ownerTeam}, 'Setup ' || g, 70, 8, '[]', '{}', ${createdAt} from ${series}`)
  await db.execute(sql`insert into optimizations (owner_uid, owner_team, type, name, inputs, created_at)
    select ${ownerUid}, ${ownerTeam}, (case when g % 2 = 0 then 'pacing' else 'equipment' end)::optimization_type,
      'Optimization ' || g, ${heavy}, ${createdAt} from ${series}`)
  await db.execute(sql`insert into devices (owner_uid, owner_team, serial, name, created_at)
    select ${ownerUid}, ${ownerTeam}, 'S' || g, 'Device ' || g, ${createdAt} from ${series}`)
  await db.execute(sql`insert into aero_sessions (owner_uid, owner_team, name, created_at)
    select ${ownerUid}, ${ownerTeam}, 'Session ' || g, ${createdAt} from ${series}`)
  await db.execute(sql`insert into files (owner_uid, owner_team, name, content_type, size, storage_key, sha256, created_at)
    select ${ownerUid}, ${ownerTeam}, 'f' || g || '.gpx', 'application/gpx+xml', 1000, 'key/' || g, 'x', ${createdAt} from ${series}`)
  await db.execute(sql`insert into notifications (uid, title, showed)
    select 'u' || (g % ${OWNERS}), 'Note ' || g, g % 3 = 0 from ${series}`)
  const [first] = await db
    .select({ id: optimizations.id })
    .from(optimizations)
    .where(eq(optimizations.ownerUid, ME))
    .orderBy(desc(optimizations.createdAt))
    .limit(1)
  await db.execute(sql`insert into optimization_results (optimization_id, version, inputs, result)
    select o.id, v, ${heavyOf('v')}, '{}'
    from (select id from optimizations order by created_at desc limit 200) o, generate_series(1, 20) v`)
  await db.execute(sql`analyze`)
  return first!.id
}

describe(`list queries on ${testDriver()}: only their columns, by index`, () => {
  let database: Database
  let optimizationId: string
  beforeAll(async () => {
    database = await openTestDatabase()
    optimizationId = await seed(database)
  }, 120_000)
  afterAll(() => database.close())

  async function plan(query: SQL | { getSQL(): SQL }): Promise<PlanNode[]> {
    const result = (await database.db.execute(sql`explain (format json) ${query}`)) as unknown as {
      rows: Record<string, unknown>[]
    }
    const raw = Object.values(result.rows[0]!)[0]
    const doc = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: PlanNode }[]
    return nodes(doc[0]!.Plan)
  }

  const indexUse = (all: PlanNode[]) =>
    all.filter((n) => n['Index Name']).map((n) => `${n['Node Type']} on ${n['Index Name']}`)
  const seqScans = (all: PlanNode[]) =>
    all.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name'])

  const owned: [string, OwnedCollection<{ id: string }>, string[]][] = [
    ['courses', courseRepo, ['courses_sample_keyset_idx']],
    ['rider_setups', riderSetupRepo, []],
    ['optimizations', optimizationRepo, []],
    ['devices', deviceRepo, []],
    ['aero_sessions', aeroSessionRepo, []],
    ['files', fileRepo, []],
  ]

  for (const [table, repo, extra] of owned) {
    it(`${table}: the caller's and their teams' page is read through the owner keyset indexes`, async () => {
      const all = await plan(repo.listQuery(database.db, ME, { limit: 50 }))
      expect(seqScans(all)).not.toContain(table)
      const used = indexUse(all).join('\n')
      for (const name of [
        `${table}_owner_uid_keyset_idx`,
        `${table}_owner_team_keyset_idx`,
        ...extra,
      ]) {
        expect(used).toContain(name)
      }
    })

    it(`${table}: owner=<me> pages walk the caller's keyset index after a cursor`, async () => {
      const rows = await repo.list(database.db, ME, { limit: 50, owners: [ME] })
      const last = rows[49] as unknown as { ts: string; id: string }
      const all = await plan(
        repo.listQuery(database.db, ME, { limit: 50, owners: [ME], cursor: last }),
      )
      expect(seqScans(all)).not.toContain(table)
      expect(indexUse(all).join('\n')).toContain(`${table}_owner_uid_keyset_idx`)
    })
  }

  it('optimizations?type=pacing still uses the owner keyset indexes', async () => {
    const filter = eq(optimizations.type, 'pacing')
    const all = await plan(optimizationRepo.listQuery(database.db, ME, { limit: 50, filter }))
    expect(seqScans(all)).not.toContain('optimizations')
    expect(indexUse(all).join('\n')).toContain('optimizations_owner_uid_keyset_idx')
  })

  it('notifications: by (uid, seq), with and without the showed filter', async () => {
    const every = await plan(listNotificationsQuery(database.db, ME, { limit: 50 }))
    expect(seqScans(every)).toEqual([])
    expect(indexUse(every).join('\n')).toContain('notifications_uid_seq_idx')
    const unshown = await plan(
      listNotificationsQuery(database.db, ME, { limit: 50, showed: false }),
    )
    expect(seqScans(unshown)).toEqual([])
    expect(indexUse(unshown).join('\n')).toMatch(/notifications_uid_(showed|seq)_idx/)
  })

  it('optimization results: by (optimization_id, version)', async () => {
    const all = await plan(listResultsQuery(database.db, ME, optimizationId, { limit: 20 }))
    expect(seqScans(all)).not.toContain('optimization_results')
    expect(indexUse(all).join('\n')).toContain('optimization_results_version_idx')
  })

  it('lists never select the heavy columns (course track and segments, result inputs and result)', async () => {
    const courseSql = courseRepo.listQuery(database.db, ME, { limit: 50 }).toSQL().sql
    expect(courseSql).toMatch(/"name"/)
    expect(courseSql).not.toMatch(/"track"|"segments"/)
    const fileSql = fileRepo.listQuery(database.db, ME, { limit: 50 }).toSQL().sql
    expect(fileSql).not.toMatch(/"storage_key"/)
    const resultSql = listResultsQuery(database.db, ME, optimizationId, { limit: 20 }).toSQL().sql
    expect(resultSql).toMatch(/"version"/)
    expect(resultSql).not.toMatch(/"(inputs|result)"/)
    // …and the rows that come back have no such keys, while a single course still has its track.
    const [row] = await courseRepo.list(database.db, ME, { limit: 1 })
    expect(Object.keys(row!)).not.toContain('track')
    expect(Object.keys(row!)).not.toContain('segments')
    const whole = await courseRepo.find(database.db, ME, row!.id)
    expect(whole?.track?.ele).toHaveLength(400)
  })

  it('the page is the one a plain search finds: newest 50 of mine, my team’s and samples', async () => {
    const page = await courseRepo.list(database.db, ME, { limit: 50 })
    const result = (await database.db.execute(sql`select id from courses
      where owner_uid = ${ME} or owner_team = ${TEAM} or sample
      order by created_at desc, id desc limit 51`)) as unknown as { rows: { id: string }[] }
    expect(page.map((r) => r.id)).toEqual(result.rows.map((r) => r.id))
  })
})

// One caller owning thousands of items (the bench's `big` scenario): the page must be
// read by walking the caller's keyset index backwards and stopping after `limit + 1` rows, not by
// fetching all of the caller's rows and sorting them. Checked on what the planner actually did
// (EXPLAIN ANALYZE): how many rows each scan of the table returned.
describe(`list queries on ${testDriver()}: one caller owning ${BIG} items`, () => {
  let database: Database
  const TEAM_A = '00000000-0000-4000-8000-00000000000a'
  const TEAM_B = '00000000-0000-4000-8000-00000000000b'
  beforeAll(async () => {
    database = await openTestDatabase()
    const { db } = database
    await db.execute(
      sql`insert into users (uid, email) values ('big', 'big@example.com'), ('other', 'other@example.com')`,
    )
    await db.execute(sql`insert into teams (id, name) values (${TEAM_A}, 'A'), (${TEAM_B}, 'B')`)
    await db.execute(
      sql`insert into team_members (team_id, uid) values (${TEAM_A}, 'big'), (${TEAM_B}, 'other')`,
    )
    // The caller's rows, the team's and another user's rows interleaved in time, and samples.
    const ownerOf = sql.raw(
      `case when g % 10 = 0 then null when g % 10 = 5 then null when g % 10 = 3 then 'other' else 'big' end`,
    )
    const teamOf = sql.raw(
      `case when g % 10 = 0 then '${TEAM_A}'::uuid when g % 10 = 5 then '${TEAM_B}'::uuid end`,
    )
    const series = sql.raw(`generate_series(1, ${Math.round((BIG * 10) / 7)}) g`)
    await db.execute(sql`insert into courses (owner_uid, owner_team, name, segments, created_at)
      select ${ownerOf}, ${teamOf}, 'Course ' || g, '[]', ${createdAt} from ${series}`)
    await db.execute(sql`insert into courses (sample, name, created_at)
      select true, 'Sample ' || g, now() - g * interval '7 minutes' from generate_series(1, 20) g`)
    await db.execute(sql`insert into optimizations (owner_uid, owner_team, type, name, inputs, created_at)
      select ${ownerOf}, ${teamOf}, (case when g % 4 < 2 then 'pacing' else 'equipment' end)::optimization_type,
        'Optimization ' || g, '{}', ${createdAt} from ${series}`)
    await db.execute(sql`analyze`)
  }, 120_000)
  afterAll(() => database.close())

  type Analyzed = PlanNode & {
    'Actual Rows'?: number
    'Actual Loops'?: number
    'Scan Direction'?: string
  }
  async function analyzed(query: { getSQL(): SQL }): Promise<Analyzed[]> {
    const result = (await database.db.execute(
      sql`explain (analyze, format json) ${query}`,
    )) as unknown as { rows: Record<string, unknown>[] }
    const raw = Object.values(result.rows[0]!)[0]
    const doc = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: Analyzed }[]
    return nodes(doc[0]!.Plan) as Analyzed[]
  }

  /** Rows the scans of `table` handed up, over all their loops. */
  const rowsRead = (all: Analyzed[], table: string) =>
    all
      .filter((n) => n['Relation Name'] === table)
      .reduce((sum, n) => sum + (n['Actual Rows'] ?? 0) * (n['Actual Loops'] ?? 1), 0)

  const cases: [string, string, () => { getSQL(): SQL }][] = [
    ['courses', 'first page', () => courseRepo.listQuery(database.db, 'big', { limit: 50 })],
    [
      'courses',
      'owner=<me>',
      () => courseRepo.listQuery(database.db, 'big', { limit: 50, owners: ['big'] }),
    ],
    [
      'courses',
      'owner=<me>,<team>',
      () => courseRepo.listQuery(database.db, 'big', { limit: 50, owners: ['big', TEAM_A] }),
    ],
    [
      'optimizations',
      'type=pacing',
      () =>
        optimizationRepo.listQuery(database.db, 'big', {
          limit: 50,
          filter: eq(optimizations.type, 'pacing'),
        }),
    ],
  ]

  for (const [table, what, query] of cases) {
    it(`${table}, ${what}: the caller's keyset index is walked backwards, ≤ limit + 1 rows per branch`, async () => {
      const all = await analyzed(query())
      const mine = all.filter((n) => n['Index Name'] === `${table}_owner_uid_keyset_idx`)
      expect(mine).toHaveLength(1)
      expect(mine[0]!['Node Type']).toMatch(/^Index (Only )?Scan$/)
      expect(mine[0]!['Scan Direction']).toBe('Backward')
      expect(mine[0]!['Actual Rows']).toBeLessThanOrEqual(51)
      expect(all.map((n) => n['Node Type'])).not.toContain('Bitmap Heap Scan')
      expect(
        all.filter((n) => n['Node Type'] === 'Seq Scan').map((n) => n['Relation Name']),
      ).not.toContain(table)
      // The caller's 5 000 rows, the team's and the samples: at most one page from each branch.
      expect(rowsRead(all, table)).toBeLessThanOrEqual(3 * 51)
      // No sort over more than the branches' pages.
      for (const sort of all.filter((n) => n['Node Type'] === 'Sort')) {
        expect(sort['Actual Rows']).toBeLessThanOrEqual(3 * 51)
      }
    })
  }

  it('a page deep in the caller’s items (by cursor) also reads one page per branch', async () => {
    const deep = (await database.db.execute(sql`select created_at::text as ts, id from courses
      where owner_uid = 'big' order by created_at desc, id desc offset ${BIG - 200} limit 1`)) as unknown as {
      rows: { ts: string; id: string }[]
    }
    const all = await analyzed(
      courseRepo.listQuery(database.db, 'big', { limit: 50, cursor: deep.rows[0]! }),
    )
    expect(rowsRead(all, 'courses')).toBeLessThanOrEqual(3 * 51)
    expect(all.map((n) => n['Index Name'])).toContain('courses_owner_uid_keyset_idx')
  })
})
