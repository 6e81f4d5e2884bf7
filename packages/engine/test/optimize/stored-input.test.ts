// The one builder from stored rows to the optimizer scenario (API run and browser preview): the
// stored inputs are fully effective (wind per stretch, positions, setup override), what the engine
// does not know (event_start) stays out, and the scenario it builds is accepted by the parser.
import { describe, expect, it } from 'vitest'
import {
  courseFromSegments,
  parseOptimizeScenario,
  storedOptimizerInput,
  type StoredSegmentRow,
  type StoredSetup,
} from '../../src/index.ts'

const rows: StoredSegmentRow[] = Array.from({ length: 40 }, (_, i) => ({
  start: i * 50,
  end: (i + 1) * 50,
  grade: i < 20 ? 0 : 0.06,
  heading: 90,
  radius: null,
  altitude: 200 + Math.max(0, i - 20) * 3,
  ...(i >= 30 ? { surface: 'rough' as const } : {}),
}))
const setup: StoredSetup = {
  rider_mass: 70,
  bike_mass: 8,
  extra_mass: 1,
  positions: [
    { name: 'aero', cda: 0.25, min_speed: 7, max_speed: 25 },
    { name: 'hoods', cda: 0.32, min_speed: 0, max_speed: 7 },
  ],
  crr: { smooth: 0.003, normal: 0.004, rough: 0.006 },
  drivetrain_efficiency: 0.976,
  wheel_inertia: 0.14,
  cp: 280,
  w_prime: 20000,
  max_power: null,
}

const parse = (i: ReturnType<typeof storedOptimizerInput>) =>
  parseOptimizeScenario(i.scenario, () => courseFromSegments(i.segments, i.startAltitudeM))

describe('stored optimization inputs → optimizer scenario', () => {
  const inputs = {
    environment: {
      temperature_c: 15,
      wind_speed_mps: 2,
      wind_from_deg: 90,
      wind_segments: [{ start_m: 1000, end_m: 2000, wind_speed_mps: 6, wind_from_deg: 270 }],
      event_start: '2026-07-14T09:30',
    },
    rider_override: {
      rider_mass: 65,
      crr: { normal: 0.005 },
      positions: [{ name: 'TT', cda: 0.22, min_speed: 0, max_speed: 30 }],
    },
    max_targets: 30,
  }
  const built = storedOptimizerInput(rows, undefined, setup, inputs, 'pacing')
  const parsed = parse(built)

  it('applies the override to this optimization only (the saved setup is untouched)', () => {
    expect(parsed.input.rider.massKg).toBe(65 + 1)
    expect(parsed.input.rider.crr).toBe(0.005)
    expect(parsed.input.rider.cdaM2).toBe(0.22)
    // one position left: no per-segment positions needed
    expect(parsed.input.rider.positions).toBeUndefined()
    // a partial crr keeps the other surfaces: rough/normal = 0.006 / 0.005
    expect(built.segments[35]!.crrFactor).toBeCloseTo(0.006 / 0.005, 12)
    expect(built.setup.rider_mass).toBe(65)
    expect(setup.rider_mass).toBe(70)
    expect(setup.crr.normal).toBe(0.004)
  })

  it('passes the wind stretches and leaves event_start out (stored only)', () => {
    expect(parsed.input.environment!.windSegments).toEqual([
      { startM: 1000, endM: 2000, speedMps: 6, fromDeg: 270 },
    ])
    expect(parsed.input.environment!.windSpeedMps).toBe(2)
    expect(built.scenario.environment).not.toHaveProperty('event_start')
  })

  it('passes every position with its speed range; the first is the reference CdA', () => {
    const p = parse(storedOptimizerInput(rows, 'normal', setup, {}, 'pacing'))
    expect(p.input.rider.cdaM2).toBe(0.25)
    expect(p.input.rider.positions).toEqual([
      { name: 'aero', cdaM2: 0.25, minSpeedMps: 7, maxSpeedMps: 25 },
      { name: 'hoods', cdaM2: 0.32, minSpeedMps: 0, maxSpeedMps: 7 },
    ])
    // defaults: W′ balance, 12 targets, 2 × CP as the highest power, 20 °C
    expect(p.input.pacing.constraint).toEqual({ type: 'w_prime_balance' })
    expect(p.input.pacing.maxTargets).toBe(12)
    expect(p.input.rider.maxPowerW).toBe(560)
    expect(p.input.environment!.temperatureC).toBe(20)
  })

  it('clamps max_targets to 20 and reads the older altitude_m as the pressure altitude', () => {
    expect(parsed.input.pacing.maxTargets).toBe(20)
    const p = parse(
      storedOptimizerInput(rows, undefined, setup, { environment: { altitude_m: 800 } }, 'pacing'),
    )
    expect(p.input.environment!.pressureAltitudeM).toBe(800)
  })

  it('reads equipment in the engine’s form and in the older list form alike', () => {
    const engineForm = {
      groups: { Wheels: [{ name: 'Alloy' }, { name: 'Deep', cda_delta_m2: -0.01, crr: 0.0036 }] },
      baseline: { Wheels: 'Alloy' },
    }
    const listForm = {
      groups: [
        {
          name: 'Wheels',
          options: [{ name: 'Alloy' }, { name: 'Deep', cda_delta: -0.01, crr_factor: 0.9 }],
        },
      ],
    }
    const a = parse(
      storedOptimizerInput(rows, undefined, setup, { equipment: engineForm }, 'equipment'),
    )
    const b = parse(
      storedOptimizerInput(rows, undefined, setup, { equipment: listForm }, 'equipment'),
    )
    expect(a.equipment!.baseline).toEqual({ Wheels: 'Alloy' })
    expect(b.equipment!.baseline).toEqual({ Wheels: 'Alloy' })
    expect(b.equipment!.groups.Wheels![1]!.cdaDeltaM2).toBe(-0.01)
    expect(b.equipment!.groups.Wheels![1]!.crr).toBeCloseTo(0.0036, 12)
  })

  it.each([
    [{ rider_mass: -5 }, /rider_override\.rider_mass: expected a number from 1 to 500, got -5/],
    [
      { positions: [{ cda: 0.3, min_speed: 9, max_speed: 4 }] },
      /rider_override\.positions\[0\]\.max_speed.*\(9\), got 4/,
    ],
    [{ crr: { wet: 0.01 } }, /rider_override\.crr\.wet/],
    [{ cp: 'high' }, /rider_override\.cp.*"high"/],
    [{ bike_type: 'tt' }, /rider_override\.bike_type.*unknown field/],
    [{ positions: [] }, /rider_override\.positions: expected a non-empty list/],
  ])('refuses a bad override naming the field and the value (%#)', (override, message) => {
    expect(() =>
      storedOptimizerInput(rows, undefined, setup, { rider_override: override }, 'pacing'),
    ).toThrow(message)
  })

  it('gives the setup’s durability and heat acclimatisation to the rider', () => {
    const trained = { ...setup, durability: 0.06, heat_acclimatised: true }
    const p = parse(storedOptimizerInput(rows, undefined, trained, {}, 'pacing'))
    expect(p.input.rider.durability).toBe(0.06)
    expect(p.input.rider.heatAcclimatised).toBe(true)
    // a setup without them (null, false or absent) models no fade and no acclimatisation
    const plain = storedOptimizerInput(
      rows,
      undefined,
      { ...setup, durability: null, heat_acclimatised: false },
      {},
      'pacing',
    )
    expect(plain.scenario.rider).not.toHaveProperty('durability')
    expect(plain.scenario.rider).not.toHaveProperty('heat_acclimatised')
    expect(parse(plain).input.rider.durability).toBeUndefined()
  })

  it('passes the heat and altitude options, the fuel and a target time to the scenario', () => {
    const p = parse(
      storedOptimizerInput(
        rows,
        undefined,
        setup,
        {
          options: { heat: true, altitude: false },
          fuel: { gut_tolerance_g_per_h: 90 },
          constraint: { type: 'target_time', time_s: 400 },
        },
        'pacing',
      ),
    )
    expect(p.input.options).toMatchObject({ heat: true, altitude: false })
    expect(p.fuel).toEqual({ gutToleranceGPerH: 90 })
    expect(p.targetTimeS).toBe(400)
    expect(p.input.pacing.constraint).toEqual({ type: 'w_prime_balance' })
  })

  it('passes the pacing rules as stored, for the engine’s parser to check', () => {
    const rules = {
      easy_start: { duration_s: 600, max_cp_fraction: 0.85 },
      coast: { descent_grade: -0.05, before_braking: true },
      descent_cap: { grade: -0.04, power_w: 150 },
    }
    const built = storedOptimizerInput(rows, undefined, setup, { rules }, 'pacing')
    expect(built.scenario.rules).toEqual(rules)
    expect(storedOptimizerInput(rows, undefined, setup, {}, 'pacing').scenario).not.toHaveProperty(
      'rules',
    )
  })

  it('refuses a bad fuel value through the engine’s parser, naming the field and value', () => {
    const bad = storedOptimizerInput(
      rows,
      undefined,
      setup,
      { fuel: { gut_tolerance_g_per_h: 200 } },
      'pacing',
    )
    expect(() => parse(bad)).toThrow(/fuel\.gut_tolerance_g_per_h: expected 30 to 150, got 200/)
  })

  it('refuses bad wind stretches through the engine’s parser, naming the field', () => {
    const bad = storedOptimizerInput(
      rows,
      undefined,
      setup,
      {
        environment: {
          wind_segments: [{ start_m: 500, end_m: 400, wind_speed_mps: 3, wind_from_deg: 0 }],
        },
      },
      'pacing',
    )
    expect(() => parse(bad)).toThrow(/environment\.wind_segments\[0\]\.end_m.*\(500\), got 400/)
  })
})
