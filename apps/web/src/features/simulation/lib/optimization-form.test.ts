import { describe, expect, it } from 'vitest'
import { courseFromSegments, parseOptimizeScenario, WHEELS } from '@veloptima/engine'
import { optimizerInputOf, type SetupLike } from './engine-input.ts'
import {
  newOption,
  optimizationFormOf,
  readOptimizationForm,
  readWindRows,
  windRowsFromSections,
  withWheelPreset,
  type OptimizationForm,
} from './optimization-form.ts'
import { previewSetup } from './preview-fixtures.ts'

const setup: SetupLike = previewSetup({
  positions: [{ cda: 0.3 }],
  crr: { smooth: 0.003, normal: 0.004, rough: 0.005 },
})
const segments = [
  { start: 0, end: 500, grade: 0.01, heading: 90, radius: null, altitude: 100 },
  {
    start: 500,
    end: 1000,
    grade: -0.01,
    heading: 90,
    radius: null,
    altitude: 105,
    surface: 'rough' as const,
  },
]

function form(system: 'metric' | 'imperial'): OptimizationForm {
  const f = optimizationFormOf(
    { name: 'x', course_id: null, rider_setup_id: null, inputs: {} },
    'equipment',
    system,
  )
  return { ...f, name: 'Wheels on the TT' }
}

describe('optimization form', () => {
  it('reads imperial input into SI: 68 °F is 20 °C, 1000 ft is 304.8 m, 10 mph is 4.4704 m/s', () => {
    const f = {
      ...form('imperial'),
      temperature: '68',
      altitude: '1000',
      windSpeed: '10',
      windFrom: '270',
    }
    const { body, errors } = readOptimizationForm(f, 'equipment', 'imperial')
    expect(errors).toEqual({})
    const env = body!.inputs.environment!
    expect(env.temperature_c).toBeCloseTo(20, 9)
    expect(env.pressure_altitude_m).toBeCloseTo(304.8, 9)
    expect(env.wind_speed_mps).toBeCloseTo(4.4704, 9)
    expect(env.wind_from_deg).toBe(270)
  })

  it('writes equipment groups the engine’s scenario parser accepts, first option as baseline', () => {
    const { body } = readOptimizationForm(form('metric'), 'equipment', 'metric')
    expect(body!.inputs.equipment).toEqual({
      groups: {
        Wheels: [
          { name: 'Shallow alloy', cda_delta_m2: 0, mass_delta_kg: 0 },
          { name: 'Deep carbon', cda_delta_m2: -0.012, mass_delta_kg: 0.3 },
        ],
      },
      baseline: { Wheels: 'Shallow alloy' },
    })
    const input = optimizerInputOf(segments, undefined, setup, body!.inputs, 'equipment')
    const parsed = parseOptimizeScenario(input.scenario, () =>
      courseFromSegments(input.segments, input.startAltitudeM),
    )
    expect(parsed.equipment!.baseline).toEqual({ Wheels: 'Shallow alloy' })
    expect(parsed.input.pacing.constraint).toEqual({ type: 'w_prime_balance' })
    // Rough road: the setup's Crr ratio rough/normal becomes the segment's factor.
    expect(input.segments[1]!.crrFactor).toBeCloseTo(0.005 / 0.004, 12)
  })

  it('round-trips stored inputs back into the form', () => {
    const { body } = readOptimizationForm(form('metric'), 'equipment', 'metric')
    const again = optimizationFormOf(
      { ...body!, course_id: null, rider_setup_id: null },
      'equipment',
      'metric',
    )
    expect(again.groups[0]!.options.map((o) => o.name)).toEqual(['Shallow alloy', 'Deep carbon'])
    expect(readOptimizationForm(again, 'equipment', 'metric').body!.inputs).toEqual(body!.inputs)
  })

  it('names the field and the value for bad input', () => {
    const f = {
      ...form('metric'),
      windSpeed: 'fast',
      maxTargets: '40',
      constraint: 'normalized_power' as const,
      power: '',
    }
    f.groups = [{ ...f.groups[0]!, options: [f.groups[0]!.options[0]!] }]
    const { body, errors } = readOptimizationForm(f, 'equipment', 'metric')
    expect(body).toBeNull()
    expect(errors.windSpeed).toBe('Wind speed: enter a number (got “fast”).')
    expect(errors.maxTargets).toBe('Number of targets must be between 1 and 20 targets (got 40).')
    expect(errors.power).toBe('Normalized power: enter a number.')
    expect(errors.g0).toBe('Wheels: add at least two options (a baseline and an alternative).')
  })
})

describe('wind per stretch', () => {
  const row = (start: string, end: string, speed = '10', from = '270') => ({
    start,
    end,
    speed,
    from,
  })

  it('reads miles and mph into metres and m/s (1 mi = 1609.344 m, 10 mph = 4.4704 m/s)', () => {
    const errors: Record<string, string> = {}
    const rows = readWindRows([row('0', '1.5'), row('1.5', '3')], 'imperial', 5000, errors)
    expect(errors).toEqual({})
    expect(rows[0]).toEqual({
      start_m: 0,
      end_m: 1.5 * 1609.344,
      wind_speed_mps: expect.closeTo(4.4704, 9) as number,
      wind_from_deg: 270,
    })
    expect(rows[1]!.start_m).toBeCloseTo(2414.016, 9)
  })

  it('names the row and field: end before start, beyond the course, overlap, bad number', () => {
    const errors: Record<string, string> = {}
    readWindRows(
      [row('4', '6'), row('3', '2'), row('5', '9'), row('0', '4.5'), row('x', '1')],
      'metric',
      8000,
      errors,
    )
    expect(errors['wind1.end']).toBe('Wind stretch 2 end must be after its start (3 km), got 2 km.')
    expect(errors['wind2.end']).toBe(
      'Wind stretch 3 end must be inside the course (at most 8.00 km), got 9 km.',
    )
    // sorted by start: stretch 4 (0–4.5) then stretch 1 (4–6), which overlaps it
    expect(errors['wind0.start']).toBe(
      'Wind stretch 1 (4.00–6.00 km) overlaps wind stretch 4 (0.00–4.50 km): start it at 4.50 km or later.',
    )
    expect(errors['wind4.start']).toBe('Wind stretch 5 start: enter a number (got “x”).')
  })

  it('nothing is saved while a row is invalid; valid rows are stored in the inputs', () => {
    const bad = { ...form('metric'), windRows: [row('2', '1')] }
    expect(readOptimizationForm(bad, 'equipment', 'metric', { courseLengthM: 5000 }).body).toBe(
      null,
    )
    const good = { ...form('metric'), windRows: [row('1', '2', '36', '45')] }
    const { body } = readOptimizationForm(good, 'equipment', 'metric', { courseLengthM: 5000 })
    expect(body!.inputs.environment!.wind_segments).toEqual([
      { start_m: 1000, end_m: 2000, wind_speed_mps: 10, wind_from_deg: 45 },
    ])
    // and back into the form as typed
    const again = optimizationFormOf(
      { ...body!, course_id: null, rider_setup_id: null },
      'equipment',
      'metric',
    )
    expect(again.windRows).toEqual(good.windRows)
  })

  it('fills one row per course section with the course-wide wind', () => {
    const rows = windRowsFromSections(
      [
        { start_m: 0, end_m: 1609.344 },
        { start_m: 1609.344, end_m: 5000 },
      ],
      '12',
      '90',
      'imperial',
    )
    expect(rows).toEqual([row('0', '1', '12', '90'), row('1', '3.107', '12', '90')])
  })
})

describe('event start and setup override in the inputs', () => {
  it('stores the event start as typed, and refuses a date that does not exist', () => {
    const ok = readOptimizationForm(
      { ...form('metric'), eventStart: '2026-06-14T09:30' },
      'equipment',
      'metric',
    )
    expect(ok.body!.inputs.environment!.event_start).toBe('2026-06-14T09:30')
    const bad = readOptimizationForm(
      { ...form('metric'), eventStart: '2026-02-30T09:30' },
      'equipment',
      'metric',
    )
    expect(bad.body).toBeNull()
    expect(bad.errors.eventStart).toContain('got “2026-02-30T09:30”')
  })

  it('stores only the changed setup values, and the preview input computes with them', () => {
    const f = { ...form('metric'), override: { rider_mass: '65', bike_mass: '8' } }
    const { body } = readOptimizationForm(f, 'equipment', 'metric', { setup })
    expect(body!.inputs.rider_override).toEqual({ rider_mass: 65 })
    expect(
      optimizationFormOf({ ...body!, course_id: null, rider_setup_id: null }, 'equipment', 'metric')
        .override,
    ).toEqual({ rider_mass: '65' })
  })
})

describe('equipment: wheel presets by yaw, power per option, baseline', () => {
  // Decision 0004's wheel model: ΔCdA by yaw against a 30 mm wheel, typical masses (engine WHEELS).
  const f = form('metric')
  f.groups = [
    {
      name: 'Front wheel',
      options: [
        withWheelPreset({ ...newOption(), name: 'Front 30' }, 'front:30', 'metric'),
        withWheelPreset({ ...newOption(), name: 'Front 80' }, 'front:80', 'metric'),
      ],
    },
    {
      name: 'Position',
      options: [
        { ...newOption(), name: 'Base bars' },
        { ...newOption(), name: 'Aero bars', cdaDelta: '-0.04', powerPct: '97' },
      ],
    },
  ]
  const { body, errors } = readOptimizationForm(f, 'equipment', 'metric')

  it('stores a preset as its ΔCdA-by-yaw table and its mass against 30 mm; a position’s power as a factor', () => {
    expect(errors).toEqual({})
    const eq = body!.inputs.equipment!
    const deep = eq.groups['Front wheel']![1]!
    expect(deep.cda_delta_by_yaw).toEqual(WHEELS['80'].frontDeltaCda!.map((d, i) => [i * 2.5, d]))
    expect(deep.cda_delta_m2).toBeUndefined()
    expect(deep.mass_delta_kg).toBeCloseTo(WHEELS['80'].frontMassKg! - WHEELS['30'].frontMassKg!, 9)
    expect(eq.groups['Front wheel']![0]!.mass_delta_kg).toBe(0)
    expect(eq.groups.Position![1]).toMatchObject({ cda_delta_m2: -0.04, power_factor: 0.97 })
    expect(eq.groups.Position![0]!.power_factor).toBeUndefined()
    expect(eq.baseline).toEqual({ 'Front wheel': 'Front 30', Position: 'Base bars' })
  })

  it('round-trips: the stored table is recognized as its preset, the power as a percentage', () => {
    const again = optimizationFormOf(
      { ...body!, course_id: null, rider_setup_id: null },
      'equipment',
      'metric',
    )
    expect(again.groups[0]!.options.map((o) => o.wheel)).toEqual(['front:30', 'front:80'])
    expect(again.groups[1]!.options[1]!.powerPct).toBe('97')
    expect(readOptimizationForm(again, 'equipment', 'metric').body!.inputs).toEqual(body!.inputs)
  })

  it('the engine parses the tables and power factors; a table of one’s own is kept as is', () => {
    const input = optimizerInputOf(segments, undefined, setup, body!.inputs, 'equipment')
    const parsed = parseOptimizeScenario(input.scenario, () =>
      courseFromSegments(input.segments, input.startAltitudeM),
    )
    expect(parsed.equipment!.groups['Front wheel']![1]!.cdaDeltaByYaw).toHaveLength(9)
    expect(parsed.equipment!.groups.Position![1]!.powerFactor).toBe(0.97)
    const own: [number, number][] = [
      [0, -0.001],
      [10, -0.006],
    ]
    const stored = {
      ...body!.inputs,
      equipment: {
        ...body!.inputs.equipment!,
        groups: {
          ...body!.inputs.equipment!.groups,
          'Front wheel': [
            { name: 'Front 30', cda_delta_m2: 0 },
            { name: 'Mine', cda_delta_by_yaw: own },
          ],
        },
      },
    }
    const back = optimizationFormOf(
      { name: 'x', course_id: null, rider_setup_id: null, inputs: stored },
      'equipment',
      'metric',
    )
    expect(back.groups[0]!.options[1]).toMatchObject({ wheel: '', yawTable: own })
    const written = readOptimizationForm(back, 'equipment', 'metric').body!.inputs.equipment!
    expect(written.groups['Front wheel']![1]!.cda_delta_by_yaw).toEqual(own)
  })

  it('switching an option back to a constant ΔCdA drops the table', () => {
    const o = withWheelPreset(f.groups[0]!.options[1]!, '', 'metric')
    expect(o.wheel).toBe('')
    expect(o.yawTable).toBeUndefined()
  })
})
