// Fuzzing the writes (replayable seeds): 2,000 mutated course files through POST
// /api/courses/import and 2,000 mutated JSON bodies through the course, optimization, setup,
// device and aero session writes. Never a 5xx; every course stored afterwards passes the plain
// invariant check of input-fixtures.ts (ranges, grades over 100 m, statistics, no jump, a length
// a mutation cannot have added). Replay one copy with courseMutant(seed) / jsonMutant(seed, base).
// The seeds are the generated files of input-fixtures.ts and, when present, the real-world courses
// (scripts/test-data.ts; the count stays 2,000 without them).
import { readFileSync } from 'node:fs'
import { and, eq } from 'drizzle-orm'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { aeroSessions, courses, devices, optimizations, riderSetups } from '@veloptima/db'
import { testDriver } from '@veloptima/db/testing'
import { startTestApp, type TestApp } from './helpers.ts'
import { createUser, postFile, tempDir } from './files-helpers.ts'
import { setupBody } from './platform-fixtures.ts'
import {
  courseFixtures,
  courseMutant,
  impossibleCourse,
  jsonMutant,
  type CourseFixture,
} from './input-fixtures.ts'
import { dataFile } from '../../../scripts/test-data.ts'

const COURSE_FILES = Number(process.env.FUZZ_FILES ?? 2000)
const JSON_BODIES = Number(process.env.FUZZ_BODIES ?? 2000)
const SEED = Number(process.env.FUZZ_SEED ?? 1)

/** Real courses (small ones: the fuzz stays under a minute), when the real-world files are here. */
function realCourses(): CourseFixture[] {
  const names = ['tt-beton-classic.gpx', 'alpe-dhuez.gpx']
  if (!names.every((n) => dataFile(`courses/${n}`))) return []
  return names.map((n) => ({
    name: n,
    text: readFileSync(dataFile(`courses/${n}`)!, 'utf8'),
    distanceM: n.startsWith('tt') ? 16_000 : 13_700,
  }))
}

/** Plain bounds of the numbers the other collections store (docs/limits-input.md). */
function numbersOutOfRange(value: unknown, at = ''): string | null {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || Math.abs(value) > 1e9) return `${at} = ${value}`
    return null
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const why = numbersOutOfRange(v, `${at}.${k}`)
      if (why) return why
    }
  }
  return null
}

describe(`fuzzing course files and JSON bodies (${testDriver()}; seeds ${SEED}…)`, () => {
  let t: TestApp
  let auth: { authorization: string }
  const fixtures = [...courseFixtures(), ...realCourses()]

  beforeAll(async () => {
    t = await startTestApp({ FILES_DIR: tempDir('input-fuzz') })
    await createUser(t.database, 'fz')
    auth = await t.bearer({ uid: 'fz' })
  })
  afterAll(() => t.close())

  it(`${COURSE_FILES} mutated course files: no 5xx, no impossible course stored`, async () => {
    const statuses: Record<number, number> = {}
    const errors: string[] = []
    const base = new Map<string, number>()
    for (let seed = SEED; seed < SEED + COURSE_FILES; seed++) {
      const m = courseMutant(seed, fixtures)
      const url = `/api/courses/import?name=${encodeURIComponent(`seed ${seed}`)}`
      const res = await postFile(t.app, url, auth, m.name, m.bytes)
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1
      if (res.statusCode >= 500) errors.push(`${m.label}: ${res.statusCode} ${res.body}`)
      if (res.statusCode === 201) base.set(res.json().id, m.baseM)
    }
    expect(errors).toEqual([])
    // Every stored course, read back from the database.
    const rows = await t.database.db
      .select()
      .from(courses)
      .where(and(eq(courses.ownerUid, 'fz'), eq(courses.sample, false)))
    const impossible: string[] = []
    for (const row of rows) {
      const baseM = base.get(row.id)
      const why = impossibleCourse(row as never, {
        maxStepM: 5000,
        // A mutation can move points by less than a spike (each adds under 2 × 2 km) or cut
        // the file; it cannot make the course much longer than its seed.
        ...(baseM !== undefined ? { maxLengthM: baseM + 6 * 4000 + 500 } : {}),
      })
      if (why) impossible.push(`${row.name}: ${why}`)
    }
    expect(impossible).toEqual([])
    // The mutations bite both ways: many copies are refused, many still import.
    expect(statuses[201] ?? 0).toBeGreaterThan(COURSE_FILES / 5)
    expect(statuses[422] ?? 0).toBeGreaterThan(COURSE_FILES / 10)
    console.log(`course files: ${JSON.stringify(statuses)}, stored ${rows.length}`)
  })

  it(`${JSON_BODIES} mutated JSON bodies: no 5xx, nothing impossible stored`, async () => {
    const built = (
      await t.app.inject({
        method: 'POST',
        url: '/api/courses',
        headers: auth,
        payload: { name: 'base' },
      })
    ).json()
    // A stored course with track, segments and stats: made by the import of a generated file.
    const imported = (
      await postFile(t.app, '/api/courses/import', auth, 'climb.gpx', fixtures[0]!.text)
    ).json()
    const full = (
      await t.app.inject({ method: 'GET', url: `/api/courses/${imported.id}`, headers: auth })
    ).json()
    const device = (
      await t.app.inject({
        method: 'POST',
        url: '/api/devices',
        headers: auth,
        payload: { serial: 'FZ', name: 'Fuzz', calibration: { calibration_factor: 1.4 } },
      })
    ).json()
    const courseBody = {
      name: 'Fuzzed',
      source_format: 'json',
      track: full.track,
      segments: full.segments.slice(0, 120),
      stats: { ...full.stats, distance: full.segments[119].end - full.segments[0].start },
      settings: { surface: 'normal', wind: { speed: 3, direction: 270 } },
    }
    courseBody.track = {
      lat: full.track.lat.slice(0, 40),
      lon: full.track.lon.slice(0, 40),
      ele: full.track.ele.slice(0, 40),
      distance: full.track.distance.slice(0, 40),
    }
    courseBody.stats.ascent = Math.min(courseBody.stats.ascent, courseBody.stats.distance)
    courseBody.stats.descent = Math.min(courseBody.stats.descent, courseBody.stats.distance)
    const targets: { method: 'POST' | 'PATCH'; url: string; base: never }[] = [
      { method: 'POST', url: '/api/courses', base: courseBody as never },
      { method: 'PATCH', url: `/api/courses/${built.id}`, base: courseBody as never },
      {
        method: 'POST',
        url: '/api/optimizations',
        base: {
          type: 'equipment',
          name: 'Fuzzed',
          inputs: {
            environment: {
              temperature_c: 18,
              pressure_pa: 101_000,
              wind_speed_mps: 3,
              wind_from_deg: 200,
              wind_segments: [{ start_m: 0, end_m: 4000, wind_speed_mps: 5, wind_from_deg: 180 }],
            },
            constraint: { type: 'average_power', power_w: 250 },
            max_targets: 12,
            min_power_w: 100,
            rider_override: {
              rider_mass: 70,
              positions: [{ cda: 0.25, min_speed: 0, max_speed: 20 }],
            },
            equipment: {
              groups: {
                Wheels: [
                  { name: 'a', cda_delta_m2: 0 },
                  { name: 'b', mass_delta_kg: 0.3 },
                ],
              },
              baseline: { Wheels: 'a' },
            },
          },
        } as never,
      },
      {
        method: 'POST',
        url: '/api/rider-setups',
        base: { ...setupBody('Fuzzed'), extras: { rider_name: 'F', rider_height: 1.8 } } as never,
      },
      {
        method: 'PATCH',
        url: `/api/devices/${device.id}`,
        base: { name: 'Fuzz', calibration: { calibration_factor: 1.3 } } as never,
      },
      {
        method: 'POST',
        url: '/api/aero-sessions',
        base: {
          name: 'Fuzzed',
          format: 'v6',
          devices: [{ device_id: device.id, calibration_factor: 1.01 }],
          environment: { mass_kg: 80, temperature_c: 20, pressure_pa: 101_000, humidity: 0.5 },
        } as never,
      },
    ]
    const statuses: Record<number, number> = {}
    const errors: string[] = []
    for (let seed = SEED; seed < SEED + JSON_BODIES; seed++) {
      const target = targets[seed % targets.length]!
      const m = jsonMutant(seed, target.base)
      const res = await t.app.inject({
        method: target.method,
        url: target.url,
        headers: { ...auth, 'content-type': 'application/json' },
        payload: m.text,
      })
      statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1
      if (res.statusCode >= 500)
        errors.push(`${target.method} ${target.url} ${m.label}: ${res.body}`)
    }
    expect(errors).toEqual([])
    const impossible: string[] = []
    for (const row of await t.database.db
      .select()
      .from(courses)
      .where(eq(courses.ownerUid, 'fz'))) {
      const why = impossibleCourse(row as never, { maxStepM: 5000 })
      if (why) impossible.push(`${row.name} (${row.id}): ${why}`)
    }
    const bags: [string, unknown][] = [
      ...(
        await t.database.db.select().from(optimizations).where(eq(optimizations.ownerUid, 'fz'))
      ).map((r) => [`optimization ${r.id}`, r.inputs] as [string, unknown]),
      ...(await t.database.db.select().from(riderSetups).where(eq(riderSetups.ownerUid, 'fz'))).map(
        (r) => [`setup ${r.id}`, r] as [string, unknown],
      ),
      ...(await t.database.db.select().from(devices).where(eq(devices.ownerUid, 'fz'))).map(
        (r) => [`device ${r.id}`, r.calibration] as [string, unknown],
      ),
      ...(
        await t.database.db.select().from(aeroSessions).where(eq(aeroSessions.ownerUid, 'fz'))
      ).map(
        (r) =>
          [`session ${r.id}`, { environment: r.environment, devices: r.devices }] as [
            string,
            unknown,
          ],
      ),
    ]
    for (const [what, value] of bags) {
      const why = numbersOutOfRange(value)
      if (why) impossible.push(`${what}: ${why}`)
    }
    expect(impossible).toEqual([])
    expect(statuses[400] ?? 0).toBeGreaterThan(JSON_BODIES / 4)
    expect((statuses[200] ?? 0) + (statuses[201] ?? 0)).toBeGreaterThan(JSON_BODIES / 20)
    console.log(`JSON bodies: ${JSON.stringify(statuses)}`)
  })
})
