import { describe, expect, it } from 'vitest'
import { formatDuration } from './duration.ts'

describe('formatDuration', () => {
  it('reads as a clock by default: h:mm:ss, or m:ss under an hour', () => {
    expect(formatDuration(3725)).toBe('1:02:05')
    expect(formatDuration(725)).toBe('12:05')
    expect(formatDuration(45)).toBe('0:45')
    expect(formatDuration(-725)).toBe('−12:05')
  })
  it('reads in words: minutes and seconds, seconds alone under a minute', () => {
    expect(formatDuration(86.4, 'words')).toBe('1 min 26 s')
    expect(formatDuration(45, 'words')).toBe('45 s')
    expect(formatDuration(-12, 'words')).toBe('−12 s')
    expect(formatDuration(3725, 'words')).toBe('62 min 5 s')
  })
  it('shows a dash for a duration that is not a number', () => {
    expect(formatDuration(Infinity)).toBe('—')
    expect(formatDuration(Number.NaN, 'words')).toBe('—')
  })
})
