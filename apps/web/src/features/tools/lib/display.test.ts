import { describe, expect, it } from 'vitest'
import { formatPressure, formatPressureOther } from './display.ts'

describe('tools display', () => {
  it('5 bar hookless cap shows as 5.00 bar and 72.5 psi (1 psi = 6894.757 Pa, NIST SP 811)', () => {
    expect(formatPressure(500_000, 'metric')).toBe('5.00 bar')
    expect(formatPressure(500_000, 'imperial')).toBe('72.5 psi')
    expect(formatPressureOther(500_000, 'metric')).toBe('72.5 psi')
  })
})
