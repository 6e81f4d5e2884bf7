import { describe, expect, it } from 'vitest'
import { riderProfilePutSchema } from '@veloptima/contracts'
import { profileFormSchema, toFormValues, toProfilePut } from './profile-form.ts'

const values = (over: Partial<Record<string, string>> = {}) => ({
  rider_name: 'Anna',
  rider_height: '',
  rider_weight: '',
  cp: '',
  w_prime: '',
  ...over,
})

const messages = (system: 'metric' | 'imperial', v: ReturnType<typeof values>) => {
  const r = profileFormSchema(system).safeParse(v)
  return r.success ? [] : r.error.issues.map((i) => i.message)
}

describe('rider profile form', () => {
  it('accepts empty optional numbers and sends null for them', () => {
    expect(messages('metric', values())).toEqual([])
    expect(toProfilePut(values(), 'metric')).toEqual({
      rider_name: 'Anna',
      rider_height: null,
      rider_weight: null,
      cp: null,
      w_prime: null,
    })
  })

  it('validates the height in cm (metric) and in inches (imperial), naming field and value', () => {
    expect(messages('metric', values({ rider_height: '300' }))).toEqual([
      'Rider height must be between 100 and 250 cm (got 300 cm).',
    ])
    // 1.0–2.5 m is 39.4–98.4 in (1 in = 2.54 cm exactly).
    expect(messages('imperial', values({ rider_height: '30' }))).toEqual([
      'Rider height must be between 39.4 and 98.4 in (got 30 in).',
    ])
    expect(messages('imperial', values({ rider_height: '70.9' }))).toEqual([])
  })

  it('validates the weight in kg or lb and refuses text', () => {
    expect(messages('metric', values({ rider_weight: 'heavy' }))).toEqual([
      'Rider weight must be a number (got "heavy").',
    ])
    // 250 kg = 551.2 lb (1 lb = 0.45359237 kg).
    expect(messages('imperial', values({ rider_weight: '600' }))).toEqual([
      'Rider weight must be between 55.1 and 551.2 lb (got 600 lb).',
    ])
  })

  it('converts imperial input to SI that the API contract accepts', () => {
    const body = toProfilePut(
      values({ rider_height: '71', rider_weight: '160', cp: '280', w_prime: '20' }),
      'imperial',
    )
    expect(body.rider_height).toBeCloseTo(71 * 0.0254, 4)
    expect(body.rider_weight).toBeCloseTo(160 * 0.45359237, 3)
    expect(body.w_prime).toBe(20000)
    expect(riderProfilePutSchema.safeParse(body).success).toBe(true)
  })

  it('round-trips a stored profile through the form in both unit systems', () => {
    const stored = {
      uid: 'u',
      rider_name: 'Anna',
      rider_height: 1.8,
      rider_weight: 72,
      cp: 280,
      w_prime: 20000,
      updated_at: '2026-01-01T00:00:00Z',
    }
    for (const system of ['metric', 'imperial'] as const) {
      const back = toProfilePut(toFormValues(stored, system), system)
      expect(back.rider_height).toBeCloseTo(1.8, 2)
      expect(back.rider_weight).toBeCloseTo(72, 1)
      expect(back.cp).toBe(280)
      expect(back.w_prime).toBe(20000)
    }
    expect(toFormValues(stored, 'metric')).toMatchObject({
      rider_height: '180',
      rider_weight: '72',
    })
  })
})
