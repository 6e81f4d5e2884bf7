import { describe, expect, it } from 'vitest'
import { FRONT_WHEELS, WHEELS } from './wheel-tables.ts'
import { coarsenSegments, recommendWheels, type WheelsInput } from './wheels.ts'

const depth = (w: string) => WHEELS[w as keyof typeof WHEELS].depthMm
const base: WheelsInput = { riderMassKg: 70, windSpeedMps: 3, handling: 'medium', terrain: 'flat' }

describe('wheel recommendation', () => {
  it('stronger wind → shallower front for a light rider', () => {
    const light = { ...base, riderMassKg: 52 }
    const depths = [1, 4, 8, 12, 16].map(
      (w) => recommendWheels({ ...light, windSpeedMps: w }).front.wheel,
    )
    for (let i = 1; i < depths.length; i++) {
      expect(depth(depths[i]!)).toBeLessThanOrEqual(depth(depths[i - 1]!))
    }
    expect(depth(depths[depths.length - 1]!)).toBeLessThan(depth(depths[0]!))
  })
  it('heavier riders tolerate deeper fronts in the same wind', () => {
    const windy = { ...base, windSpeedMps: 11 }
    const light = recommendWheels({ ...windy, riderMassKg: 52 })
    const heavy = recommendWheels({ ...windy, riderMassKg: 95 })
    expect(depth(heavy.front.wheel)).toBeGreaterThan(depth(light.front.wheel))
    const ratio80 = (r: typeof light) =>
      r.candidates.front.find((f) => f.wheel === '80')!.stability.ratio
    expect(ratio80(heavy)).toBeLessThan(ratio80(light))
  })
  it('more handling confidence → a front at least as deep', () => {
    const windy = { ...base, windSpeedMps: 10, riderMassKg: 60 }
    const low = recommendWheels({ ...windy, handling: 'low' })
    const high = recommendWheels({ ...windy, handling: 'high' })
    expect(depth(high.front.wheel)).toBeGreaterThan(depth(low.front.wheel))
  })
  it('deeper wheels gain more on flat fast courses than on mountains', () => {
    const gainShare = (terrain: WheelsInput['terrain']) => {
      const r = recommendWheels({ ...base, terrain })
      const f80 = r.candidates.front.find((f) => f.wheel === '80')!
      return f80.timeGainedS / r.baselineTimeS
    }
    expect(gainShare('flat')).toBeGreaterThan(gainShare('rolling'))
    expect(gainShare('rolling')).toBeGreaterThan(gainShare('mountain'))
    const flat = recommendWheels(base)
    const gains = FRONT_WHEELS.map(
      (w) => flat.candidates.front.find((f) => f.wheel === w)!.timeGainedS,
    )
    for (let i = 1; i < gains.length; i++) expect(gains[i]!).toBeGreaterThan(gains[i - 1]!)
  })
  it('in still air a light climber keeps light shallow wheels on a mountain course', () => {
    const r = recommendWheels({ ...base, riderMassKg: 50, windSpeedMps: 0, terrain: 'mountain' })
    expect(r.front.wheel).toBe('30')
    expect(r.rear.wheel).toBe('30')
    expect(r.timeGainedS).toBe(0)
  })
  it('a disc rear is never rated unstable and stays recommended on a flat course in strong wind', () => {
    for (const wind of [0, 6, 12, 20]) {
      const r = recommendWheels({ ...base, riderMassKg: 50, windSpeedMps: wind, handling: 'low' })
      const disc = r.candidates.rear.find((c) => c.wheel === 'disc')!
      expect(disc.stability.rating).not.toBe('unstable')
      expect(r.rear.wheel).toBe('disc')
    }
    const noDisc = recommendWheels({ ...base, allowDisc: false })
    expect(noDisc.candidates.rear.some((c) => c.wheel === 'disc')).toBe(false)
  })
  it('the pair gain is close to the sum of the single-wheel gains and is a real simulation', () => {
    const r = recommendWheels({ ...base, windSpeedMps: 5 })
    const f = r.candidates.front.find((c) => c.wheel === r.front.wheel)!.timeGainedS
    const b = r.candidates.rear.find((c) => c.wheel === r.rear.wheel)!.timeGainedS
    expect(Math.abs(r.timeGainedS - (f + b))).toBeLessThan(0.1 * (f + b) + 1)
    expect(r.baselineTimeS - r.timeS).toBeCloseTo(r.timeGainedS, 0)
    expect(r.distanceM).toBe(40_000)
  })
  it('an actual course given as segments is used', () => {
    const segments = Array.from({ length: 20 }, (_, i) => ({
      lengthM: 1000,
      grade: 0,
      headingDeg: i < 10 ? 0 : 180,
    }))
    const r = recommendWheels({ ...base, course: { name: 'Out and back', segments } })
    expect(r.distanceM).toBe(20_000)
    expect(r.courseName).toBe('Out and back')
  })
  it('coarsening keeps distance and climb, joins headings by their mean direction', () => {
    const fine = Array.from({ length: 95 }, (_, i) => ({
      lengthM: 10,
      grade: i % 2 ? 0.1 : -0.02,
      headingDeg: i < 45 ? 350 : 10,
    }))
    const coarse = coarsenSegments(fine, 100)
    expect(coarse).toHaveLength(10)
    const sum = (
      a: { lengthM: number; grade: number }[],
      f: (s: { lengthM: number; grade: number }) => number,
    ) => a.reduce((x, s) => x + f(s), 0)
    expect(sum(coarse, (s) => s.lengthM)).toBeCloseTo(950, 9)
    expect(sum(coarse, (s) => s.lengthM * s.grade)).toBeCloseTo(
      sum(fine, (s) => s.lengthM * s.grade),
      9,
    )
    expect(coarse[0]!.headingDeg).toBeCloseTo(350, 6)
    expect(coarse[4]!.headingDeg).toBeCloseTo(0, 6)
  })
  it('validates with "expected X, got Y"', () => {
    expect(() => recommendWheels({ ...base, handling: 'brave' })).toThrow(
      'handling: expected one of "low", "medium", "high", got "brave"',
    )
    expect(() => recommendWheels({ ...base, course: { segments: [] } })).toThrow(
      'course.segments: expected a non-empty array',
    )
    expect(() => recommendWheels({ ...base, windSpeedMps: 99 })).toThrow(
      'windSpeedMps: expected a number from 0 to 25, got 99',
    )
  })
})
