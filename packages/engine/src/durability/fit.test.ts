// Durability fitted from long rides of a rider with a known decline (synthetic.ts: maximal
// efforts at P_fresh · (1 − d · W / 1,000 kJ) with endurance riding between): the fit recovers
// d inside its interval, the interval covers the truth as a 95 % interval should, and rides that
// cannot say give the reason instead of a number.
import { describe, expect, it } from 'vitest'
import { EngineInputError } from '../sim/validate.ts'
import { DURABILITY_RANGE, fitDurability, type DurabilityFit } from './fit.ts'
import { syntheticDurabilityRide, type SyntheticDurabilityRide } from './synthetic.ts'

const rides = (d: number, seed: number, n = 3, extra: Partial<SyntheticDurabilityRide> = {}) =>
  Array.from({ length: n }, (_, k) =>
    syntheticDurabilityRide({ d, seed: seed * 101 + k, ...extra }),
  )

const covers = (ci: [number, number] | null, v: number) => !!ci && ci[0] <= v && v <= ci[1]
const byDuration = (f: DurabilityFit, s: number) => f.durations.find((x) => x.durationS === s)!

describe('fitDurability on rides with a known durability', () => {
  for (const d of [0, 0.05, 0.1]) {
    it(`recovers d = ${d} per 1,000 kJ inside its 95 % interval, for 5 and 20 min and combined`, () => {
      const f = fitDurability(rides(d, 1))
      for (const s of [300, 1200]) {
        const x = byDuration(f, s)
        expect(x.reason).toBeNull()
        expect(covers(x.ci95, d)).toBe(true)
        expect(x.ci95![1] - x.ci95![0]).toBeLessThan(0.05)
        // Four efforts per ride (at about 100, 1,000, 1,900 and 2,800 kJ), three rides.
        expect(x.effortsUsed).toBe(12)
        expect(x.ridesUsed).toBe(3)
      }
      expect(covers(f.combined!.ci95, d)).toBe(true)
      expect(f.combined!.value).toBeGreaterThanOrEqual(DURABILITY_RANGE[0])
    })
  }

  it('covers the truth in at least 90 % of 50 seeded sets of rides (d = 0.08, two rides each)', () => {
    const d = 0.08
    let hits5 = 0
    let hits20 = 0
    for (let seed = 1; seed <= 50; seed++) {
      const f = fitDurability(rides(d, seed, 2))
      if (covers(byDuration(f, 300).ci95, d)) hits5++
      if (covers(byDuration(f, 1200).ci95, d)) hits20++
    }
    expect(hits5).toBeGreaterThanOrEqual(45)
    expect(hits20).toBeGreaterThanOrEqual(45)
  })

  it('reads each effort relative to its ride’s fresh power: 1 − d · W / 1,000 kJ', () => {
    const d = 0.1
    const f = fitDurability(rides(d, 2, 2, { effortSd: 0 }))
    for (const e of byDuration(f, 1200).efforts) {
      expect(e.used).toBe(true)
      expect(e.relative).toBeCloseTo(1 - (d * e.startKj) / 1000, 1)
    }
  })

  it('counts no piece of a 20-min effort as a 5-min effort: 20-min efforts alone leave 5 min undetermined', () => {
    // The 5-min "efforts" ridden at endurance power: only the 20-min efforts stand out.
    const f = fitDurability(rides(0.1, 3, 2, { p5W: 170, effortSd: 0 }))
    expect(byDuration(f, 300).efforts).toHaveLength(0)
    expect(byDuration(f, 300).reason).toBe('no hard 5-min effort after 1,000 kJ')
    expect(byDuration(f, 1200).reason).toBeNull()
    expect(f.combined!.value).toBeCloseTo(byDuration(f, 1200).value!, 10)
  })
})

describe('fitDurability says when the rides cannot say', () => {
  it('a ride without hard efforts after 1,000 kJ: not determinable, with that reason', () => {
    // Efforts in the first 1,000 kJ, then two hours of endurance riding.
    const early = rides(0.1, 4, 2, { effortsAtKj: [100] })
    const f = fitDurability(early.map((r) => r.concat(new Array<number>(7200).fill(170))))
    expect(byDuration(f, 1200).value).toBeNull()
    expect(byDuration(f, 1200).reason).toBe('no hard 20-min effort after 1,000 kJ')
    expect(byDuration(f, 300).reason).toBe('no hard 5-min effort after 1,000 kJ')
    expect(f.combined).toBeNull()
    expect(f.combinedReason).toMatch(/^5-min: no hard 5-min effort after 1,000 kJ; 20-min: /)
  })

  it('a steadily paced ride (every 20 min alike) has no hard effort at all', () => {
    const steady = rides(0.1, 5, 1, { effortsAtKj: [] })[0]!
    while (steady.length < 6 * 3600) steady.push(...steady.slice(0, 900))
    const f = fitDurability([steady])
    expect(byDuration(f, 1200).efforts).toHaveLength(0)
    expect(byDuration(f, 1200).reason).toBe('no hard 20-min effort after 1,000 kJ')
  })

  it('rides shorter than 1,000 kJ: the reason names the longest', () => {
    const f = fitDurability(rides(0.1, 6, 2, { effortsAtKj: [50] }))
    expect(byDuration(f, 1200).reason).toMatch(
      /^rides shorter than 1,000 kJ \(the longest has \d+ kJ\)$/,
    )
  })

  it('a late effort in a ride with no other hard effort has nothing to be compared with', () => {
    const late = rides(0.1, 7, 1, { effortsAtKj: [1500] })
    expect(byDuration(fitDurability(late), 1200).reason).toBe(
      'no ride with a hard 20-min effort after 1,000 kJ and another hard one to compare it with',
    )
  })

  it('efforts too scattered for an interval narrower than the physical range: the reason, no value', () => {
    // Three 20-min efforts in one ride at 300, 300 and 240 W: one degree of freedom, a wide t.
    const blocks: [number, number][] = [
      [600, 170],
      [1200, 300],
      [5000, 170],
      [1200, 300],
      [5000, 170],
      [1200, 240],
      [600, 170],
    ]
    const ride = blocks.flatMap(([s, w]) => new Array<number>(s).fill(w))
    const x = byDuration(fitDurability([ride]), 1200)
    expect(x.efforts).toHaveLength(3)
    expect(x.value).toBeNull()
    expect(x.reason).toMatch(
      /^hard 20-min efforts too scattered to say \(95 % interval -?\d\.\d\d to \d\.\d\d per 1,000 kJ, wider than the physical range 0–0\.3\)$/,
    )
  })

  it('two efforts in one ride fit exactly: no interval, so no value', () => {
    const two = rides(0.1, 8, 1, { effortsAtKj: [100, 1500] })
    expect(byDuration(fitDurability(two), 1200).reason).toMatch(/^too few hard 20-min efforts/)
  })
})

describe('fitDurability refuses input that is not rides', () => {
  const cases: [string, unknown, RegExp][] = [
    ['not a list', 42, /^rides: expected a list of rides/],
    ['an empty list', [], /^rides: expected a list of rides .*got an empty list/],
    ['a ride that is not a series', [[1, 2], 'x'], /^rides\[1\]: expected per-second power/],
    [
      'a negative power',
      [[200, -5]],
      /^rides\[0\]\[1\]: expected a power from 0 to 3000 W .*got -5$/,
    ],
    ['an infinite power', [[Infinity]], /^rides\[0\]\[0\]: .*got Infinity$/],
    ['text', [[200, '210']], /^rides\[0\]\[1\]: .*got "210"$/],
  ]
  for (const [what, input, message] of cases) {
    it(`${what}: EngineInputError naming the field and the value`, () => {
      expect(() => fitDurability(input as never)).toThrow(EngineInputError)
      expect(() => fitDurability(input as never)).toThrow(message)
    })
  }
  it('gaps (NaN, null, undefined) are no readings, not errors', () => {
    expect(() => fitDurability([[200, NaN, null, undefined, 210]])).not.toThrow()
  })
})
