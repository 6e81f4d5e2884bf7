import { describe, expect, it } from 'vitest'
import { pacingGaps, riderSetupCreateSchema } from '@veloptima/contracts'
import {
  convertForm,
  emptyForm,
  missingFields,
  NEW_SETUP_DERIVED,
  newSetupForm,
  readForm,
  withDerived,
  type SetupForm,
} from './setup-form.ts'

function filled(system: 'metric' | 'imperial'): SetupForm {
  const f = emptyForm(system)
  f.name = 'TT bike'
  f.riderMass = system === 'metric' ? '72' : '158.7'
  f.riderHeight = system === 'metric' ? '180' : '70.9'
  f.positions[0].cda = '0.24'
  f.positions[1].cda = '0.30'
  f.cp = '300'
  f.wPrimeKj = '20'
  return f
}

describe('rider setup form', () => {
  it('reads a metric form into a body the API schema accepts (SI units)', () => {
    const { body, errors } = readForm(filled('metric'), 'metric')
    expect(errors).toEqual({})
    expect(body!.rider_mass).toBe(72)
    expect(body!.extras.rider_height).toBeCloseTo(1.8, 6)
    expect(body!.w_prime).toBe(20000)
    expect(body!.drivetrain_efficiency).toBeCloseTo(0.976, 6)
    expect(riderSetupCreateSchema.safeParse(body).success).toBe(true)
  })

  it('converts imperial input: 158.7 lb is 71.98 kg, 70.9 in is 1.80 m', () => {
    const { body } = readForm(filled('imperial'), 'imperial')
    expect(body!.rider_mass).toBeCloseTo(158.7 * 0.45359237, 6)
    expect(body!.extras.rider_height).toBeCloseTo(70.9 * 0.0254, 6)
    expect(riderSetupCreateSchema.safeParse(body).success).toBe(true)
  })

  it('refuses a negative mass with a message naming the field and the value', () => {
    const f = filled('metric')
    f.bikeMass = '-3'
    const { body, errors } = readForm(f, 'metric')
    expect(body).toBeNull()
    expect(errors.bikeMass).toBe('Bike mass cannot be negative (got -3 kg).')
  })

  it('names the range in the user’s units and refuses text and a missing W′', () => {
    const f = filled('imperial')
    f.riderMass = '20'
    f.positions[0].cda = 'abc'
    f.wPrimeKj = ''
    const { errors } = readForm(f, 'imperial')
    expect(errors.riderMass).toBe('Rider weight must be between 55.1 and 551.2 lb (got 20).')
    expect(errors['pos0.cda']).toContain('“abc” is not a number')
    expect(errors.wPrimeKj).toBe('W′: enter a value.')
  })

  it('asks for CP and W′: every pacing plan needs them', () => {
    const f = filled('metric')
    f.cp = ''
    f.wPrimeKj = ''
    const { body, errors } = readForm(f, 'metric')
    expect(body).toBeNull()
    expect(errors.cp).toBe('CP: enter a value.')
    expect(errors.wPrimeKj).toBe('W′: enter a value.')
  })

  it('saves an empty max power as the stated default CP + W′/60 s (300 + 20000/60 = 633 W)', () => {
    const { body } = readForm(filled('metric'), 'metric')
    expect(body!.max_power).toBe(633)
    const typed = filled('metric')
    typed.maxPower = '700'
    expect(readForm(typed, 'metric').body!.max_power).toBe(700)
  })
})

// The rider profile of the first hour: 176 cm, 70 kg, CP 250 W, W′ 18 kJ (SI as the API stores it).
const profile = { rider_height: 1.76, rider_weight: 70, cp: 250, w_prime: 18000 }

describe('a new rider setup starts from the rider profile', () => {
  it('carries height, weight, CP and W′ in the user’s units', () => {
    const m = newSetupForm('metric', profile)
    expect([m.riderHeight, m.riderMass, m.cp, m.wPrimeKj]).toEqual(['176', '70', '250', '18'])
    // 1.76 m = 69.29 in, 70 kg = 154.32 lb.
    const i = newSetupForm('imperial', profile)
    expect([i.riderHeight, i.riderMass, i.cp, i.wPrimeKj]).toEqual(['69.3', '154.3', '250', '18'])
  })

  it('without a profile starts empty where the profile would have filled it', () => {
    const f = newSetupForm('metric', null)
    expect([f.riderHeight, f.riderMass, f.cp, f.wPrimeKj]).toEqual(['', '', '', ''])
  })

  it('fills max power as CP + W′/60 s: 250 + 18000/60 = 550 W', () => {
    const f = withDerived(newSetupForm('metric', profile), 'metric', NEW_SETUP_DERIVED)
    expect(f.maxPower).toBe('550')
  })

  // docs/engine/science.md §10 row 15 (scheibo/calc): 1.75 m, 69 kg → drops 0.3653 m², aero
  // 0.2284 m²; a road bike's drops position is 10 % below its hoods (cda.ts).
  it('fills each position’s CdA with the estimate for the bike type, height and weight', () => {
    const base = { ...profile, rider_height: 1.75, rider_weight: 69 }
    const road = withDerived(newSetupForm('metric', base), 'metric', NEW_SETUP_DERIVED)
    expect(road.positions.map((p) => [p.name, p.cda])).toEqual([
      ['Drops', (0.9 * 0.3653).toFixed(3)],
      ['Hoods', '0.365'],
    ])
    const tt = withDerived(
      { ...newSetupForm('metric', base), bikeType: 'time_trial' },
      'metric',
      NEW_SETUP_DERIVED,
    )
    expect(tt.positions.map((p) => [p.name, p.cda])).toEqual([
      ['Extensions', '0.228'],
      ['Base bar', '0.365'],
    ])
  })

  it('keeps what the user typed: only fields still following their default change', () => {
    const f = newSetupForm('metric', profile)
    f.maxPower = '700'
    f.positions[1].cda = '0.41'
    const shown = withDerived(f, 'metric', { maxPower: false, cda: [true, false] })
    expect(shown.maxPower).toBe('700')
    expect(shown.positions[1].cda).toBe('0.41')
    expect(shown.positions[0].cda).not.toBe('')
  })

  it('asks only for the setup name, and the saved setup has no pacing gaps', () => {
    const f = withDerived(newSetupForm('metric', profile), 'metric', NEW_SETUP_DERIVED)
    expect(missingFields(f)).toEqual(['Setup name'])
    f.name = 'My road bike'
    expect(missingFields(f)).toEqual([])
    const { body, errors } = readForm(f, 'metric')
    expect(errors).toEqual({})
    expect(riderSetupCreateSchema.safeParse(body).success).toBe(true)
    expect(pacingGaps(body!)).toEqual([])
    expect(body).toMatchObject({ rider_mass: 70, cp: 250, w_prime: 18000, max_power: 550 })
  })

  it('without a profile asks for weight, CP and W′ and has no CdA to estimate', () => {
    const f = withDerived(newSetupForm('metric', null), 'metric', NEW_SETUP_DERIVED)
    expect(missingFields(f)).toEqual([
      'Setup name',
      'Rider weight',
      'CP',
      'W′',
      'Position 1 CdA',
      'Position 2 CdA',
    ])
    expect(f.maxPower).toBe('')
  })
})

describe('switching units', () => {
  it('converts every number of a half-filled form (70 kg = 154.3 lb, 176 cm = 69.3 in)', () => {
    const f = newSetupForm('metric', profile)
    f.bikeMass = 'heavy'
    const imperial = convertForm(f, 'metric', 'imperial')
    expect(imperial.name).toBe('')
    expect([imperial.riderMass, imperial.riderHeight, imperial.bikeMass]).toEqual([
      '154.3',
      '69.3',
      'heavy',
    ])
    // 25 km/h = 15.5 mph; CP and W′ have no unit to convert.
    expect(imperial.positions[0].minSpeed).toBe('15.5')
    expect([imperial.cp, imperial.wPrimeKj]).toEqual(['250', '18'])
    const back = convertForm(imperial, 'imperial', 'metric')
    expect([back.riderMass, back.riderHeight]).toEqual(['70', '176'])
  })
})
