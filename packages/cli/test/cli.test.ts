// Spawns the real `veloptima` command (as `npx veloptima` runs it from the repository root).
import { spawnSync } from 'node:child_process'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { needs } from '../../../scripts/test-data.ts'
import { itWith } from '../../../scripts/test-data-vitest.ts'
import { syntheticClimb } from '../../formats/test/fixtures/synthetic-climb.ts'
import {
  inputDir as dir,
  jsonOf,
  repo,
  veloptima,
  writeInput as write,
  scenarioRider,
} from './run-cli.ts'

const climb = syntheticClimb()
const climbFile = write(climb.gpx, 'gpx')

const rider = { ...scenarioRider, mass_kg: 72 }

describe('veloptima course', () => {
  it('prints the summary of the self-made climb: its length and ascent by construction', () => {
    const r = veloptima('course', climbFile)
    const out = jsonOf(r)
    expect(Math.abs(out.distance_m / climb.distanceM - 1)).toBeLessThan(0.005)
    expect(Math.abs(out.ascent_m / climb.ascentM - 1)).toBeLessThan(0.03)
    expect(out.max_grade).toBeCloseTo(0.1, 2)
  })

  itWith(
    ['courses/alpe-dhuez.gpx'],
    'prints the summary of a real GPX as JSON (13.6 km, +1141 m as published)',
    () => {
      const r = veloptima('course', needs('courses/alpe-dhuez.gpx').path('courses/alpe-dhuez.gpx'))
      const out = jsonOf(r)
      expect(Object.keys(out)).toEqual([
        'distance_m',
        'ascent_m',
        'descent_m',
        'min_grade',
        'max_grade',
        'segment_count',
      ])
      expect(out.distance_m / 1000).toBeCloseTo(13.6, 1)
      expect(Math.abs(out.ascent_m - 1141)).toBeLessThan(35)
    },
  )
  it('bad input: one line on stderr, exit 2', () => {
    const broken = veloptima('course', write('<gpx><trk>', 'gpx'))
    expect(broken.code).toBe(2)
    expect(broken.stdout).toBe('')
    expect(broken.stderr.trim().split('\n')).toHaveLength(1)
    expect(broken.stderr).toMatch(/^veloptima course: .*f\d+\.gpx: not well-formed XML/)
    const missing = veloptima('course', join(dir, 'nope.gpx'))
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/nope\.gpx: cannot read the file \(no such file\)/)
    const none = veloptima('course')
    expect(none.code).toBe(2)
    expect(none.stderr).toMatch(/expected one course file/)
  })
})

describe('veloptima simulate', () => {
  it('runs a segments scenario: one output segment per input segment, totals consistent', () => {
    const file = write({
      course: {
        segments: [
          { length_m: 1000, grade: 0 },
          { length_m: 1000, grade: 0.05, heading_deg: 90 },
          { length_m: 1000, grade: -0.05, surface: 'gravel' },
        ],
        start_altitude_m: 200,
      },
      rider,
      environment: {
        temperature_c: 20,
        pressure_pa: 100000,
        relative_humidity: 0.5,
        wind_speed_mps: 3,
        wind_from_deg: 0,
      },
      options: { start_speed_mps: 9 },
      pacing: { type: 'constant', power_w: 250 },
    })
    const r = veloptima('simulate', file)
    const out = jsonOf(r)
    expect(out.status).toBe('ok')
    expect(out.segments).toHaveLength(3)
    expect(out.segments[2]).toMatchObject({
      start_m: 2000,
      end_m: 3000,
      grade: -0.05,
      power_w: 250,
    })
    expect(out.distance_m).toBe(3000)
    expect(out.time_s).toBeCloseTo(out.segments[2].time_s, 2)
    expect(out.average_speed_mps).toBeCloseTo(3000 / out.time_s, 3)
    expect(out.average_power_w).toBeCloseTo(250, 1)
    expect(out.normalized_power_w).toBeCloseTo(250, 1)
    expect(out.min_w_prime_balance_j).toBe(20000)
    // Wind from the north: a headwind on the first segment, a crosswind (yaw) on the second.
    expect(out.segments[0].air_speed_mps).toBeGreaterThan(out.segments[0].speed_mps)
    expect(Math.abs(out.segments[1].yaw_deg)).toBeGreaterThan(5)
  })

  it('runs a course file given relative to the scenario, with a per-segment plan length check', () => {
    const course = relative(dir, climbFile)
    /** Simulates the course file in still air of 1.2 kg/m³ with `pacing`. */
    const simulateCourse = (pacing: object) =>
      veloptima(
        'simulate',
        write({ course: { file: course }, rider, environment: { air_density_kg_m3: 1.2 }, pacing }),
      )
    const ok = simulateCourse({ type: 'speed', speed_mps: 11 })
    expect(ok.stderr).toBe('')
    const out = JSON.parse(ok.stdout)
    expect(out.distance_m / climb.distanceM).toBeCloseTo(1, 2)
    expect(out.segments.length).toBeGreaterThan(850)
    const bad = simulateCourse({ type: 'plan', power_w: [200, 210] })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(
      /pacing\.power_w: expected one power per course segment \(\d+\), got 2/,
    )
  })

  it('a rider who cannot climb the wall gets a stalled result (exit 0), not NaN', () => {
    const r = veloptima(
      'simulate',
      write({
        course: {
          segments: [
            { length_m: 200, grade: 0 },
            { length_m: 300, grade: 0.3 },
          ],
        },
        rider,
        environment: { air_density_kg_m3: 1.2 },
        pacing: { type: 'constant', power_w: 60 },
      }),
    )
    expect(r.code).toBe(0)
    expect(r.stdout).not.toMatch(/NaN|null,\s*"distance_m": null/)
    const out = JSON.parse(r.stdout)
    expect(out.status).toBe('stalled')
    expect(out.message).toMatch(/cannot keep moving/)
    expect(out.stalled_at_m).toBe(200)
  })

  it('invalid scenarios name the field: exit 2, one line', () => {
    const r = veloptima(
      'simulate',
      write({
        course: { segments: [{ length_m: 10, grade: 0 }] },
        rider: { ...rider, cda_m2: 'big' },
        environment: { air_density_kg_m3: 1.2 },
        pacing: { type: 'constant', power_w: 200 },
      }),
    )
    expect(r.code).toBe(2)
    expect(r.stderr).toBe('veloptima simulate: rider.cda_m2: expected a number, got "big"\n')
    const j = veloptima('simulate', write('{ not json'))
    expect(j.code).toBe(2)
    expect(j.stderr).toMatch(/not valid JSON/)
  })
})

describe('npx veloptima from the repository root', () => {
  it('runs through npx, reading a scenario from stdin', () => {
    const scenario = JSON.stringify({
      course: { segments: [{ length_m: 1000, grade: 0.03 }] },
      rider,
      environment: { air_density_kg_m3: 1.2 },
      pacing: { type: 'speed', speed_mps: 6 },
    })
    const r = spawnSync('npx', ['--no-install', 'veloptima', 'simulate', '-'], {
      cwd: repo,
      encoding: 'utf8',
      input: scenario,
    })
    expect(r.status).toBe(0)
    const out = JSON.parse(r.stdout)
    expect(out.time_s).toBeCloseTo((1000 * Math.sqrt(1 + 0.03 ** 2)) / 6, 2)
  })
})

describe('veloptima air-density', () => {
  it('22 °C, 99991.8 Pa (750 mmHg), 50 %: 1.17433 kg/m³ (rouleur _util.py)', () => {
    const r = veloptima(
      'air-density',
      '--temperature-c',
      '22',
      '--pressure-pa',
      '99991.78',
      '--humidity',
      '0.5',
    )
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout).air_density_kg_m3).toBeCloseTo(1.17433, 4)
    const pct = veloptima(
      'air-density',
      '--temperature-c=22',
      '--pressure-pa=99991.78',
      '--humidity=50',
    )
    expect(JSON.parse(pct.stdout).air_density_kg_m3).toBeCloseTo(1.17433, 4)
  })
  it('rejects a missing temperature with exit 2', () => {
    const r = veloptima('air-density', '--pressure-pa', '100000')
    expect(r.code).toBe(2)
    expect(r.stderr).toBe(
      'veloptima air-density: --temperature-c: expected the air temperature in °C, got nothing\n',
    )
  })
})

describe('veloptima wbal', () => {
  it("CP 300 W, W' 20 kJ, 200 s at 400 W then 100 s at 200 W: min 0 J (Monod & Scherrer), then Skiba 2015 recovery", () => {
    const csv = write(['power', ...Array(200).fill(400), ...Array(100).fill(200)].join('\n'), 'csv')
    const r = veloptima('wbal', '--cp', '300', '--w-prime', '20000', '--model', 'skiba2015', csv)
    expect(r.stderr).toBe('')
    const out = JSON.parse(r.stdout)
    expect(out.min_w_prime_balance_j).toBeCloseTo(0, 1)
    // 100 s at 100 W under CP with τ = W′0/D_CP = 200 s: 20000·(1 − e^(−0.5)) = 7869.4 J
    expect(out.final_w_prime_balance_j).toBeCloseTo(20000 * (1 - Math.exp(-0.5)), 0)
    const i = veloptima('wbal', '--cp', '300', '--w-prime', '20000', '--model', 'skiba2012', csv)
    expect(JSON.parse(i.stdout).min_w_prime_balance_j).toBeGreaterThan(0)
  })
  it('bad CSV and bad model: exit 2 with the line number', () => {
    const csv = write('300\n310\nabc\n', 'csv')
    const r = veloptima('wbal', '--cp', '300', '--w-prime', '20000', csv)
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/f\d+\.csv:3: expected a power in watts, got "abc"/)
    const m = veloptima('wbal', '--cp', '300', '--w-prime', '20000', '--model', 'bartram', csv)
    expect(m.code).toBe(2)
    expect(m.stderr).toMatch(/--model: expected skiba2015 or skiba2012, got "bartram"/)
  })
})

describe('veloptima', () => {
  it('unknown command: exit 2', () => {
    const r = veloptima('fly')
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/unknown command "fly"/)
  })
})
