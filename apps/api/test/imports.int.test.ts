import { readdirSync, readFileSync, existsSync } from 'node:fs'
import { join } from 'node:path'
import { eq, sql } from 'drizzle-orm'
import { beforeAll, describe, expect, it } from 'vitest'
import { courses, files, optimizations, rows } from '@veloptima/db'
import { SAMPLE_COURSES, seedSampleCourses } from '../src/routes/imports/samples.ts'
import { suiteApp } from './helpers.ts'
import { createTeam, multipart, postFile, tempDir } from './files-helpers.ts'
import { createRunnable, eventually } from './runs-helpers.ts'
import { syntheticClimb } from '../../../packages/formats/test/fixtures/synthetic-climb.ts'
import { needs } from '../../../scripts/test-data.ts'
import { itWith } from '../../../scripts/test-data-vitest.ts'

// Real-world files (scripts/test-data.ts: the tests that need one skip, naming it, when absent)
// and the self-made climb (its length and rise by construction).
const shared = (path: string) => needs(path).read(path)
const climb = syntheticClimb()
const climbGpx = Buffer.from(climb.gpx)
const SIM = { 'create:simulations': true }

describe('course import: POST /api/courses/import', () => {
  const filesDir = tempDir('imports')
  const t = suiteApp({ FILES_DIR: filesDir })
  const auth: Record<string, { authorization: string }> = {}
  let teamId: string

  beforeAll(async () => {
    for (const uid of ['ann', 'ben', 'cat']) auth[uid] = await t.signIn({ uid, claims: SIM })
    teamId = (await createTeam(t.database, 'Team AB', ['ann', 'ben'])).id
  })

  async function importFile(
    uid: string,
    name: string,
    bytes: Uint8Array | string,
    fields: Record<string, string> = {},
    headers = auth[uid]!,
  ) {
    return postFile(t.app, '/api/courses/import', headers, name, bytes, fields)
  }

  /** Starts a run of a new optimization of `uid` on `courseId` (with the caller's own setup). */
  async function runOn(uid: string, courseId: string) {
    const { optimization } = await createRunnable(t.database.db, { ownerUid: uid })
    await t.database.db
      .update(optimizations)
      .set({ courseId })
      .where(eq(optimizations.id, optimization.id))
    return t.app.inject({
      method: 'POST',
      url: `/api/optimizations/${optimization.id}/run`,
      headers: auth[uid],
    })
  }

  const counts = async () => {
    const [row] = await rows<{ files: number; courses: number }>(
      t.database.db,
      sql`select (select count(*)::int from files) as files, (select count(*)::int from courses where not sample) as courses`,
    )
    const stored = existsSync(join(filesDir, 'uploads'))
      ? readdirSync(join(filesDir, 'uploads')).length
      : 0
    return { ...row!, stored }
  }

  it('imports the self-made climb (GPX): its length and rise by construction, the file stored', async () => {
    const res = await importFile('ann', 'climb.gpx', climbGpx)
    expect(res.statusCode).toBe(201)
    const course = res.json()
    expect(course).toMatchObject({
      owner: 'ann',
      name: 'Synthetic climb',
      source_format: 'gpx',
      cleaning: { points_read: climb.points.length, distance_source: 'positions' },
    })
    expect(Math.abs(course.stats.distance / climb.distanceM - 1)).toBeLessThan(0.005)
    const [row] = await t.database.db.select().from(courses).where(eq(courses.id, course.id))
    const segs = row!.segments
    const last = segs[segs.length - 1]!
    const rise = last.altitude + last.grade * (last.end - last.start) - segs[0]!.altitude
    const ele = climb.points.map((p) => p.ele)
    expect(Math.abs(rise - (ele.at(-1)! - ele[0]!))).toBeLessThan(1)
    expect(segs[0]!.start).toBe(0)
    for (let i = 1; i < segs.length; i++) expect(segs[i]!.start).toBe(segs[i - 1]!.end)
    expect(row!.track!.lat).toHaveLength(climb.points.length)
    const [file] = await t.database.db
      .select()
      .from(files)
      .where(eq(files.id, course.source_file_id))
    expect(readFileSync(join(filesDir, file!.storageKey)).equals(climbGpx)).toBe(true)
  })

  itWith(
    ['courses/alpe-dhuez.gpx'],
    "imports Alpe d'Huez (GPX): the published 13.8 km and the file's own 1,134 m rise",
    async () => {
      // Published figures of the climb from Le Bourg-d'Oisans: 13.8 km, 1,071 m of elevation gain
      // at 8.1 % (Wikipedia, "Alpe d'Huez"). The distance is checked against them at ±5 %.
      const res = await importFile('ann', 'alpe-dhuez.gpx', shared('courses/alpe-dhuez.gpx'))
      expect(res.statusCode).toBe(201)
      const course = res.json()
      expect(course).toMatchObject({
        owner: 'ann',
        name: "L'Alpe d'Huez (depuis Le Bourg-d'Oisans)",
        source_format: 'gpx',
        cleaning: { points_read: 459, distance_source: 'positions' },
      })
      expect(course.stats.distance).toBeGreaterThan(13_800 * 0.95)
      expect(course.stats.distance).toBeLessThan(13_800 * 1.05)
      const [row] = await t.database.db.select().from(courses).where(eq(courses.id, course.id))
      const segs = row!.segments
      const last = segs[segs.length - 1]!
      // This track runs from 722.2 m to 1856.0 m (its first and last <ele>), a little beyond the
      // published climb's ends: the cleaned course keeps the file's own rise within 2 m.
      const rise = last.altitude + last.grade * (last.end - last.start) - segs[0]!.altitude
      expect(Math.abs(rise - (1856.03 - 722.17))).toBeLessThan(2)
      // Segments tile the course; the map track follows it.
      expect(segs[0]!.start).toBe(0)
      for (let i = 1; i < segs.length; i++) expect(segs[i]!.start).toBe(segs[i - 1]!.end)
      expect(last.end).toBeCloseTo(course.stats.distance, 0)
      expect(row!.track!.lat).toHaveLength(459)
      expect(row!.track!.distance.at(-1)).toBeCloseTo(course.stats.distance, 0)
      // The source file is stored, its bytes intact, and linked.
      const [file] = await t.database.db
        .select()
        .from(files)
        .where(eq(files.id, course.source_file_id))
      expect(file).toMatchObject({
        ownerUid: 'ann',
        contentType: 'application/gpx+xml',
        kind: 'upload',
      })
      expect(
        readFileSync(join(filesDir, file!.storageKey)).equals(shared('courses/alpe-dhuez.gpx')),
      ).toBe(true)
    },
  )

  itWith(
    ['rides/edge810-vector-power.fit'],
    'imports a FIT ride recorded by a head unit, with the name given in the form',
    async () => {
      const res = await importFile('ann', 'ride.fit', shared('rides/edge810-vector-power.fit'), {
        name: 'Sunday ride',
      })
      expect(res.statusCode).toBe(201)
      expect(res.json()).toMatchObject({
        name: 'Sunday ride',
        source_format: 'fit',
        cleaning: { distance_source: 'recorded' },
      })
      expect(res.json().stats.distance).toBeGreaterThan(40_000)
    },
  )

  itWith(
    ['rides/ironman-multisport-2019.fit'],
    'reads a long ride in a worker thread, not on the API event loop',
    async () => {
      // The 2019 Ironman file: 3 MB of FIT, a 180 km bike leg; reading it takes over a second.
      const pool = t.app.jobs.interactivePool()
      const threads = pool.started
      const upload = importFile('ann', 'ironman.fit', shared('rides/ironman-multisport-2019.fit'))
      await eventually(async () => pool.running().some((r) => r.task === 'import-course'))
      const health = await t.app.inject({ method: 'GET', url: '/api/health' })
      expect(health.statusCode).toBe(200)
      expect(pool.running().map((r) => r.task)).toEqual(['import-course'])
      expect(pool.started).toBeGreaterThanOrEqual(threads)
      const res = await upload
      expect(res.statusCode).toBe(201)
      const course = res.json()
      expect(course.stats.distance).toBeGreaterThan(175_000)
      // Beyond 50 km the segments get longer: at most about 5,000 of them.
      expect(course.segment_count).toBeLessThanOrEqual(5001)
      expect(course.segment_count).toBeGreaterThan(4000)
    },
  )

  it('refuses a file that is no course, storing nothing', async () => {
    const before = await counts()
    const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')
    const res = await importFile('ann', 'photo.gpx', png)
    expect(res.statusCode).toBe(415)
    expect(res.json()).toMatchObject({ code: 'unsupported-file-type' })
    expect(res.json().message).toBe('photo.gpx is a PNG file; expected GPX, TCX, FIT, JSON.')
    expect(await counts()).toEqual(before)
  })

  itWith(
    ['aero/velodrome-2015-a.tcx'],
    'names the file and the problem when a track has no elevation, storing nothing',
    async () => {
      const before = await counts()
      const res = await importFile('ann', 'velodrome.tcx', shared('aero/velodrome-2015-a.tcx'))
      expect(res.statusCode).toBe(422)
      expect(res.json()).toMatchObject({
        code: 'invalid-course-file',
        message: 'velodrome.tcx: expected elevation data, got none in 1556 points.',
        details: { reason: 'no_elevation' },
      })
      expect(await counts()).toEqual(before)
    },
  )

  it('names the file when a GPX has no track points', async () => {
    const res = await importFile(
      'ann',
      'empty.gpx',
      '<?xml version="1.0"?><gpx version="1.1" creator="x"><trk><name>x</name></trk></gpx>',
    )
    expect(res.statusCode).toBe(422)
    expect(res.json().message).toMatch(/^empty\.gpx: /)
  })

  it('needs the simulations claim and a session', async () => {
    const noClaim = await t.bearer({ uid: 'ann', claims: {} })
    const res = await importFile('ann', 'a.gpx', climbGpx, {}, noClaim)
    expect(res.statusCode).toBe(403)
    expect(res.json()).toMatchObject({ code: 'missing-claim' })
    const body = await multipart('a.gpx', climbGpx)
    const anon = await t.app.inject({ method: 'POST', url: '/api/courses/import', ...body })
    expect(anon.statusCode).toBe(401)
  })

  it("imports for the caller's team; the course is the team's, invisible to others", async () => {
    const res = await importFile('ann', 'tt.gpx', climbGpx, {
      owner: teamId,
    })
    expect(res.statusCode).toBe(201)
    expect(res.json().owner).toBe(teamId)
    const id = res.json().id
    const [row] = await t.database.db.select().from(courses).where(eq(courses.id, id))
    expect(row).toMatchObject({ ownerTeam: teamId, ownerUid: null })
    // A team member can run an optimization on it; anyone else cannot even see it.
    expect((await runOn('ben', id)).statusCode).toBe(202)
    const cat = await runOn('cat', id)
    expect(cat.statusCode).toBe(404)
    expect(cat.json().message).toMatch(/course was not found/)
    const intruder = await importFile('cat', 'tt.gpx', climbGpx, {
      owner: teamId,
    })
    expect(intruder.statusCode).toBe(404)
  })

  it('seeds the synthetic sample courses idempotently, visible to every user', async () => {
    await seedSampleCourses(t.database)
    await seedSampleCourses(t.database)
    const samples = await t.database.db.select().from(courses).where(eq(courses.sample, true))
    expect(samples.map((c) => c.id).sort()).toEqual(SAMPLE_COURSES.map((s) => s.id).sort())
    const climb = samples.find((c) => c.name.includes('Alpine climb'))!
    // Made as 12 km at 7.5 %: the built course keeps both within the builder's smoothing.
    expect(climb.stats!.distance).toBeGreaterThan(11_900)
    expect(climb.stats!.distance).toBeLessThan(12_100)
    expect(climb.stats!.ascent / climb.stats!.distance).toBeCloseTo(0.075, 2)
    for (const uid of ['ann', 'cat']) {
      expect((await runOn(uid, climb.id)).statusCode).toBe(202)
    }
  })
})
