// The list query reads each owner scope as its own keyset branch (the caller's items, their
// teams' items, the samples) and merges them (collection.ts `listQuery`). Its pages must be
// exactly what one plain query over the whole scope answers:
//   select … where <scope> and <filter> and (created_at, id) < <cursor>
//   order by created_at desc, id desc limit n
// checked here for random cursors, page sizes and `owner=` filters, with timestamps shared by
// several rows (the id breaks ties), a team the caller left and another user's team, on the
// driver the suite runs against (DB_DRIVER=pg: PostgreSQL; default: PGlite). The prepared
// statement of plain pages (services/collections.ts) is walked page by page as well.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { eq, sql, type SQL } from 'drizzle-orm'
import { optimizations, type Database } from '@veloptima/db'
import { openTestDatabase, testDriver } from '@veloptima/db/testing'
import type { OwnedCollection } from '../src/repositories/collection.ts'
import { decodeCursor, type Cursor } from '../src/repositories/pagination.ts'
import { CollectionService } from '../src/services/collections.ts'
import {
  courseRepo,
  courseSpec,
  optimizationRepo,
  optimizationSpec,
} from '../src/services/collection-specs.ts'

const ME = 'me'
const A = '00000000-0000-4000-8000-00000000000a'
const B = '00000000-0000-4000-8000-00000000000b'
/** A team the caller was in and left. */
const LEFT = '00000000-0000-4000-8000-00000000000c'
/** Another user's team. */
const THEIRS = '00000000-0000-4000-8000-00000000000d'
const ROWS = 1200

/** Deterministic random numbers (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed)
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Row = { id: string; ts: string }

describe(`list scopes on ${testDriver()}: the merged branches answer what one plain query does`, () => {
  let database: Database
  beforeAll(async () => {
    database = await openTestDatabase()
    const { db } = database
    await db.execute(
      sql`insert into users (uid, email) values (${ME}, 'me@example.com'), ('other', 'o@example.com')`,
    )
    await db.execute(
      sql`insert into teams (id, name) values (${A}, 'A'), (${B}, 'B'), (${LEFT}, 'Left'), (${THEIRS}, 'Theirs')`,
    )
    await db.execute(sql`insert into team_members (team_id, uid) values
      (${A}, ${ME}), (${B}, ${ME}), (${LEFT}, ${ME}), (${LEFT}, 'other'), (${THEIRS}, 'other')`)
    await db.execute(sql`delete from team_members where team_id = ${LEFT} and uid = ${ME}`)
    // By g % 12: 0–4 mine, 5–6 team A, 7 team B, 8 the left team, 9 their team, 10–11 another user.
    // Three rows share each timestamp.
    const uid = sql.raw(`case when g % 12 < 5 then '${ME}' when g % 12 >= 10 then 'other' end`)
    const team = sql.raw(`case g % 12 when 5 then '${A}'::uuid when 6 then '${A}'::uuid
      when 7 then '${B}'::uuid when 8 then '${LEFT}'::uuid when 9 then '${THEIRS}'::uuid end`)
    const at = sql.raw(
      `timestamptz '2026-01-01 12:00:00.123456+00' - (g / 3) * interval '1 minute'`,
    )
    const series = sql.raw(`generate_series(1, ${ROWS}) g`)
    await db.execute(sql`insert into courses (owner_uid, owner_team, name, segments, created_at)
      select ${uid}, ${team}, 'Course ' || g, '[]', ${at} from ${series}`)
    await db.execute(sql`insert into courses (sample, name, created_at)
      select true, 'Sample ' || g, ${at} from generate_series(1, ${ROWS}, 40) g`)
    await db.execute(sql`insert into optimizations (owner_uid, owner_team, type, name, inputs, created_at)
      select ${uid}, ${team}, (case when g % 5 < 2 then 'pacing' else 'equipment' end)::optimization_type,
        'Optimization ' || g, '{}', ${at} from ${series}`)
    await db.execute(sql`analyze`)
  }, 120_000)
  afterAll(() => database.close())

  /** The scope as one condition, written out from the rules (not from ownership.ts). */
  function scope(table: string, owners: string[] | undefined): SQL {
    const myTeams = sql`(select team_id from team_members where uid = ${ME})`
    if (!owners) {
      return sql.join(
        [
          sql`owner_uid = ${ME}`,
          sql`owner_team in ${myTeams}`,
          ...(table === 'courses' ? [sql`sample`] : []),
        ],
        sql` or `,
      )
    }
    const parts: SQL[] = []
    if (owners.includes(ME)) parts.push(sql`owner_uid = ${ME}`)
    const teams = owners.filter((o) => /^[0-9a-f-]{36}$/.test(o))
    if (teams.length) {
      parts.push(
        sql`(owner_team::text in (${sql.join(
          teams.map((t) => sql`${t}`),
          sql`, `,
        )}) and owner_team in ${myTeams})`,
      )
    }
    return parts.length ? sql.join(parts, sql` or `) : sql`false`
  }

  async function reference(
    table: string,
    o: { limit: number; cursor?: Cursor; owners?: string[]; filter?: SQL },
  ): Promise<Row[]> {
    const after = o.cursor
      ? sql`and (created_at, id) < (${o.cursor.ts}::timestamptz, ${o.cursor.id}::uuid)`
      : sql``
    const result = (await database.db.execute(sql`select id, created_at::text as ts
      from ${sql.identifier(table)} where (${scope(table, o.owners)}) ${o.filter ? sql`and ${o.filter}` : sql``} ${after}
      order by created_at desc, id desc limit ${o.limit}`)) as unknown as { rows: Row[] }
    return result.rows
  }

  async function everyRow(table: string): Promise<Row[]> {
    const result = (await database.db.execute(
      sql`select id, created_at::text as ts from ${sql.identifier(table)}`,
    )) as unknown as { rows: Row[] }
    return result.rows
  }

  const ownerChoices: (string[] | undefined)[] = [
    undefined,
    [ME],
    [A],
    [ME, B],
    [A, B],
    [LEFT],
    [THEIRS, ME],
    ['other'],
    [ME, A, B, LEFT, THEIRS, 'other', 'not-an-id'],
  ]

  const collections: [string, OwnedCollection<{ id: string }>, SQL | undefined][] = [
    ['courses', courseRepo, undefined],
    ['optimizations', optimizationRepo, undefined],
    ['optimizations', optimizationRepo, eq(optimizations.type, 'pacing')],
  ]

  for (const [table, repo, filter] of collections) {
    it(`${table}${filter ? ' (type=pacing)' : ''}: random cursors, page sizes and owners`, async () => {
      const rand = random(table.length * 7 + (filter ? 1 : 0))
      const rows = await everyRow(table)
      let compared = 0
      for (let i = 0; i < 80; i++) {
        const limit = [1, 2, 7, 50, 120][Math.floor(rand() * 5)]!
        const owners = ownerChoices[Math.floor(rand() * ownerChoices.length)]
        const at = rows[Math.floor(rand() * rows.length)]!
        const cursor = rand() < 0.2 ? undefined : { ts: at.ts, id: at.id }
        const o = { limit, cursor, owners, filter }
        const got = (await repo.list(database.db, ME, o)).map((r) => ({ id: r.id, ts: r.ts }))
        const want = await reference(table, { ...o, limit: limit + 1 })
        expect(got, JSON.stringify({ limit, cursor, owners })).toEqual(want)
        compared += want.length
      }
      expect(compared).toBeGreaterThan(500)
    })
  }

  it('items of the team the caller left and of other users never appear', async () => {
    const page = await courseRepo.list(database.db, ME, { limit: 2000 })
    const owners = new Set(
      page
        .map((r) => r as unknown as { ownerUid: string | null; ownerTeam: string | null })
        .map((r) => r.ownerTeam ?? r.ownerUid ?? 'sample'),
    )
    expect([...owners].sort()).toEqual([A, B, ME, 'sample'].sort())
    // 5 of 12 mine, 3 of 12 my teams', one sample per 40 rows.
    expect(page).toHaveLength((ROWS * 8) / 12 + ROWS / 40)
    expect(await courseRepo.list(database.db, ME, { limit: 50, owners: [LEFT] })).toEqual([])
  })

  for (const [table, spec] of [
    ['courses', courseSpec],
    ['optimizations', optimizationSpec],
  ] as const) {
    it(`${table}: the prepared plain list, walked by next_cursor, is the whole scope in order`, async () => {
      const service = new CollectionService(database.db, spec as never)
      const want = await reference(table, { limit: 100_000 })
      for (const limit of [1, 37]) {
        const seen: string[] = []
        let cursor: string | undefined
        for (let pages = 0; pages < 2000; pages++) {
          const page = (await service.list(ME, { limit, cursor })) as {
            items: { id: string }[]
            next_cursor: string | null
          }
          seen.push(...page.items.map((i) => i.id))
          if (!page.next_cursor) break
          // The cursor is the last item's position.
          expect(decodeCursor(page.next_cursor)!.id).toBe(page.items.at(-1)!.id)
          cursor = page.next_cursor
          if (limit === 1 && seen.length >= 60) break
        }
        expect(seen).toEqual(want.slice(0, seen.length).map((r) => r.id))
        if (limit === 37) expect(seen).toHaveLength(want.length)
      }
    })
  }
})
