// The plan writers on a self-made climb course (packages/formats/test/fixtures/synthetic-climb.ts)
// and a real plan from the engine's pacing optimizer; the FIT course is decoded back with Garmin's own SDK.
import { Decoder, Stream } from '@garmin/fitsdk'
import { DOMParser } from '@xmldom/xmldom'
import { describe, expect, it } from 'vitest'
import { groundDistance, optimizePacing } from '@veloptima/engine'
import { importCourse } from '../read.ts'
import {
  exportSections,
  ExportError,
  PLAN_XMLNS,
  writePlanCsv,
  writePlanFitCourse,
  writePlanGpx,
  type ExportPoint,
  type PlanExport,
} from './index.ts'
import { syntheticClimb } from '../../test/fixtures/synthetic-climb.ts'

const gpx = new TextEncoder().encode(syntheticClimb().gpx)
const imported = importCourse(gpx, 'synthetic-climb.gpx', { segmentLengthM: 20 })
const course = imported.course

// Positions with distance along them, scaled to the course's distance (as the API's trackOf).
const points: ExportPoint[] = []
{
  const t = imported.track
  let along = 0
  for (let i = 0; i < t.lat.length; i++) {
    if (i > 0) along += groundDistance(t.lat[i - 1]!, t.lon[i - 1]!, t.lat[i]!, t.lon[i]!)
    points.push({ lat: t.lat[i]!, lon: t.lon[i]!, ele: t.ele[i]!, distanceM: along })
  }
  const scale = course.start[course.n]! / along
  for (const p of points) p.distanceM *= scale
}

const result = optimizePacing({
  course,
  rider: {
    massKg: 70,
    bikeMassKg: 8,
    cdaM2: 0.32,
    crr: 0.004,
    drivetrainEfficiency: 0.976,
    cpW: 280,
    wPrimeJ: 20000,
    maxPowerW: 700,
  },
  pacing: { constraint: { type: 'w_prime_balance' }, maxTargets: 8 },
})
const sim = result.plan!.simulation!
const sections = result.plan!.sections.map((s) => {
  let t = 0
  let i = 0
  while (i < course.n && course.start[i]! < s.endM - 1e-6) {
    if (course.start[i]! >= s.startM - 1e-6) t += sim.segments.duration[i]!
    i++
  }
  return { ...s, durationS: t, timeS: sim.segments.time[i - 1]!, speedMps: (s.endM - s.startM) / t }
})
const plan: PlanExport = {
  name: 'Synthetic climb – race plan',
  sections,
  points,
  startTime: new Date(Date.UTC(2026, 6, 14, 9, 0, 0)),
}

describe('FIT course with power targets', () => {
  const bytes = writePlanFitCourse(plan)
  const decoder = new Decoder(Stream.fromByteArray(bytes))
  // The SDK's messages are untyped records keyed by message name.
  type Mesgs = 'fileIdMesgs' | 'courseMesgs' | 'recordMesgs' | 'coursePointMesgs' | 'lapMesgs'
  const { messages, errors } = decoder.read() as unknown as {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    messages: Record<Mesgs, any[]>
    errors: unknown[]
  }

  it('is a valid FIT file that Garmin’s SDK decodes without errors', () => {
    expect(new Decoder(Stream.fromByteArray(bytes)).isFIT()).toBe(true)
    expect(new Decoder(Stream.fromByteArray(bytes)).checkIntegrity()).toBe(true)
    expect(errors).toEqual([])
    expect(messages.fileIdMesgs[0]!.type).toBe('course')
    expect(messages.courseMesgs[0]!.name).toBe(plan.name)
    expect(messages.courseMesgs[0]!.sport).toBe('cycling')
  })

  it('carries every position with its target power, in order of distance and time', () => {
    const records = messages.recordMesgs
    expect(records.length).toBe(points.length)
    for (let i = 1; i < records.length; i++) {
      expect(records[i]!.distance).toBeGreaterThanOrEqual(records[i - 1]!.distance - 0.01)
      expect(records[i]!.timestamp.getTime()).toBeGreaterThanOrEqual(
        records[i - 1]!.timestamp.getTime(),
      )
    }
    const mid = records[Math.floor(records.length / 2)]!
    const target = sections.find((s) => mid.distance < s.endM) ?? sections.at(-1)!
    expect(mid.power).toBe(Math.round(target.powerW))
    expect(mid.positionLat / (2 ** 31 / 180)).toBeCloseTo(
      points[Math.floor(points.length / 2)]!.lat,
      5,
    )
  })

  it('announces each section as a course point and times the lap as the plan', () => {
    expect(messages.coursePointMesgs.length).toBe(sections.length)
    expect(messages.coursePointMesgs[0]!.name).toMatch(/^\d+ W/)
    const lap = messages.lapMesgs[0]!
    expect(lap.totalDistance).toBeCloseTo(course.start[course.n]!, 0)
    expect(Math.abs(lap.totalElapsedTime - result.plan!.timeS)).toBeLessThan(1)
  })
})

describe('GPX with the plan in extensions', () => {
  const doc = new DOMParser().parseFromString(writePlanGpx(plan), 'text/xml')
  it('is a GPX 1.1 track of every position with the plan sections in metadata', () => {
    expect(doc.documentElement!.getAttribute('version')).toBe('1.1')
    expect(doc.getElementsByTagName('trkpt').length).toBe(points.length)
    const s = doc.getElementsByTagNameNS(PLAN_XMLNS, 'section')
    expect(s.length).toBe(sections.length)
    expect(Number(s[0]!.getAttribute('power_w'))).toBe(Math.round(sections[0]!.powerW))
    expect(doc.getElementsByTagNameNS(PLAN_XMLNS, 'power').length).toBe(points.length)
  })
  it('reads back as a course of the same length', () => {
    const again = importCourse(new TextEncoder().encode(writePlanGpx(plan)), 'plan.gpx')
    expect(again.stats.distanceM / imported.stats.distanceM).toBeCloseTo(1, 2)
  })
})

describe('CSV plan', () => {
  const row = {
    start_m: 0,
    end_m: 1250,
    label: 'climb with headwind',
    grade: 0.0712,
    power_w: 301.6,
    speed_mps: 4.2,
    duration_s: 297.6,
    elapsed_s: 297.6,
  }
  it('has a header and one row per section with the rounded target', () => {
    const lines = writePlanCsv(plan).trim().split('\r\n')
    expect(lines[0]).toBe(
      'section,start_km,end_km,terrain,grade_pct,target_power_w,speed_kmh,section_time_s,elapsed_s,elapsed',
    )
    expect(lines.length).toBe(sections.length + 1)
    expect(lines[1]!.split(',')[5]).toBe(String(Math.round(sections[0]!.powerW)))
  })
  it("writes a run's plan in km, %, W, km/h, s and h:mm:ss, CRLF-terminated (RFC 4180)", () => {
    const csv = writePlanCsv({
      name: 'x',
      sections: exportSections([row, { ...row, start_m: 1250, end_m: 3600, elapsed_s: 3725.4 }]),
    })
    expect(csv.split('\r\n')).toEqual([
      'section,start_km,end_km,terrain,grade_pct,target_power_w,speed_kmh,section_time_s,elapsed_s,elapsed',
      '1,0.000,1.250,climb with headwind,7.1,302,15.1,297.6,297.6,0:04:58',
      '2,1.250,3.600,climb with headwind,7.1,302,15.1,297.6,3725.4,1:02:05',
      '',
    ])
  })
  it('adds the position column when the plan names positions', () => {
    const csv = writePlanCsv({
      name: 'x',
      sections: exportSections([{ ...row, position: 'Aero' }]),
    })
    expect(csv.split('\r\n').slice(0, 2)).toEqual([
      'section,start_km,end_km,terrain,position,grade_pct,target_power_w,speed_kmh,section_time_s,elapsed_s,elapsed',
      '1,0.000,1.250,climb with headwind,Aero,7.1,302,15.1,297.6,297.6,0:04:58',
    ])
  })
  it('quotes labels with commas, quotes and line breaks', () => {
    const csv = writePlanCsv({
      name: 'x',
      sections: [
        { startM: 0, endM: 10, powerW: 200, label: 'a, "b"' },
        { startM: 10, endM: 20, powerW: 200, label: 'c\nd' },
      ],
    })
    expect(csv.split('\r\n')[1]).toContain(',"a, ""b""",')
    expect(csv.split('\r\n')[2]).toContain(',"c\nd",')
  })
})

describe('bad plans name the problem', () => {
  it('refuses an empty plan, a negative power and a route without positions', () => {
    expect(() => writePlanCsv({ name: 'x', sections: [] })).toThrow(ExportError)
    expect(() =>
      writePlanCsv({ name: 'x', sections: [{ startM: 0, endM: 10, powerW: -5 }] }),
    ).toThrow(/Section 1: .* -5 W/)
    expect(() => writePlanFitCourse({ name: 'x', sections, points: [] })).toThrow(/no positions/)
  })
})
