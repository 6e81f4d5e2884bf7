import { describe, expect, it } from 'vitest'
import { courseFromSegments, parseOptimizeScenario } from '@veloptima/engine'
import { optimizerInputOf, type SetupLike } from './engine-input.ts'
import {
  optimizationFormOf,
  readOptimizationForm,
  type OptimizationForm,
} from './optimization-form.ts'

const setup: SetupLike = {
  rider_mass: 70,
  bike_mass: 8,
  extra_mass: 1,
  positions: [{ cda: 0.3 }],
  crr: { smooth: 0.003, normal: 0.004, rough: 0.005 },
  drivetrain_efficiency: 0.976,
  wheel_inertia: 0.14,
  cp: 280,
  w_prime: 20000,
  max_power: 700,
}
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
