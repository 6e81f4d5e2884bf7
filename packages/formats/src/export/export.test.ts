// The plan writers on a self-made climb course (packages/formats/test/fixtures/synthetic-climb.ts)
// and a real plan from the engine's pacing optimizer, as a run stores it (pacingOutput); the FIT
// course is decoded back with Garmin's own SDK, the GPX with the XML parser the readers use, and
// each shows the plan's targets.
import { Decoder, Stream } from '@garmin/fitsdk'
import { DOMParser, type Element } from '@xmldom/xmldom'
import { describe, expect, it } from 'vitest'
import { groundDistance, optimizePacing, pacingOutput } from '@veloptima/engine'
import { importCourse } from '../read.ts'
import { writePlanCsv } from './csv.ts'
import { writePlanFitCourse } from './fit-course.ts'
import { PLAN_XMLNS, writePlanGpx } from './gpx.ts'
import { planTargets, targetStarts } from './targets.ts'
import { exportSections, ExportError, type ExportPoint, type PlanExport } from './types.ts'
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
const output = pacingOutput(result, course)
const sections = exportSections(output.plan, output.targets)
const targets = planTargets(sections)
const length = course.start[course.n]!
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

  it('times the lap as the plan', () => {
    const lap = messages.lapMesgs[0]!
    expect(lap.totalDistance).toBeCloseTo(length, 0)
    expect(Math.abs(lap.totalElapsedTime - output.time_s)).toBeLessThan(1)
  })

  it('reads back as the same targets: a course point named by its power where each starts', () => {
    const points = messages.coursePointMesgs
    const starts = targetStarts(targets)
    expect(points.length).toBe(starts.length)
    // Each course point starts a range that runs to the next one (the last to the finish).
    const read = points.map((p, i) => ({
      name: p.name,
      startM: p.distance,
      endM: points[i + 1]?.distance ?? length,
    }))
    expect(read.map((r) => r.name)).toEqual(starts.map((s) => `${Math.round(s.target.powerW)} W`))
    read.forEach((r, i) => {
      expect(r.startM).toBeCloseTo(starts[i]!.range.startM, 1)
      expect(r.endM).toBeCloseTo(starts[i]!.range.endM, 1)
    })
    // Where the rider reaches each point: on the route, at the predicted time.
    for (let i = 1; i < points.length; i++) {
      expect(points[i]!.timestamp.getTime()).toBeGreaterThan(points[i - 1]!.timestamp.getTime())
    }
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
  it('marks where each target starts with a waypoint named by its power, on the route', () => {
    const wpts = Array.from(doc.getElementsByTagName('wpt'))
    const starts = targetStarts(targets)
    expect(wpts.length).toBe(starts.length)
    const text = (e: Element, tag: string) => e.getElementsByTagName(tag)[0]!.textContent
    wpts.forEach((w, i) => {
      const { target, range } = starts[i]!
      expect(text(w, 'name')).toBe(`${Math.round(target.powerW)} W`)
      expect(text(w, 'type')).toBe(`Target ${target.key}`)
      // On the route: between the two positions around the target's start.
      const after = points.findIndex((p) => p.distanceM >= range.startM)
      const [a, b] = [points[Math.max(0, after - 1)]!, points[after]!]
      const lat = Number(w.getAttribute('lat'))
      expect(lat).toBeGreaterThanOrEqual(Math.min(a.lat, b.lat) - 1e-7)
      expect(lat).toBeLessThanOrEqual(Math.max(a.lat, b.lat) + 1e-7)
    })
    // The sections in the extensions name their target's key, as the race sheet does.
    const s = Array.from(doc.getElementsByTagNameNS(PLAN_XMLNS, 'section'))
    targets.forEach((t) => {
      for (const i of t.sections) expect(s[i]!.getAttribute('target')).toBe(t.key)
    })
  })
})

describe('the plan’s targets (the race sheet’s rows)', () => {
  it('are the plan’s several targets, each once, in the order they first come', () => {
    expect(targets.length).toBe(output.targets.length)
    expect(targets.length).toBeGreaterThan(2)
    expect(new Set(targets.map((t) => t.key)).size).toBe(targets.length)
    const firsts = targets.map((t) => t.ranges[0]!.startM)
    expect(firsts).toEqual([...firsts].sort((a, b) => a - b))
    for (const t of targets) {
      expect(output.targets.some((o) => o.power_w === t.powerW && o.label === t.label)).toBe(true)
    }
  })
  it('cover the course once: their ranges add up to its length without overlap', () => {
    const ranges = targets.flatMap((t) => t.ranges).sort((a, b) => a.startM - b.startM)
    expect(ranges[0]!.startM).toBe(0)
    for (let i = 1; i < ranges.length; i++) {
      expect(ranges[i]!.startM).toBeCloseTo(ranges[i - 1]!.endM, 6)
    }
    const total = ranges.reduce((sum, r) => sum + r.endM - r.startM, 0)
    expect(total).toBeCloseTo(length, 0)
  })
  it('take the plan’s finish time between them (each section’s time rounded to 0.1 s)', () => {
    const total = targets.reduce((sum, t) => sum + t.durationS, 0)
    expect(Math.abs(total - output.time_s)).toBeLessThanOrEqual(0.05 * sections.length + 1e-9)
  })
  it('merge the adjacent sections of one target into one range', () => {
    const merged = planTargets([
      { startM: 0, endM: 100, powerW: 300, target: 0 },
      { startM: 100, endM: 250, powerW: 300, target: 0 },
      { startM: 250, endM: 400, powerW: 200, target: 1 },
      { startM: 400, endM: 500, powerW: 300, target: 0 },
    ])
    expect(merged.map((t) => [t.key, t.ranges])).toEqual([
      [
        'A',
        [
          { startM: 0, endM: 250 },
          { startM: 400, endM: 500 },
        ],
      ],
      ['B', [{ startM: 250, endM: 400 }]],
    ])
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
  it('has a header and one row per section with the rounded target and its key last', () => {
    const lines = writePlanCsv(plan).trim().split('\r\n')
    expect(lines[0]).toBe(
      'section,start_km,end_km,terrain,grade_pct,target_power_w,speed_kmh,section_time_s,elapsed_s,elapsed,target',
    )
    expect(lines.length).toBe(sections.length + 1)
    expect(lines[1]!.split(',')[5]).toBe(String(Math.round(sections[0]!.powerW)))
  })
  it('reads back as the same targets: ranges, power and time per target key', () => {
    const rows = writePlanCsv(plan)
      .trim()
      .split('\r\n')
      .slice(1)
      .map((l) => l.split(','))
    for (const t of targets) {
      const mine = rows.filter((r) => r[10] === t.key)
      expect(mine.length).toBe(t.sections.length)
      for (const r of mine) expect(Number(r[5])).toBe(Math.round(t.powerW))
      const seconds = mine.reduce((sum, r) => sum + Number(r[7]), 0)
      expect(seconds).toBeCloseTo(t.durationS, 6)
      const km = mine.map((r) => [Number(r[1]), Number(r[2])])
      expect(km[0]![0]).toBeCloseTo(t.ranges[0]!.startM / 1000, 3)
      expect(km.at(-1)![1]).toBeCloseTo(t.ranges.at(-1)!.endM / 1000, 3)
    }
  })
  it('keeps the columns it had for a plan whose sections carry no target', () => {
    const lines = writePlanCsv({ name: 'x', sections: exportSections(output.plan) }).split('\r\n')
    expect(lines[0]).toBe(
      'section,start_km,end_km,terrain,grade_pct,target_power_w,speed_kmh,section_time_s,elapsed_s,elapsed',
    )
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
