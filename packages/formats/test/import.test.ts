// Every real-world course and ride (scripts/test-data.ts; skipped with the reason when absent)
// imports with the distance and ascent its source publishes, and each kind of broken input gets
// its own error.
import { Encoder, Profile } from '@garmin/fitsdk'
import { describe, expect, it } from 'vitest'
import { importCourse, ImportError, readTrack } from '../src/index.ts'
import { needs } from '../../../scripts/test-data.ts'
import { itWith } from '../../../scripts/test-data-vitest.ts'

const file = (p: string): Uint8Array => needs(p).read(p)

function importError(bytes: Uint8Array, name = 'input'): ImportError {
  try {
    importCourse(bytes, name)
  } catch (e) {
    expect(e).toBeInstanceOf(ImportError)
    return e as ImportError
  }
  throw new Error('expected an ImportError')
}

const text = (s: string): Uint8Array => new TextEncoder().encode(s)

describe('real courses (distance, ascent as their sources publish them)', () => {
  const table: [string, number, number][] = [
    ['courses/alpe-dhuez.gpx', 13.6, 1141],
    ['courses/mont-ventoux-bedoin.gpx', 20.9, 1589],
    ['courses/galibier-briancon.gpx', 35.1, 1398],
    ['courses/tt-beton-classic.gpx', 16.0, 98],
    ['courses/crank-the-kanc.gpx', 34.2, 807],
  ]
  for (const [path, km, ascent] of table) {
    itWith([path], `${path}: ${km} km (±0.5 %), +${ascent} m (±3 %)`, () => {
      const { stats, course } = importCourse(file(path), path)
      expect(Math.abs(stats.distanceM / 1000 - km)).toBeLessThanOrEqual(Math.max(0.05, km * 0.005))
      expect(Math.abs(stats.ascentM - ascent)).toBeLessThanOrEqual(Math.max(3, ascent * 0.03))
      // Segments of about 10 m, consistent altitudes, and grades a road can have.
      expect(stats.distanceM / stats.segmentCount).toBeGreaterThan(9.5)
      expect(stats.distanceM / stats.segmentCount).toBeLessThan(10.5)
      for (let i = 0; i < course.n; i++) {
        expect(course.altitude[i + 1]! - course.altitude[i]!).toBeCloseTo(
          course.grade[i]! * course.length[i]!,
          9,
        )
      }
      expect(stats.maxGrade).toBeLessThan(0.35)
      expect(stats.minGrade).toBeGreaterThan(-0.35)
    })
  }

  itWith(
    ['courses/alpe-dhuez.gpx'],
    "finds the 21 hairpins of l'Alpe d'Huez as tight radii (≈18–30 bends under 20 m)",
    () => {
      const { course } = importCourse(file('courses/alpe-dhuez.gpx'), 'alpe')
      let bends = 0
      let inBend = false
      for (let i = 0; i < course.n; i++) {
        const tight = course.radius[i]! < 20
        if (tight && !inBend) bends++
        inBend = tight
      }
      expect(bends).toBeGreaterThanOrEqual(18)
      expect(bends).toBeLessThanOrEqual(30)
    },
  )

  itWith(
    ['courses/stuttgart-recorded-missing-ele.gpx'],
    'recorded GPX with points missing elevation: gaps filled, not zeros',
    () => {
      const r = importCourse(file('courses/stuttgart-recorded-missing-ele.gpx'), 'stuttgart')
      expect(r.cleaning.elevationFilled).toBe(26)
      expect(r.stats.distanceM).toBeGreaterThan(20000)
      let min = Infinity
      for (const a of r.course.altitude) min = Math.min(min, a)
      expect(min).toBeGreaterThan(200) // the file's elevations are 233–485 m: no zero filled in
      expect(r.stats.ascentM).toBeGreaterThan(250)
      expect(r.stats.ascentM).toBeLessThan(400)
    },
  )
})

describe('real rides (FIT): distance matches the session', () => {
  // session total_distance as recorded by the devices themselves; their ascent totals include
  // barometric drift (elevation.test.ts checks the ascent against the altitudes themselves)
  const table: [string, number][] = [
    ['rides/edge810-vector-power.fit', 41339.38],
    ['rides/elemnt-devfields.fit', 78940.55],
    ['rides/ironman-multisport-2019.fit', 179381.7], // the cycling leg of a multisport file
  ]
  for (const [path, metres] of table) {
    itWith([path], `${path}: ${(metres / 1000).toFixed(1)} km (±0.5 %)`, () => {
      const { stats } = importCourse(file(path), path)
      expect(Math.abs(stats.distanceM / metres - 1)).toBeLessThan(0.005)
    })
  }

  itWith(['aero/open-air-helmet.tcx'], 'TCX activity with positions imports', () => {
    const { stats, track } = importCourse(file('aero/open-air-helmet.tcx'), 'tcx')
    expect(track.format).toBe('tcx')
    expect(track.name).toMatch(/^20\d\d-\d\d-\d\dT/) // the activity's Id (start time), not the device name
    expect(stats.distanceM).toBeGreaterThan(30000)
  })
})

describe('other inputs', () => {
  it('GPX 1.0 route without time, and our JSON, give the same course', () => {
    const pts = Array.from({ length: 50 }, (_, i) => ({
      lat: 45 + i * 0.0002,
      lon: 6,
      ele: 100 + i,
    }))
    const gpx10 =
      '<?xml version="1.0"?><gpx version="1.0" xmlns="http://www.topografix.com/GPX/1/0"><rte>' +
      pts.map((p) => `<rtept lat="${p.lat}" lon="${p.lon}"><ele>${p.ele}</ele></rtept>`).join('') +
      '</rte></gpx>'
    const json = JSON.stringify({
      name: 'line',
      points: pts.map((p) => ({ lat: p.lat, lon: p.lon, ele_m: p.ele })),
    })
    const a = importCourse(text(gpx10), 'a.gpx')
    const b = importCourse(text(json), 'b.json')
    expect(a.track.format).toBe('gpx')
    expect(b.track.format).toBe('json')
    expect(a.stats).toEqual(b.stats)
    // 49 × 0.0002° of latitude at 45° N ≈ 1088.6 m (WGS84 meridian arc 111,132 m/°)
    expect(a.stats.distanceM).toBeCloseTo(49 * 0.0002 * 111132, -1)
    expect(a.stats.ascentM).toBeCloseTo(49, 6)
    expect(a.course.radius.every((r) => r === Infinity)).toBe(true)
    expect(a.course.heading[0]).toBeCloseTo(0, 6) // due north
  })

  it('a FIT course file (file type "course") imports from its records', () => {
    const SEMI = 2 ** 31 / 180
    const bytes = encodeFit(
      (i) => ({
        positionLat: Math.round((45 + i * 0.0001) * SEMI),
        positionLong: Math.round(6 * SEMI),
        altitude: 500 + i * 0.5,
      }),
      'course',
    )
    const r = importCourse(bytes, 'course.fit')
    expect(r.track.format).toBe('fit')
    expect(r.cleaning.distanceSource).toBe('positions')
    expect(r.stats.distanceM).toBeCloseTo(59 * 0.0001 * 111132, -1)
    expect(r.stats.ascentM).toBeCloseTo(29.5, 0)
  })

  it('a TCX course (Courses/Course/Track) imports like an activity', () => {
    const tp = Array.from(
      { length: 30 },
      (_, i) =>
        `<Trackpoint><Position><LatitudeDegrees>${45 + i * 0.0003}</LatitudeDegrees>` +
        `<LongitudeDegrees>6</LongitudeDegrees></Position><AltitudeMeters>${300 - i}</AltitudeMeters></Trackpoint>`,
    ).join('')
    const tcx =
      '<?xml version="1.0"?><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">' +
      `<Courses><Course><Name>Descent</Name><Track>${tp}</Track></Course></Courses></TrainingCenterDatabase>`
    const r = importCourse(text(tcx), 'descent.tcx')
    expect(r.track.name).toBe('Descent')
    expect(r.stats.descentM).toBeCloseTo(29, 6)
    expect(r.stats.ascentM).toBeCloseTo(0, 6)
  })

  it('a FIT file without positions but with a distance channel imports by distance', () => {
    const bytes = encodeFit((i) => ({ distance: i * 5, altitude: 100 + i * 0.1, power: 200 }))
    const r = importCourse(bytes, 'indoor.fit')
    expect(r.cleaning.distanceSource).toBe('recorded')
    expect(r.stats.distanceM).toBeCloseTo(295, 6)
  })
})

const mesg = (o: object): Parameters<Encoder['onMesg']>[1] => o as Parameters<Encoder['onMesg']>[1]

/** A small FIT activity with 60 records built by `record(i)`. */
function encodeFit(record: (i: number) => Record<string, number>, type = 'activity'): Uint8Array {
  const enc = new Encoder()
  const t0 = new Date('2024-05-01T10:00:00Z')
  enc.onMesg(
    Profile.MesgNum.FILE_ID!,
    mesg({
      manufacturer: 'development',
      product: 0,
      timeCreated: t0,
      type,
    }),
  )
  for (let i = 0; i < 60; i++) {
    enc.onMesg(
      Profile.MesgNum.RECORD!,
      mesg({
        timestamp: new Date(t0.getTime() + i * 1000),
        ...record(i),
      }),
    )
  }
  return enc.close()
}

describe('broken inputs get a specific error', () => {
  it('empty file → empty_file', () => {
    const e = importError(new Uint8Array(0), 'empty.gpx')
    expect(e.code).toBe('empty_file')
    expect(e.message).toBe('empty.gpx: the file is empty')
    expect(importError(text('  \n'), 'blank.gpx').code).toBe('empty_file')
  })
  it('broken XML → invalid_xml', () => {
    const e = importError(text('<gpx><trk><trkseg><trkpt lat="1" lon="2"></trkseg>'), 'broken.gpx')
    expect(e.code).toBe('invalid_xml')
    expect(e.message).toMatch(/^broken\.gpx: not well-formed XML/)
  })
  it('a FIT file without positions or distance → no_distance', () => {
    const e = importError(
      encodeFit((i) => ({ heartRate: 120 + i, power: 200 })),
      'hr-only.fit',
    )
    expect(e.code).toBe('no_distance')
    expect(e.message).toMatch(/expected positions \(latitude\/longitude\) or a distance channel/)
  })
  it('a GPX without elevation → no_elevation', () => {
    const gpx =
      '<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>' +
      '<trkpt lat="45.0" lon="6.0"/><trkpt lat="45.001" lon="6.0"/><trkpt lat="45.002" lon="6.0"/>' +
      '</trkseg></trk></gpx>'
    const e = importError(text(gpx), 'flat.gpx')
    expect(e.code).toBe('no_elevation')
    expect(e.message).toBe('flat.gpx: expected elevation data, got none in 3 points')
  })
  it('too much elevation missing → too_much_missing_elevation', () => {
    const pts = Array.from({ length: 10 }, (_, i) => ({
      lat: 45 + i * 0.001,
      lon: 6,
      ...(i < 3 ? { ele_m: 100 } : {}),
    }))
    expect(importError(text(JSON.stringify({ points: pts }))).code).toBe(
      'too_much_missing_elevation',
    )
  })
  it('a GPX with only waypoints → no_track_points; other XML → unknown_format; bad JSON → invalid_json', () => {
    const gpx =
      '<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1"><wpt lat="1" lon="2"/></gpx>'
    expect(importError(text(gpx)).code).toBe('no_track_points')
    expect(importError(text('<kml></kml>')).code).toBe('unknown_format')
    expect(importError(text('{"points": [')).code).toBe('invalid_json')
    expect(importError(text('hello')).code).toBe('unknown_format')
  })
  itWith(
    ['rides/edge810-vector-power.fit'],
    'a truncated FIT file → invalid_fit or no_track_points, never a crash',
    () => {
      const bytes = file('rides/edge810-vector-power.fit').slice(0, 11)
      expect(() => readTrack(bytes, 'cut.fit')).toThrow(ImportError)
      const cut = file('rides/edge810-vector-power.fit').slice(0, 40)
      expect(['invalid_fit', 'no_track_points']).toContain(importError(cut, 'cut.fit').code)
    },
  )
  it('a single point → too_few_points', () => {
    expect(importError(text(JSON.stringify({ points: [{ lat: 1, lon: 2, ele_m: 3 }] }))).code).toBe(
      'too_few_points',
    )
  })
})
