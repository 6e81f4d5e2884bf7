import { describe, expect, it } from 'vitest'
import {
  formatDuration,
  formatInput,
  formatPressure,
  millimetres,
  parseInput,
  pressure,
  quantity,
} from './display.ts'

describe('tools display conversions', () => {
  it('5 bar hookless cap shows as 5.00 bar and 72.5 psi', () => {
    expect(formatPressure(500_000, 'metric')).toBe('5.00 bar')
    expect(formatPressure(500_000, 'imperial')).toBe('72.5 psi')
  })
  it('inputs round-trip between unit systems', () => {
    const mass = quantity('mass')
    expect(formatInput(75, mass, 'metric')).toBe('75')
    expect(formatInput(75, mass, 'imperial')).toBe('165.3')
    expect(mass.fromDisplay(165.3, 'imperial')).toBeCloseTo(74.98, 2)
    expect(formatInput(40 / 3.6, quantity('speed'), 'imperial')).toBe('24.9')
    expect(pressure.fromDisplay(72.5, 'imperial')).toBeCloseTo(499_870, -1)
    expect(formatInput(28, millimetres, 'imperial')).toBe('28')
  })
  it('parses what people type, rejects the rest', () => {
    expect(parseInput('72,5')).toBe(72.5)
    expect(parseInput(' 80 ')).toBe(80)
    expect(parseInput('')).toBeNaN()
    expect(parseInput('12kg')).toBeNaN()
  })
  it('durations read naturally', () => {
    expect(formatDuration(86.4)).toBe('1 min 26 s')
    expect(formatDuration(45)).toBe('45 s')
    expect(formatDuration(-12)).toBe('−12 s')
  })
})
