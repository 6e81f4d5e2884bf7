import { describe, expect, it } from 'vitest'
import { formatDuration, formatSaving } from './format.ts'

describe('durations', () => {
  it('formats h:mm:ss and m:ss', () => {
    expect(formatDuration(3725)).toBe('1:02:05')
    expect(formatDuration(725)).toBe('12:05')
    expect(formatDuration(Infinity)).toBe('—')
  })
  it('formats savings with a sign', () => {
    expect(formatSaving(83)).toBe('1 min 23 s')
    expect(formatSaving(-12)).toBe('−12 s')
  })
})
