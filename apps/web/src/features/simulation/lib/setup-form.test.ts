import { describe, expect, it } from 'vitest'
import {
  formDurabilityHint,
  convertForm,
  missingFields,
  NEW_SETUP_DERIVED,
  newSetupForm,
  withDerived,
} from './setup-form.ts'

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

  it('asks only for the setup name', () => {
    const f = withDerived(newSetupForm('metric', profile), 'metric', NEW_SETUP_DERIVED)
    expect(missingFields(f)).toEqual(['Setup name'])
    f.name = 'My road bike'
    expect(missingFields(f)).toEqual([])
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

describe('the durability hint', () => {
  it('gives the level of the form’s CP per kg, in either unit system', () => {
    // 300 W at 75 kg: 4.0 W/kg, trained, 6 %; the same rider in pounds
    expect(formDurabilityHint({ cp: '300', riderMass: '75' }, 'metric')).toMatchObject({
      pct: 6,
      level: 'trained',
    })
    expect(formDurabilityHint({ cp: '300', riderMass: '165.3' }, 'imperial')!.cpPerKg).toBeCloseTo(
      4.0,
      2,
    )
    expect(formDurabilityHint({ cp: '380', riderMass: '75' }, 'metric')!.pct).toBe(3.5)
    expect(formDurabilityHint({ cp: '200', riderMass: '75' }, 'metric')!.level).toBe('recreational')
    expect(formDurabilityHint({ cp: '', riderMass: '75' }, 'metric')).toBeNull()
    expect(formDurabilityHint({ cp: '300', riderMass: 'x' }, 'metric')).toBeNull()
  })
})
