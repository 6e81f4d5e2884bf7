import { describe, expect, it } from 'vitest'
import { formatDay, formatDayTime } from './dates.ts'

// 12 November 2026, 14:05 in the zone the test runs in (the formatter uses the same zone).
const day = new Date(2026, 10, 12, 14, 5)

describe('dates', () => {
  it('writes the month as a word in the locale’s order', () => {
    expect(formatDay(day, 'en-GB')).toBe('12 Nov 2026')
    expect(formatDay(day, 'en-US')).toBe('Nov 12, 2026')
    expect(formatDay(day, 'de-DE')).toBe('12. Nov. 2026')
    expect(formatDay(day, 'fr-FR')).toBe('12 nov. 2026')
  })

  it('never writes a day and a month as two numbers that can be swapped', () => {
    for (const locale of ['en-GB', 'en-US', 'de-DE', 'fr-FR', 'nl-NL', 'it-IT', 'es-ES']) {
      expect(formatDay(day, locale)).not.toMatch(/\b(11|12)\D{1,2}(11|12)\b/)
      expect(formatDayTime(day, locale)).toMatch(/2026/)
    }
  })

  it('adds the time of day', () => {
    expect(formatDayTime(day, 'en-GB')).toBe('12 Nov 2026, 14:05')
    expect(formatDayTime(day.toISOString(), 'de-DE')).toBe('12. Nov. 2026, 14:05')
  })

  it('returns a text that is no date as it is', () => {
    expect(formatDay('soon', 'en-GB')).toBe('soon')
    expect(formatDayTime('', 'en-GB')).toBe('')
  })
})
