import { describe, expect, it } from 'vitest'
import { KG_PER_LB } from '../../../lib/units.ts'
import type { SetupLike } from './engine-input.ts'
import { applyOverride, overrideTextsOf, readOverride, showValue } from './setup-override.ts'

const setup: SetupLike = {
  rider_mass: 72,
  bike_mass: 7.8,
  extra_mass: 1.5,
  positions: [
    { name: 'Drops', cda: 0.32, min_speed: 7, max_speed: 30 },
    { name: 'Hoods', cda: 0.36, min_speed: 0, max_speed: 7 },
  ],
  crr: { smooth: 0.0032, normal: 0.004, rough: 0.0055 },
  drivetrain_efficiency: 0.976,
  wheel_inertia: 0.14,
  cp: 280,
  w_prime: 20000,
  max_power: 650,
}

describe('setup override (tweaked inside an optimization)', () => {
  it('keeps only the changed fields, in the setup row’s keys and SI units', () => {
    const { override, changed, errors } = readOverride(
      { rider_mass: '70', cp: '280', drivetrain_efficiency: '97.6', w_prime: '22' },
      setup,
      undefined,
      'metric',
    )
    expect(errors).toEqual({})
    // CP and efficiency were typed as saved: no change
    expect(changed).toEqual(['rider_mass', 'w_prime'])
    expect(override).toEqual({ rider_mass: 70, w_prime: 22000 })
  })

  it('a changed CdA writes the whole positions list, names and speed ranges kept', () => {
    const { override } = readOverride({ cda1: '0.34' }, setup, undefined, 'metric')
    expect(override).toEqual({
      positions: [
        { name: 'Drops', cda: 0.32, min_speed: 7, max_speed: 30 },
        { name: 'Hoods', cda: 0.34, min_speed: 0, max_speed: 7 },
      ],
    })
    expect(applyOverride(setup, override).positions[1]!.cda).toBe(0.34)
    expect(setup.positions[1]!.cda).toBe(0.36)
  })

  it('a changed Crr writes all three surfaces', () => {
    const { override } = readOverride({ crr_normal: '0.0035' }, setup, undefined, 'metric')
    expect(override).toEqual({ crr: { smooth: 0.0032, normal: 0.0035, rough: 0.0055 } })
  })

  it('reads imperial masses: 150 lb is 68.04 kg (NIST: 1 lb = 0.45359237 kg)', () => {
    const { override } = readOverride({ rider_mass: '150' }, setup, undefined, 'imperial')
    expect(override!.rider_mass).toBeCloseTo(150 * KG_PER_LB, 9)
    expect(override!.rider_mass).toBeCloseTo(68.04, 2)
  })

  it('a stored value shown in pounds and left untouched keeps its exact kilograms', () => {
    const stored = { rider_mass: 70.5 }
    const texts = overrideTextsOf(stored, 'imperial')
    expect(texts).toEqual({ rider_mass: showValue('rider_mass', 70.5, 'imperial') })
    expect(readOverride(texts, setup, stored, 'imperial').override).toEqual({ rider_mass: 70.5 })
  })

  it('names the field, the range in the user’s units and the value', () => {
    const { override, errors } = readOverride(
      { rider_mass: '20', cda0: 'low', bike_mass: '' },
      setup,
      undefined,
      'imperial',
    )
    expect(override).toBeUndefined()
    // 25 kg and 250 kg in pounds (the API's range for rider_mass)
    expect(errors['ov.rider_mass']).toBe(
      'Adjusted setup: Rider weight must be between 55.1 and 551.2 lb (got 20).',
    )
    expect(errors['ov.cda0']).toBe('Adjusted setup: Position 1 CdA: “low” is not a number.')
    expect(errors['ov.bike_mass']).toBe('Adjusted setup: Bike mass: enter a value.')
  })

  it('refuses removing CP while W′ stays', () => {
    const { errors } = readOverride({ cp: '' }, setup, undefined, 'metric')
    expect(errors['ov.cp']).toBe('Adjusted setup: CP and W′ go together: enter both or neither.')
  })

  it('with nothing typed there is no override', () => {
    expect(readOverride({}, setup, undefined, 'metric')).toEqual({
      override: undefined,
      changed: [],
      errors: {},
    })
  })
})
