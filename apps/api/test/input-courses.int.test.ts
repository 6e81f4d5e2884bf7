// Courses written as JSON (create and patch) follow the file import's rules (docs/limits-input.md):
// coordinates, elevations, distances and grades in range, no jump and no spike, statistics that
// match the segments; a 400 names the field, the index and the value, and nothing is stored. The
// file import leaves a point off the route's line out of the course and says so in its answer.
import { eq } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { buildCourse } from '@veloptima/engine'
import { courses } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import { segmentsOf, statsOf, trackOf } from '../src/routes/imports/course-rows.ts'
import { suiteApp } from './helpers.ts'
import { postFile, tempDir } from './files-helpers.ts'
import { courseFixtures, haversine, impossibleCourse } from './input-fixtures.ts'

/** A valid course body built by the engine from the generated 6 km climb. */
function climbBody() {
  const lat: number[] = []
  const lon: number[] = []
  const ele: number[] = []
  for (let i = 0; i < 200; i++) {
    lat.push(45.1 + (i * 30) / 111_320)
    lon.push(6.05)
    ele.push(700 + 0.06 * i * 30)
  }
  const built = buildCourse({ lat, lon, ele })
  return {
    name: 'Climb',
    source_format: 'json',
    track: trackOf({ lat, lon }, built.course)!,
    segments: segmentsOf(built.course),
    stats: statsOf(built),
  }
}

describe(`course writes are checked like the file import (${testDriver()})`, () => {
  const t = suiteApp({ FILES_DIR: tempDir('input-courses') })
  let auth: { authorization: string }
  const post = (payload: unknown) =>
    t.app.inject({ method: 'POST', url: '/api/courses', headers: auth, payload: payload as never })
  const patch = (id: string, payload: unknown) =>
    t.app.inject({
      method: 'PATCH',
      url: `/api/courses/${id}`,
      headers: auth,
      payload: payload as never,
    })
  const count = async () =>
    (await t.database.db.select({ id: courses.id }).from(courses).where(eq(courses.ownerUid, 'cw')))
      .length

  beforeAll(async () => {
    auth = await t.signIn({ uid: 'cw' })
  })

  it('stores a course the engine built, unchanged', async () => {
    const res = await post(climbBody())
    expect(res.statusCode).toBe(201)
    expect(impossibleCourse(res.json())).toBeNull()
  })

  it('refuses impossible numbers with 400 naming the field, the index and the value; stores nothing', async () => {
    const before = await count()
    const cases: [(b: ReturnType<typeof climbBody>) => void, RegExp][] = [
      [
        (b) => (b.track.lat[3] = 1e6),
        /^track\.lat\.3: expected a latitude from −90 to 90° \(got 1000000\)/,
      ],
      [(b) => (b.track.lon[0] = -181), /^track\.lon\.0: .*\(got -181\)/],
      [
        (b) => (b.track.ele[7] = -1e9),
        /^track\.ele\.7: expected an elevation from -500 to 9000 m \(got -1000000000\)/,
      ],
      [
        (b) => (b.track.distance[2] = -5),
        /^track\.distance\.2: expected a distance from 0 .*\(got -5\)/,
      ],
      [
        (b) => (b.track.distance[9] = 1),
        /^track\.distance\.9: must not be less than the point before it/,
      ],
      [(b) => (b.segments[4]!.grade = 10), /^segments\.4\.grade: expected a grade .*\(got 10\)/],
      [(b) => (b.segments[5]!.altitude = 1e9), /^segments\.5\.altitude: .*\(got 1000000000\)/],
      [(b) => (b.segments[6]!.start = -5), /^segments\.6\.start: /],
      [(b) => (b.segments[0]!.end = -5), /^segments\.0\.end: /],
      [(b) => (b.stats.max_grade = 10), /^stats\.max_grade: .*\(got 10\)/],
      [(b) => (b.stats.distance = -5), /^stats\.distance: .*\(got -5\)/],
      [(b) => (b.stats.ascent = 1e9), /^stats\.ascent: .*\(got 1000000000\)/],
      [(b) => (b.stats.distance = 1e6), /^stats\.distance: expected the segments' length/],
    ]
    for (const [edit, message] of cases) {
      const body = climbBody()
      edit(body)
      const res = await post(body)
      expect(res.statusCode, String(message)).toBe(400)
      expect(res.json().code).toBe('invalid-request')
      expect(res.json().message).toMatch(message)
    }
    expect(await count()).toBe(before)
  })

  it('refuses grades over 100 m beyond ±50 % even when each 10 m segment is within ±100 %', async () => {
    const body = climbBody()
    for (let i = 20; i < 32; i++) body.segments[i]!.grade = 0.8
    const res = await post(body)
    expect(res.statusCode).toBe(400)
    expect(res.json().message).toMatch(
      /^segments\.\d+\.grade: the 1\d\d m from [\d.]+ km are \d+ % steep: grades over 100 m of road stay within ±50 %/,
    )
  })

  it('refuses a track point moved 10° (a jump, and with matching distances a spike)', async () => {
    const jump = climbBody()
    jump.track.lon[50] = jump.track.lon[50]! + 10
    const a = await post(jump)
    expect(a.statusCode).toBe(400)
    expect(a.json().message).toMatch(
      /^track\.lat\.50: point 50 is [\d.]+ km from point 49 in a straight line/,
    )
    // The same spike with distances that agree with it: off its neighbours' line.
    const spike = climbBody()
    const t0 = spike.track
    t0.lon[50] = t0.lon[50]! + 10
    const out = haversine(t0.lat[49]!, t0.lon[49]!, t0.lat[50]!, t0.lon[50]!)
    const back = haversine(t0.lat[50]!, t0.lon[50]!, t0.lat[51]!, t0.lon[51]!)
    for (let i = 50; i < t0.distance.length; i++)
      t0.distance[i] = t0.distance[i]! + out + (i > 50 ? back : 0)
    const b = await post({ name: 'Spike', track: t0 })
    expect(b.statusCode).toBe(400)
    expect(b.json().message).toMatch(
      /^track\.lat\.50: point 50 lies off the line of its neighbours: the way out to it and back is \d+\.\d\d km/,
    )
  })

  it('a patch is checked alone and against the fields it keeps', async () => {
    const created = (await post(climbBody())).json()
    const bad = await patch(created.id, { segments: [{ ...created.segments[0], grade: 5 }] })
    expect(bad.statusCode).toBe(400)
    expect(bad.json().message).toMatch(/^segments\.0\.grade: /)
    // New segments half as long as the stored statistics say: stats.distance is named.
    const half = created.segments.slice(0, created.segments.length >> 1)
    const stale = await patch(created.id, { segments: half })
    expect(stale.statusCode).toBe(400)
    expect(stale.json().message).toMatch(/^stats\.distance: expected the segments' length/)
    const [row] = await t.database.db.select().from(courses).where(eq(courses.id, created.id))
    expect(row!.segments).toHaveLength(created.segments.length)
    // A rename and a surface change (same segments) pass.
    expect((await patch(created.id, { name: 'Renamed' })).statusCode).toBe(200)
    const surfaced = created.segments.map((s: object) => ({ ...s, surface: 'rough', manual: true }))
    expect((await patch(created.id, { segments: surfaced })).statusCode).toBe(200)
  })

  it('the file import leaves out a point moved 10° and says so; the course keeps its length', async () => {
    const climb = courseFixtures().find((f) => f.name === 'climb.gpx')!
    let k = 0
    const moved = climb.text.replace(/lat="([^"]*)"/g, (m, v: string) =>
      k++ === 100 ? `lat="${Number(v) + 10}"` : m,
    )
    const res = await postFile(t.app, '/api/courses/import', auth, 'moved.gpx', moved)
    expect(res.statusCode).toBe(201)
    const answer = res.json()
    expect(answer.stats.distance).toBeGreaterThan(climb.distanceM - 100)
    expect(answer.stats.distance).toBeLessThan(climb.distanceM + 100)
    expect(answer.warnings).toEqual([
      expect.stringMatching(
        /^point 100 \([\d.]+, [\d.]+\) lies off the route's line, a 2\d\d\d\.\d km detour out and back: it was left out of the course/,
      ),
    ])
    expect(answer.cleaning.position_spikes_removed).toBe(1)
    const [row] = await t.database.db.select().from(courses).where(eq(courses.id, answer.id))
    expect(impossibleCourse(row as never, { maxStepM: 1000 })).toBeNull()
  })
})
