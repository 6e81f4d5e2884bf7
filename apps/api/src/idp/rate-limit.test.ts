import { describe, expect, it } from 'vitest'
import { FailedAttempts } from './rate-limit.ts'

describe('failed-attempt limiter', () => {
  it('blocks after max failures until the oldest leaves the window', () => {
    let now = 0
    const limiter = new FailedAttempts(3, 60_000, () => now)
    for (let i = 0; i < 3; i++) {
      expect(limiter.retryAfter('a')).toBe(0)
      limiter.fail('a')
      now += 1000
    }
    // Failures at 0, 1 s and 2 s; now = 3 s: blocked until the first leaves at 60 s.
    expect(limiter.retryAfter('a')).toBe(57)
    expect(limiter.retryAfter('b')).toBe(0)
    now = 60_001
    expect(limiter.retryAfter('a')).toBe(0)
  })

  it('forgets a key on success', () => {
    const limiter = new FailedAttempts(2, 60_000, () => 0)
    limiter.fail('a')
    limiter.fail('a')
    expect(limiter.retryAfter('a')).toBeGreaterThan(0)
    limiter.clear('a')
    expect(limiter.retryAfter('a')).toBe(0)
  })
})
