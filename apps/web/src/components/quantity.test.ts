import { describe, expect, it } from 'vitest'
import { KG_PER_LB, PA_PER_PSI, type UnitSystem } from '../lib/units.ts'
import {
  fixedUnit,
  formatInput,
  millimetres,
  parseInput,
  percent,
  pressure,
  quantity,
  switchSystem,
  textToSi,
  type QuantityState,
} from './quantity.ts'

const systems: UnitSystem[] = ['metric', 'imperial']

describe('form kit conversions (1 lb = 0.45359237 kg, 1 psi = 6894.757 Pa: NIST SP 811)', () => {
  it('shows SI values in the user units with the converter digits, no trailing zeros', () => {
    const mass = quantity('mass')
    expect(formatInput(75, mass, 'metric')).toBe('75')
    expect(formatInput(75, mass, 'imperial')).toBe(String(Number((75 / KG_PER_LB).toFixed(1))))
    expect(formatInput(75, mass, 'imperial')).toBe('165.3')
    expect(formatInput(40 / 3.6, quantity('speed'), 'imperial')).toBe('24.9')
    expect(formatInput(500_000, pressure, 'metric')).toBe('5')
    expect(formatInput(500_000, pressure, 'imperial')).toBe('72.5')
    expect(formatInput(0.42, percent, 'imperial')).toBe('42')
    expect(formatInput(28, millimetres, 'imperial')).toBe('28')
    expect(formatInput(Number.NaN, millimetres, 'metric')).toBe('')
    expect(formatInput(Number.POSITIVE_INFINITY, pressure, 'metric')).toBe('')
  })

  it('parse ∘ format returns the SI value within half a shown digit, in both systems', () => {
    const cases: [ReturnType<typeof quantity>, number[]][] = [
      [quantity('mass'), [0.5, 8, 62.3, 75, 140]],
      [quantity('speed'), [0.1, 4.1667, 11.11, 20]],
      [quantity('height'), [1.52, 1.8, 2.1]],
      [pressure, [150_000, 420_000, 500_000, 900_000]],
      [percent, [0.38, 0.42, 0.5]],
      [fixedUnit('W', 0), [180, 250, 401]],
    ]
    for (const [c, values] of cases) {
      for (const s of systems) {
        for (const si of values) {
          const back = textToSi(formatInput(si, c, s), c, s, false)
          // Half a unit of the last shown digit, converted back to SI.
          const tol = c.fromDisplay(0.5 * 10 ** -c.digits(s), s)
          expect(Math.abs((back as number) - si)).toBeLessThanOrEqual(tol * (1 + 1e-9))
        }
      }
    }
    expect(pressure.fromDisplay(72.5, 'imperial')).toBeCloseTo(72.5 * PA_PER_PSI, 6)
  })

  it('parses what people type and refuses the rest', () => {
    expect(parseInput('72,5')).toBe(72.5)
    expect(parseInput(' 80 ')).toBe(80)
    expect(parseInput('.5')).toBe(0.5)
    expect(parseInput('-3')).toBe(-3)
    expect(parseInput('+4.')).toBe(4)
    for (const bad of ['', '  ', '12kg', '1.2.3', '1e3', 'NaN', 'Infinity', '--1', ',']) {
      expect(parseInput(bad)).toBeNaN()
    }
  })

  it('an empty box is undefined only when the field is optional; text that is no number is NaN', () => {
    const mass = quantity('mass')
    expect(textToSi('', mass, 'metric', true)).toBeUndefined()
    expect(textToSi('  ', mass, 'metric', true)).toBeUndefined()
    expect(textToSi('', mass, 'metric', false)).toBeNaN()
    expect(textToSi('abc', mass, 'metric', true)).toBeNaN()
    expect(textToSi('165,3', mass, 'imperial', false)).toBeCloseTo(165.3 * KG_PER_LB, 9)
  })

  it('switching units rewrites the box from the SI value, so going back and forth never drifts', () => {
    const mass = quantity('mass')
    let state: QuantityState = { system: 'metric', si: 72.4, text: '72.4' }
    for (let i = 0; i < 10; i++) {
      state = switchSystem(state, mass, 'imperial')
      expect(state.text).toBe('159.6')
      state = switchSystem(state, mass, 'metric')
      expect(state.text).toBe('72.4')
    }
    expect(state.si).toBe(72.4)
    // Unchanged system: the very same state (no re-render loop in the hook).
    expect(switchSystem(state, mass, 'metric')).toBe(state)
    // A box without a number keeps what the user typed.
    const typed: QuantityState = { system: 'metric', si: Number.NaN, text: '7x' }
    expect(switchSystem(typed, mass, 'imperial')).toEqual({ ...typed, system: 'imperial' })
    const empty: QuantityState = { system: 'metric', si: undefined, text: '' }
    expect(switchSystem(empty, mass, 'imperial').text).toBe('')
  })
})
