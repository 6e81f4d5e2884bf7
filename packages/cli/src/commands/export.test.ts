// `veloptima export`, spawned as the real command on what `veloptima optimize` printed for the
// self-made climb: every format read back by a reader that shares no code with its writer
// (Garmin's FIT SDK, the XML parser the readers use, a plain line reader), and checked against
// the optimize output's own plan and ride.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Decoder, Stream } from '@garmin/fitsdk'
import { DOMParser } from '@xmldom/xmldom'
import { describe, expect, it } from 'vitest'
import { syntheticClimb } from '../../../formats/test/fixtures/synthetic-climb.ts'
import {
  inputDir,
  jsonOf,
  veloptima,
  writeInput as write,
  scenarioRider,
} from '../../test/run-cli.ts'
import { exportCommand } from './export.ts'

const climb = write(syntheticClimb().gpx, 'gpx')
const CP = scenarioRider.cp_w
const result = jsonOf(
  veloptima(
    'optimize',
    write({
      course: { file: climb },
      rider: { ...scenarioRider, max_power_w: 700 },
      environment: { air_density_kg_m3: 1.2 },
      constraint: { type: 'w_prime_balance' },
      max_targets: 5,
    }),
  ),
)
const resultFile = write(result)
type Section = { start_m: number; end_m: number; power_w: number }
type Segment = { end_m: number; time_s: number }
const plan = result.plan as Section[]
const segments = result.segments as Segment[]
/** The ride's elapsed time at the end of a section: the time of the segment ending there. */
const elapsedAtEnd = (s: Section) =>
  segments.reduce((a, b) => (Math.abs(b.end_m - s.end_m) < Math.abs(a.end_m - s.end_m) ? b : a))
    .time_s
/** The section ridden at elapsed time `t`. */
const sectionAtTime = (t: number) => plan.find((s) => t <= elapsedAtEnd(s)) ?? plan.at(-1)!

const exported = (format: string, ...flags: string[]) => {
  const r = veloptima('export', '--format', format, ...flags, resultFile)
  expect(r.stderr).toBe('')
  expect(r.code).toBe(0)
  return r.stdout
}
const exportedFile = (format: string, ...flags: string[]) => {
  const out = join(inputDir, `plan.${format}`)
  expect(exported(format, '--out', out, ...flags)).toBe('')
  return readFileSync(out)
}
const xml = (text: string) => new DOMParser().parseFromString(text, 'text/xml').documentElement!
// The SDK's messages are untyped records keyed by message name.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const fit = (bytes: Uint8Array): { messages: Record<string, any[]>; errors: unknown[] } => {
  expect(new Decoder(Stream.fromByteArray(bytes)).checkIntegrity()).toBe(true)
  return new Decoder(Stream.fromByteArray(bytes)).read() as never
}

/** ERG/MRC data rows: [minutes, value]. */
const courseRows = (text: string) => {
  const lines = text.split(/\r?\n/)
  return lines
    .slice(lines.indexOf('[COURSE DATA]') + 1, lines.indexOf('[END COURSE DATA]'))
    .map((l) => l.split('\t').map(Number) as [number, number])
}
const expectRowsFollowPlan = (rows: [number, number][], watts: (v: number) => number) => {
  expect(rows[0]![0]).toBe(0)
  expect(Math.abs(rows.at(-1)![0] * 60 - result.time_s)).toBeLessThan(0.31)
  for (let k = 0; k < rows.length; k += 2) {
    const mid = ((rows[k]![0] + rows[k + 1]![0]) / 2) * 60
    expect(Math.abs(watts(rows[k]![1]) - sectionAtTime(mid).power_w)).toBeLessThanOrEqual(0.5)
  }
}

describe('veloptima export', () => {
  it('the optimize result it reads has a plan of several targets and the ride’s times', () => {
    expect(result.status).toBe('optimal')
    expect(new Set(plan.map((s) => Math.round(s.power_w))).size).toBeGreaterThan(1)
    expect(elapsedAtEnd(plan.at(-1)!)).toBeCloseTo(result.time_s, 1)
  })

  it('erg and mrc: the plan’s watts (or percent of --cp) over its predicted time', () => {
    expectRowsFollowPlan(courseRows(exported('erg')), (w) => w)
    const mrc = exported('mrc', '--cp', String(CP))
    expect(mrc).toContain('MINUTES PERCENT')
    expectRowsFollowPlan(courseRows(mrc), (pct) => (pct * CP) / 100)
  })

  it('zwo: blocks adding up to the plan’s time, at the plan’s power as a fraction of CP', () => {
    const blocks = Array.from(
      xml(exported('zwo', '--cp', String(CP))).getElementsByTagName('SteadyState'),
    )
    let t = 0
    for (const b of blocks) {
      const d = Number(b.getAttribute('Duration'))
      const power = Number(b.getAttribute('Power')) * CP
      expect(Math.abs(power - sectionAtTime(t + d / 2).power_w)).toBeLessThan(1)
      t += d
    }
    expect(Math.abs(t - result.time_s)).toBeLessThan(1)
  })

  it('under rules, the rows as ridden: a held stretch is its own ERG block at its power', () => {
    const ruled = jsonOf(
      veloptima(
        'optimize',
        write({
          course: { file: climb },
          rider: { ...scenarioRider, max_power_w: 700 },
          environment: { air_density_kg_m3: 1.2 },
          constraint: { type: 'w_prime_balance' },
          rules: { stretches: [{ start_m: 3000, end_m: 3500, power_w: 150, label: 'feed' }] },
          max_targets: 5,
        }),
      ),
    )
    const rows = ruled.plan as (Section & {
      label: string
      elapsed_s: number
      duration_s: number
    })[]
    const held = rows.find((r) => r.label === 'Held 150 W')!
    // the stretch on the course's own segments (20 m): its ends within half a segment
    expect(Math.abs(held.start_m - 3000)).toBeLessThan(10)
    expect(Math.abs(held.end_m - 3500)).toBeLessThan(10)
    expect(held.power_w).toBe(150)
    const r = veloptima('export', '--format', 'erg', write(ruled))
    expect(r.code).toBe(0)
    const erg = courseRows(r.stdout)
    // the block that ends at the held row's end starts at its start, at 150 W
    const startMin = (held.elapsed_s - held.duration_s) / 60
    const k = erg.findIndex(
      ([t, w], j) => j % 2 === 0 && Math.abs(t - startMin) < 0.01 && w === 150,
    )
    expect(k).toBeGreaterThanOrEqual(0)
    expect(erg[k + 1]![0]).toBeCloseTo(held.elapsed_s / 60, 2)
  })

  it('takes the CP from the scenario a result carries when --cp is not given', () => {
    const withRider = write({ ...result, cp_w: undefined, scenario: { rider: { cp_w: 250 } } })
    const r = veloptima('export', '--format', 'zwo', withRider)
    expect(r.code).toBe(0)
    const first = xml(r.stdout).getElementsByTagName('SteadyState')[0]!
    expect(Number(first.getAttribute('Power')) * 250).toBeCloseTo(plan[0]!.power_w, 0)
  })

  it('csv: one row per section with its target power and elapsed time', () => {
    const rows = exported('csv').trim().split('\r\n')
    const head = rows[0]!.split(',')
    const cells = rows.slice(1).map((r) => r.split(','))
    expect(cells).toHaveLength(plan.length)
    cells.forEach((c, i) => {
      expect(Number(c[head.indexOf('target_power_w')])).toBe(Math.round(plan[i]!.power_w))
      expect(Number(c[head.indexOf('elapsed_s')])).toBeCloseTo(elapsedAtEnd(plan[i]!), 0)
    })
  })

  it('fit-workout: one step per target range, distances adding up to the course, watts targets', () => {
    const { messages, errors } = fit(exportedFile('fit-workout'))
    expect(errors).toEqual([])
    expect(messages.fileIdMesgs![0].type).toBe('workout')
    let along = 0
    for (const s of messages.workoutStepMesgs!) {
      const section = plan.find((p) => p.end_m > along + s.durationDistance / 2)!
      const [low, high] = [s.customTargetPowerLow - 1000, s.customTargetPowerHigh - 1000]
      expect(low).toBeLessThanOrEqual(section.power_w)
      expect(high).toBeGreaterThanOrEqual(section.power_w)
      along += s.durationDistance
    }
    expect(Math.abs(along - result.distance_m)).toBeLessThan(1)
  })

  it('fit and gpx: the route from --course with each position’s target power', () => {
    const { messages, errors } = fit(exportedFile('fit', '--course', climb))
    expect(errors).toEqual([])
    const records = messages.recordMesgs!
    expect(records.length).toBeGreaterThan(10)
    expect(Math.abs(records.at(-1).distance - result.distance_m)).toBeLessThan(1)
    for (const r of records) {
      const section = plan.find((p) => r.distance < p.end_m) ?? plan.at(-1)!
      expect(r.power).toBe(Math.round(section.power_w))
    }
    const gpx = xml(exported('gpx', '--course', climb))
    expect(gpx.getElementsByTagName('trkpt').length).toBe(records.length)
    expect(gpx.getElementsByTagName('vo:section').length).toBe(plan.length)
  })

  it('says what is missing: a format, a CP, the course, the plan’s times, a file for FIT', async () => {
    const fails = (args: string[], message: RegExp) => {
      const r = veloptima('export', ...args)
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(message)
    }
    fails(['--format', 'pdf', resultFile], /--format: expected one of fit, gpx, csv, .* got pdf/)
    expect(result.cp_w).toBe(CP) // the optimize output carries its rider's CP
    const cpless = write({ ...result, cp_w: undefined })
    fails(['--format', 'mrc', cpless], /--cp: .*give --cp W/)
    fails(['--format', 'gpx', resultFile], /--course: expected the course file/)
    const shorter = write(syntheticClimb('Shorter', 20, 6000).gpx, 'gpx')
    fails(['--format', 'fit', '--course', shorter, resultFile], /the course the plan was made on/)
    const timeless = write({ plan, targets: result.targets })
    fails(['--format', 'erg', timeless], /Section 1: .*durationS or timeS/)
    // a terminal gets no binary: checked in-process, with stdout standing for a terminal
    const tty = process.stdout.isTTY
    process.stdout.isTTY = true
    try {
      await expect(exportCommand(['--format', 'fit-workout', resultFile])).rejects.toThrow(
        /--out: a fit-workout file is binary/,
      )
    } finally {
      process.stdout.isTTY = tty
    }
  })
})
