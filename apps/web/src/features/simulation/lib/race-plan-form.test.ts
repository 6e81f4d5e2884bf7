import { describe, expect, it } from 'vitest'
import { courseFromSegments, parseOptimizeScenario } from '@veloptima/engine'
import { optimizationInputsSchema } from '@veloptima/contracts'
import { optimizerInputOf, type OptimizationInputs, type SetupLike } from './engine-input.ts'
import {
  optimizationFormOf,
  readOptimizationForm,
  type OptimizationForm,
} from './optimization-form.ts'
import { clockOf, secondsOfClock } from './race-plan-form.ts'
import { previewSetup } from './preview-fixtures.ts'

const setup: SetupLike = previewSetup({ positions: [{ cda: 0.3 }] })
const segments = [
  { start: 0, end: 2000, grade: 0.01, heading: 90, radius: null, altitude: 100 },
  { start: 2000, end: 4000, grade: -0.06, heading: 90, radius: null, altitude: 120 },
]

function form(system: 'metric' | 'imperial' = 'metric', inputs: OptimizationInputs = {}) {
  const f = optimizationFormOf(
    { name: 'Race', course_id: null, rider_setup_id: null, inputs },
    'pacing',
    system,
  )
  return f
}

const read = (f: OptimizationForm, type: 'pacing' | 'equipment' = 'pacing') =>
  readOptimizationForm(f, type, 'metric')

describe('race-plan inputs of the optimization form', () => {
  it('reads h:mm:ss and h:mm as seconds and writes seconds as h:mm:ss', () => {
    expect(secondsOfClock('2:30:00')).toBe(9000)
    expect(secondsOfClock(' 0:45 ')).toBe(2700)
    expect(secondsOfClock('1:02:05')).toBe(3725)
    expect(secondsOfClock('90 min')).toBeNull()
    expect(secondsOfClock('1:75:00')).toBeNull()
    expect(clockOf(3725)).toBe('1:02:05')
    expect(clockOf(2700)).toBe('0:45:00')
  })

  it('leaves the inputs as before when nothing is chosen (fastest, no effects, no rules)', () => {
    const { body, errors } = read(form())
    expect(errors).toEqual({})
    expect(body!.inputs.constraint).toEqual({ type: 'w_prime_balance' })
    expect(body!.inputs).not.toHaveProperty('options')
    expect(body!.inputs).not.toHaveProperty('fuel')
    expect(body!.inputs).not.toHaveProperty('rules')
  })

  it('writes the goal, the effects, the gut tolerance and the rules in SI units', () => {
    const f: OptimizationForm = {
      ...form('imperial'),
      goal: 'target_time',
      targetTime: '2:30:00',
      heatEffect: true,
      altitudeEffect: true,
      gutTolerance: '90',
      easyStartMin: '10',
      easyStartPct: '85',
      coastSteeperPct: '5',
      coastBraking: true,
      descentCapPct: '4',
      descentCapW: '150',
    }
    const { body, errors } = readOptimizationForm(f, 'pacing', 'imperial')
    expect(errors).toEqual({})
    const inputs = body!.inputs
    expect(inputs.constraint).toEqual({ type: 'target_time', time_s: 9000 })
    expect(inputs.options).toEqual({ heat: true, altitude: true })
    expect(inputs.fuel).toEqual({ gut_tolerance_g_per_h: 90 })
    expect(inputs.rules).toEqual({
      easy_start: { duration_s: 600, max_cp_fraction: 0.85 },
      coast: { descent_grade: -0.05, before_braking: true },
      descent_cap: { grade: -0.04, power_w: 150 },
    })
    expect(optimizationInputsSchema.safeParse(inputs).success).toBe(true)
    // the engine reads what the form wrote (rules are the engine's to check when a run starts)
    const { rules: _rules, ...rest } = inputs
    const built = optimizerInputOf(segments, undefined, setup, rest, 'pacing')
    const parsed = parseOptimizeScenario(built.scenario, () =>
      courseFromSegments(built.segments, built.startAltitudeM),
    )
    expect(parsed.targetTimeS).toBe(9000)
    expect(parsed.input.options).toMatchObject({ heat: true, altitude: true })
    expect(parsed.fuel).toEqual({ gutToleranceGPerH: 90 })
  })

  it('round-trips stored inputs, keeping what the form does not show (stretches, store)', () => {
    const stored: OptimizationInputs = {
      constraint: { type: 'target_time', time_s: 3725 },
      options: { heat: true },
      fuel: { gut_tolerance_g_per_h: 75, glycogen_store_g: 450 },
      rules: {
        easy_start: { duration_s: 900, max_cp_fraction: 0.8 },
        coast: { before_braking: true },
        stretches: [{ start_m: 1000, end_m: 1500, max_speed_mps: 10, label: 'village' }],
      },
    }
    const f = form('metric', stored)
    expect(f).toMatchObject({
      goal: 'target_time',
      targetTime: '1:02:05',
      heatEffect: true,
      altitudeEffect: false,
      gutTolerance: '75',
      easyStartMin: '15',
      easyStartPct: '80',
      coastSteeperPct: '',
      coastBraking: true,
    })
    const { body } = read(f)
    expect(body!.inputs.constraint).toEqual(stored.constraint)
    expect(body!.inputs.options).toEqual(stored.options)
    expect(body!.inputs.fuel).toEqual(stored.fuel)
    expect(body!.inputs.rules).toEqual(stored.rules)
  })

  it('reads rule stretches in the user’s units, and names the stretch, field and value', () => {
    const f: OptimizationForm = {
      ...form('imperial'),
      stretchRows: [
        { start: '1', end: '1.5', kind: 'max_speed', value: '15', label: ' Feed zone ' },
        { start: '2', end: '2.2', kind: 'power', value: '250', label: '' },
      ],
    }
    const { body, errors } = readOptimizationForm(f, 'pacing', 'imperial')
    expect(errors).toEqual({})
    const [feed, held] = body!.inputs.rules!.stretches!
    expect(feed!.start_m).toBeCloseTo(1609.344, 3)
    expect(feed!.end_m).toBeCloseTo(2414.016, 3)
    expect(feed!.max_speed_mps).toBeCloseTo(15 * 0.44704, 6)
    expect(feed!.label).toBe('Feed zone')
    expect(held).toMatchObject({ power_w: 250 })
    // the engine runs what the form wrote, the stretches included
    const built = optimizerInputOf(segments, undefined, setup, body!.inputs, 'pacing')
    const parsed = parseOptimizeScenario(built.scenario, () =>
      courseFromSegments(built.segments, built.startAltitudeM),
    )
    expect(parsed.input.options!.rules!.stretches![1]).toMatchObject({ powerW: 250 })
    const bad = readOptimizationForm(
      {
        ...form(),
        stretchRows: [
          { start: '3', end: '2', kind: 'max_power', value: '200', label: '' },
          { start: '0', end: '1', kind: 'max_speed', value: 'fast', label: '' },
          { start: '0', end: '9', kind: 'power', value: '4000', label: '' },
        ],
      },
      'pacing',
      'metric',
      { courseLengthM: 4000 },
    )
    expect(bad.body).toBeNull()
    expect(bad.errors).toEqual({
      'stretch0.end': 'Rule stretch 1 end must be after its start (3 km), got 2 km.',
      'stretch1.value': 'Rule stretch 2 speed limit: enter a number (got “fast”).',
      'stretch2.end': 'Rule stretch 3 end must be inside the course (at most 4.00 km), got 9 km.',
      'stretch2.value': 'Rule stretch 3 power must be between 0 and 3000 W (got 4000).',
    })
  })

  it('names the field and the value of a bad entry', () => {
    const f: OptimizationForm = {
      ...form(),
      goal: 'target_time',
      targetTime: '150 min',
      easyStartMin: '10',
      easyStartPct: '',
      coastSteeperPct: '40',
      descentCapPct: '4',
      descentCapW: '5000',
    }
    const { body, errors } = read(f)
    expect(body).toBeNull()
    expect(errors).toEqual({
      targetTime: 'Target time: enter a time as h:mm:ss, e.g. 2:30:00 (got “150 min”).',
      easyStartPct: 'Easy start: enter the % of CP too (or clear the minutes).',
      coastSteeperPct: 'Coasting grade must be between 0 and 30 % (got 40).',
      descentCapW: 'Descent power cap must be between 0 and 3000 W (got 5000).',
    })
    expect(read({ ...form(), goal: 'target_time', targetTime: '0:00:30' }).errors).toEqual({
      targetTime: 'Target time must be between 0:01:00 and 168:00:00 (got 0:00:30).',
    })
    expect(read({ ...form(), easyStartMin: '10', easyStartPct: '20' }).errors).toEqual({
      easyStartPct: 'Easy start ceiling must be between 30 and 120 % of CP (got 20).',
    })
  })

  it('refuses a target time for an equipment comparison', () => {
    const f = {
      ...optimizationFormOf(
        { name: 'W', course_id: null, rider_setup_id: null, inputs: {} },
        'equipment',
        'metric',
      ),
      goal: 'target_time' as const,
      targetTime: '1:00:00',
    }
    expect(read(f, 'equipment').errors.goal).toBe(
      'Goal: a target time plans one setup; choose “Fastest” to compare equipment.',
    )
  })
})
