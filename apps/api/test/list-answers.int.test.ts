// The list path is compiled for speed (a mapper per collection, prepared statements for plain
// pages); its answers must stay what the generic path answers. Each list item is
// checked against the item's own answer (GET /api/<collection>/:id, built by the generic
// `json` of the collection; for files that `json` of the stored row): the same fields and values, in the same order, less the fields lists
// leave out (a course's track and segments), plus the cursor's `ts` before `owner` as lists have
// always sent it. Pages walked with a cursor (prepared) and an `owner=` filter (built per request)
// give the same items as one large page. Courses are self-made climbs of three lengths, and the
// real-world courses too where they are present (scripts/test-data.ts).
import { beforeAll, describe, expect, it } from 'vitest'
import { courses, files } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import { eq } from 'drizzle-orm'
import { fileSpec } from '../src/services/collection-specs.ts'
import { courseFromFile } from '../src/routes/imports/course-rows.ts'
import { suiteApp } from './helpers.ts'
import { caller, deviceBody, sessionBody, setupBody, type Caller } from './platform-fixtures.ts'
import { syntheticClimb } from '../../../packages/formats/test/fixtures/synthetic-climb.ts'
import { dataFile, dataFiles } from '../../../scripts/test-data.ts'
import { readFileSync } from 'node:fs'

/** [file name, bytes] of every course inserted. */
function courseFiles(): [string, Uint8Array][] {
  const own: [string, Uint8Array][] = [3000, 6000, 9000].map((m) => [
    `climb-${m}.gpx`,
    new TextEncoder().encode(syntheticClimb(`Climb ${m / 1000} km`, 20, m).gpx),
  ])
  const real = dataFiles('courses')
    .filter((f) => f.endsWith('.gpx'))
    .map((f): [string, Uint8Array] => [f, readFileSync(dataFile(`courses/${f}`)!)])
  return [...own, ...real]
}
type Item = Record<string, unknown> & { id: string }

describe(`list answers on ${testDriver()}: the item's own answer, less the list's omissions`, () => {
  const t = suiteApp()
  let me: Caller
  let other: Caller
  let teamId: string
  beforeAll(async () => {
    me = caller(t, await t.bearer({ uid: 'carla' }))
    other = caller(t, await t.bearer({ uid: 'olaf' }))
    teamId = (await me.post('/api/teams', { name: 'Carla Coaching' })).body.id
    await other.post('/api/teams', { name: 'Olaf' })
    let n = 0
    for (const [f, bytes] of courseFiles()) {
      let c
      try {
        c = courseFromFile(bytes, f)
      } catch {
        continue // a file the importer refuses is not a course
      }
      for (const owner of [
        { ownerUid: 'carla' },
        { ownerTeam: teamId },
        { sample: true },
        { ownerUid: 'olaf' },
      ]) {
        await t.database.db.insert(courses).values({
          ...owner,
          name: `${c.name ?? 'Course'} ${n++}`,
          sourceFormat: c.format,
          track: c.track,
          segments: c.segments,
          stats: c.stats,
        })
      }
    }
    for (let i = 0; i < 5; i++) {
      const owner = i % 2 ? { owner: teamId } : {}
      for (const [path, body] of [
        ['rider-setups', setupBody(`Setup ${i}`)],
        ['devices', deviceBody(`AS-${i}`)],
        ['aero-sessions', sessionBody(`Session ${i}`)],
        ['optimizations', { type: i % 2 ? 'pacing' : 'equipment', name: `Opt ${i}` }],
      ] as const) {
        const made = await me.post(`/api/${path}`, { ...body, ...owner })
        expect(made.status, `${path}: ${JSON.stringify(made.body)}`).toBe(201)
        await other.post(`/api/${path}`, body)
      }
      await t.database.db.insert(files).values({
        ...(i % 2 ? { ownerTeam: teamId } : { ownerUid: 'carla' }),
        name: `ride-${i}.gpx`,
        contentType: 'application/gpx+xml',
        size: 1000 + i,
        storageKey: `bench/${i}`,
        sha256: 'a'.repeat(64),
      })
    }
  }, 120_000)

  const collections: [string, string[]][] = [
    ['courses', ['track', 'segments']],
    ['rider-setups', []],
    ['optimizations', []],
    ['devices', []],
    ['aero-sessions', []],
    ['files', []],
  ]

  /**
   * The item's own answer. Files: GET /api/files/:id is the files routes' own shape (no
   * updated_at), so the generic answer there is `fileSpec.json` of the whole row.
   */
  async function itemJson(path: string, id: string): Promise<{ body: Record<string, unknown> }> {
    if (path === 'files') {
      const [row] = await t.database.db.select().from(files).where(eq(files.id, id))
      return { body: JSON.parse(JSON.stringify(fileSpec.json(row!))) as Record<string, unknown> }
    }
    const own = await me.get(`/api/${path}/${id}`)
    expect(own.status).toBe(200)
    return own
  }

  async function walk(url: string): Promise<Item[]> {
    const items: Item[] = []
    let next: string | null = url
    while (next) {
      const page = await me.get(next)
      expect(page.status).toBe(200)
      items.push(...(page.body.items as Item[]))
      const cursor = page.body.next_cursor as string | null
      next = cursor ? `${url}&cursor=${cursor}` : null
    }
    return items
  }

  for (const [path, omitted] of collections) {
    it(`${path}: every item as GET /api/${path}/:id answers it, key for key`, async () => {
      const page = await me.get(`/api/${path}?limit=100`)
      expect(page.status).toBe(200)
      const items = page.body.items as Item[]
      expect(items.length).toBeGreaterThanOrEqual(5)
      for (const item of items) {
        const own = await itemJson(path, item.id)
        const keys = Object.keys(own.body).filter((k) => !omitted.includes(k))
        keys.splice(keys.indexOf('owner'), 0, 'ts')
        // Byte order too: the list's JSON lists the same keys in the same order.
        expect(Object.keys(item)).toEqual(keys)
        const expected = Object.fromEntries(keys.map((k) => [k, own.body[k]]))
        expected.ts = item.ts
        expect(item).toEqual(expected)
        expect(typeof item.ts).toBe('string')
      }
      // Nobody else's items: Olaf's are not in Carla's list, and the other way round.
      const theirs = (await other.get(`/api/${path}?limit=100`)).body.items as Item[]
      const mine = new Set(items.map((i) => i.id))
      expect(theirs.filter((i) => mine.has(i.id) && i.owner_type !== 'sample')).toEqual([])
    })

    it(`${path}: pages of 2 through the cursor and the owner= filter give the large page's items`, async () => {
      const all = (await me.get(`/api/${path}?limit=100`)).body.items as Item[]
      expect(await walk(`/api/${path}?limit=2`)).toEqual(all)
      const filtered = await walk(`/api/${path}?limit=2&owner=carla,${teamId}`)
      expect(filtered).toEqual(all.filter((i) => i.owner_type !== 'sample'))
    })
  }
})
