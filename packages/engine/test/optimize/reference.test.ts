import { describe, expect, it } from 'vitest'
import {
  referenceOptimize,
  referenceSteadySpeed,
  type ReferenceCourse,
} from '../../src/optimize/reference.ts'
import { referenceRider } from '../fixtures.ts'

// A short rolling course: 24 segments of 250 m, grades from a fixed pattern (no randomness).
export function rollingReferenceCourse(): ReferenceCourse {
  const grades = [0, 0.02, 0.05, 0.07, 0.04, 0.01, -0.02, -0.05, -0.03, 0, 0.03, 0.06]
  const n = 24
  const c: ReferenceCourse = {
    length: new Float64Array(n).fill(250),
    grade: new Float64Array(n),
    headwind: new Float64Array(n),
    rho: new Float64Array(n).fill(1.2),
  }
  for (let i = 0; i < n; i++) c.grade[i] = grades[i % grades.length]!
  return c
}

describe('reference steady speed (quasi-steady Martin 1998)', () => {
  it('reproduces the scheibo/calc README climb: 357.37 W for 4.8 km at 8.125 % in 16:05 (docs/engine/science.md §10 row 7)', () => {
    // rider 70 + bike 8 kg, CdA 0.325, Crr 0.004, ρ 1.225, Ec 0.976, Fw 0.0044
    const r = { ...referenceRider, massKg: 78, cdaM2: 0.325, crr: 0.004 }
    const v = referenceSteadySpeed(r, 0.08125, 0, 1.225, 357.37)
    expect(4800 / v).toBeCloseTo(965, -0.3) // 16 min 05 s, within ±1 s
  })
})

describe('reference DP solver', () => {
  it('converges when its grids are refined (W′ constraint)', () => {
    const course = rollingReferenceCourse()
    const c = { type: 'w_prime_balance' } as const
    const coarse = referenceOptimize(course, referenceRider, c, { levels: 100, powerStep: 8 })!
    const mid = referenceOptimize(course, referenceRider, c, { levels: 200, powerStep: 4 })!
    const fine = referenceOptimize(course, referenceRider, c, { levels: 400, powerStep: 2 })!
    const gap1 = Math.abs(coarse.timeS - mid.timeS)
    const gap2 = Math.abs(mid.timeS - fine.timeS)
    expect(gap2).toBeLessThanOrEqual(gap1 + 1e-9)
    expect(gap2 / fine.timeS).toBeLessThan(2e-4)
    // refining never makes the (exactly evaluated, feasible) plan meaningfully slower
    expect(fine.timeS).toBeLessThanOrEqual(coarse.timeS + 1e-6)
  })

  it('converges when its grids are refined (average-power constraint)', () => {
    const course = rollingReferenceCourse()
    const c = { type: 'average_power', powerW: 280 } as const
    const mid = referenceOptimize(course, referenceRider, c, { levels: 200, powerStep: 4 })!
    const fine = referenceOptimize(course, referenceRider, c, { levels: 400, powerStep: 2 })!
    expect(Math.abs(mid.timeS - fine.timeS) / fine.timeS).toBeLessThan(5e-4)
  })

  it('beats or equals constant power at the same average and spends within the budget', () => {
    const course = rollingReferenceCourse()
    const res = referenceOptimize(
      course,
      referenceRider,
      { type: 'average_power', powerW: 280 },
      { levels: 300, powerStep: 2 },
    )!
    let tConst = 0
    let work = 0
    let time = 0
    for (let i = 0; i < course.grade.length; i++) {
      const v = referenceSteadySpeed(referenceRider, course.grade[i]!, 0, 1.2, 280)
      tConst += 250 / v
      const vi = referenceSteadySpeed(referenceRider, course.grade[i]!, 0, 1.2, res.power[i]!)
      work += (res.power[i]! * 250) / vi
      time += 250 / vi
    }
    expect(res.timeS).toBeCloseTo(time, 6)
    expect(work / time).toBeLessThanOrEqual(280 + 1e-6)
    expect(res.timeS).toBeLessThan(tConst)
  })
})
