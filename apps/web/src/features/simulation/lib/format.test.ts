import { describe, expect, it } from 'vitest'
import {
  clockTime,
  compassPoint,
  formatDuration,
  formatEventStart,
  formatSaving,
  parseEventStart,
} from './format.ts'

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

describe('clock times from the event start', () => {
  it('adds the elapsed time to the start: 09:30 + 1:02:05 is 10:32:05', () => {
    expect(clockTime('2026-06-14T09:30', 3725)).toBe('10:32:05')
    expect(clockTime('2026-06-14T09:30', 0)).toBe('09:30:00')
  })
  it('says when the clock passes midnight', () => {
    expect(clockTime('2026-06-14T23:30', 3600)).toBe('00:30:00 (+1 d)')
  })
  it('ignores the browser’s daylight-saving jumps (a wall clock at the course)', () => {
    // 2026-03-29 02:00 does not exist in Central Europe; the course's clock still reads 02:00
    expect(clockTime('2026-03-29T01:30', 3600)).toBe('02:30:00')
  })
  it('has none without a valid start', () => {
    expect(clockTime(undefined, 60)).toBeNull()
    expect(clockTime('2026-02-30T09:00', 60)).toBeNull()
    expect(parseEventStart('14/06/2026 09:30')).toBeNull()
    expect(parseEventStart('2026-06-14T24:00')).toBeNull()
  })
  it('writes the start with its weekday (14 June 2026 is a Sunday)', () => {
    expect(formatEventStart('2026-06-14T09:30')).toBe('Sun 14 Jun 2026, 09:30')
  })
})

describe('compass points', () => {
  it('names the nearest of eight points', () => {
    expect([0, 44, 46, 90, 180, 225, 270, 315, 337, 338, 360, -45].map(compassPoint)).toEqual([
      'N',
      'NE',
      'NE',
      'E',
      'S',
      'SW',
      'W',
      'NW',
      'NW',
      'N',
      'N',
      'NW',
    ])
  })
})
