import { describe, expect, it } from 'vitest'
import { riderSetupCreateSchema } from '@veloptima/contracts'
import { emptyForm, readForm, type SetupForm } from './setup-form.ts'

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

  it('names the range in the user’s units and refuses text and half CP/W′ pairs', () => {
    const f = filled('imperial')
    f.riderMass = '20'
    f.positions[0].cda = 'abc'
    f.wPrimeKj = ''
    const { errors } = readForm(f, 'imperial')
    expect(errors.riderMass).toBe('Rider weight must be between 55.1 and 551.2 lb (got 20).')
    expect(errors['pos0.cda']).toContain('“abc” is not a number')
    expect(errors.wPrimeKj).toBe('CP and W′ go together: enter both or neither.')
  })
})
