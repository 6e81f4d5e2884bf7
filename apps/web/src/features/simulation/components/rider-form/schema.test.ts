import { describe, expect, it } from 'vitest'
import { pacingGaps, riderSetupCreateSchema, riderSetupPatchSchema } from '@veloptima/contracts'
import {
  emptyForm,
  formOf,
  NEW_SETUP_DERIVED,
  newSetupForm,
  withDerived,
  type SetupForm,
} from '../../lib/setup-form.ts'
import { fieldErrorsOf, setupFormSchema } from './schema.ts'

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

/** The body the form sends, or the message of each refused field by its path. */
function read(form: SetupForm, system: 'metric' | 'imperial') {
  const r = setupFormSchema(system).safeParse(form)
  const errors: Record<string, string> = {}
  for (const issue of r.error?.issues ?? []) errors[issue.path.join('.')] ??= issue.message
  return { body: r.data ?? null, errors }
}

describe('rider setup form', () => {
  it('reads a metric form into a body the API schema accepts (SI units)', () => {
    const { body, errors } = read(filled('metric'), 'metric')
    expect(errors).toEqual({})
    expect(body!.rider_mass).toBe(72)
    expect(body!.extras.rider_height).toBeCloseTo(1.8, 6)
    expect(body!.w_prime).toBe(20000)
    expect(body!.drivetrain_efficiency).toBeCloseTo(0.976, 6)
    expect(riderSetupCreateSchema.safeParse(body).success).toBe(true)
    expect(riderSetupPatchSchema.safeParse(body).success).toBe(true)
  })

  it('converts imperial input: 158.7 lb is 71.98 kg, 70.9 in is 1.80 m', () => {
    const { body } = read(filled('imperial'), 'imperial')
    expect(body!.rider_mass).toBeCloseTo(158.7 * 0.45359237, 6)
    expect(body!.extras.rider_height).toBeCloseTo(70.9 * 0.0254, 6)
    expect(riderSetupCreateSchema.safeParse(body).success).toBe(true)
  })

  it('refuses a negative mass with a message naming the field and the value', () => {
    const f = filled('metric')
    f.bikeMass = '-3'
    const { body, errors } = read(f, 'metric')
    expect(body).toBeNull()
    expect(errors).toEqual({ bikeMass: 'Bike mass cannot be negative (got -3 kg).' })
  })

  it('names the range in the user’s units and refuses text and a missing W′', () => {
    const f = filled('imperial')
    f.riderMass = '20'
    f.positions[0].cda = 'abc'
    f.wPrimeKj = ''
    const { errors } = read(f, 'imperial')
    // The API's 25–250 kg in pounds.
    expect(errors.riderMass).toBe('Rider weight must be between 55.1 and 551.2 lb (got 20).')
    expect(errors['positions.0.cda']).toContain('“abc” is not a number')
    expect(errors.wPrimeKj).toBe('W′: enter a value.')
  })

  it('asks for CP and W′: every pacing plan needs them', () => {
    const f = filled('metric')
    f.cp = ''
    f.wPrimeKj = ''
    const { body, errors } = read(f, 'metric')
    expect(body).toBeNull()
    expect(errors).toEqual({ cp: 'CP: enter a value.', wPrimeKj: 'W′: enter a value.' })
  })

  it('refuses a position whose lowest speed exceeds its highest, and max power at CP', () => {
    const f = filled('metric')
    f.positions[1].minSpeed = '40'
    f.positions[1].maxSpeed = '20'
    f.maxPower = '300'
    expect(read(f, 'metric').errors).toEqual({
      'positions.1.minSpeed': 'Position 2 (Hoods): the lowest speed must not exceed the highest.',
      maxPower: 'Max power must be above CP (300 W).',
    })
  })

  it('refuses names longer than the API keeps (100 characters)', () => {
    const f = filled('metric')
    f.name = 'x'.repeat(101)
    f.riderName = 'R'.repeat(120)
    expect(read(f, 'metric').errors).toEqual({
      name: 'Setup name: at most 100 characters (got 101).',
      riderName: 'Rider name: at most 100 characters (got 120).',
    })
  })

  it('saves an empty max power as the stated default CP + W′/60 s (300 + 20000/60 = 633 W)', () => {
    const { body } = read(filled('metric'), 'metric')
    expect(body!.max_power).toBe(633)
    const typed = filled('metric')
    typed.maxPower = '700'
    expect(read(typed, 'metric').body!.max_power).toBe(700)
  })

  it('a new setup from the rider profile, named, saves with no pacing gaps', () => {
    const profile = { rider_height: 1.76, rider_weight: 70, cp: 250, w_prime: 18000 }
    const f = withDerived(newSetupForm('metric', profile), 'metric', NEW_SETUP_DERIVED)
    f.name = 'My road bike'
    const { body, errors } = read(f, 'metric')
    expect(errors).toEqual({})
    expect(pacingGaps(body!)).toEqual([])
    expect(body).toMatchObject({ rider_mass: 70, cp: 250, w_prime: 18000, max_power: 550 })
  })

  it('saves durability typed in % per 1,000 kJ as a fraction, and the heat switch', () => {
    const f = { ...filled('imperial'), durabilityPct: '6', heatAcclimatised: true }
    const { body, errors } = read(f, 'imperial')
    expect(errors).toEqual({})
    expect(body!.durability).toBeCloseTo(0.06, 12)
    expect(body!.heat_acclimatised).toBe(true)
    expect(riderSetupCreateSchema.safeParse(body).success).toBe(true)
    // empty: no fade modelled
    expect(read(filled('metric'), 'metric').body!.durability).toBeNull()
  })

  it('refuses a durability outside 0–50 % naming the field and the value', () => {
    const f = { ...filled('metric'), durabilityPct: '60' }
    expect(read(f, 'metric').errors).toEqual({
      durabilityPct: 'Durability must be between 0 and 50 % per 1,000 kJ (got 60).',
    })
  })

  it('shows a stored durability in % and round-trips it', () => {
    const stored = { ...read(filled('metric'), 'metric').body!, durability: 0.045 }
    const setup = {
      ...stored,
      id: 's',
      owner: 'u',
      owner_type: 'user' as const,
      wheel_inertia: 0.14,
      max_lateral_acceleration: 4,
      heat_acclimatised: true,
      created_at: '',
      updated_at: '',
    }
    const f = formOf(setup, 'metric')
    expect(f.durabilityPct).toBe('4.5')
    expect(f.heatAcclimatised).toBe(true)
    const back = read(f, 'metric').body!
    expect(back.durability).toBeCloseTo(0.045, 12)
    expect(back.heat_acclimatised).toBe(true)
  })
})

describe('the API’s refusal on the form’s fields', () => {
  it('puts each named field’s message on the field, in the form’s words', () => {
    // The details of a 400 as the API sends them (apps/api services/validation.ts).
    const details = {
      issues: [
        { field: 'rider_mass', message: 'rider_mass: must be at most 250 kg (got 300)' },
        { field: 'positions.1.cda', message: 'positions.1.cda: must be at least 0.1 m² (got 0)' },
        { field: 'extras.rider_height', message: 'extras.rider_height: must be at most 2.5 m' },
        { field: 'wheel_inertia', message: 'wheel_inertia: must be at most 1 kg·m²' },
      ],
    }
    expect(fieldErrorsOf(details)).toEqual([
      { path: 'riderMass', message: 'Rider weight: must be at most 250 kg (got 300)' },
      { path: 'positions.1.cda', message: 'Position 2 CdA: must be at least 0.1 m² (got 0)' },
      { path: 'riderHeight', message: 'Rider height: must be at most 2.5 m' },
    ])
    expect(fieldErrorsOf(undefined)).toEqual([])
  })
})
