import { describe, expect, it } from 'vitest'
import { courseFromSegments } from '../course/types.ts'
import { simulate } from '../sim/simulate.ts'
import { baselineTime, pairTime, quasiSteadyTime, type CourseTimeSetup } from './course-time.ts'

const course = courseFromSegments(
  Array.from({ length: 40 }, (_, i) => ({
    lengthM: 250,
    grade: [0, 0.04, 0, -0.04][i % 4]!,
    headingDeg: (i * 37) % 360,
  })),
)
const rider = { massKg: 70, bikeMassKg: 8, cdaM2: 0.3, crr: 0.004, drivetrainEfficiency: 0.976 }
const setup: CourseTimeSetup = { course, rider, powerW: 220, airDensityKgM3: 1.2, windMps: 4 }

describe('course time with yaw per segment', () => {
  it('without wheel changes, the loop over step() is the engine simulate() (quasi-steady)', () => {
    for (const fromDeg of [0, 90, 225]) {
      const sim = simulate({
        course,
        rider,
        environment: { airDensityKgM3: 1.2, windSpeedMps: 4, windFromDeg: fromDeg },
        options: { cornering: false, kineticEnergy: false },
        pacing: { type: 'constant', powerW: 220 },
      })
      expect(quasiSteadyTime(setup, fromDeg)).toBeCloseTo(sim.timeS, 6)
    }
  })
  it('the baseline yaw is the engine apparent-wind yaw of each segment', () => {
    const base = baselineTime({ ...setup, windFromDeg: 90 })
    const sim = simulate({
      course,
      rider,
      environment: { airDensityKgM3: 1.2, windSpeedMps: 4, windFromDeg: 90 },
      options: { cornering: false, kineticEnergy: false },
      pacing: { type: 'constant', powerW: 220 },
    })
    for (let i = 0; i < course.n; i++) {
      expect(base.directions[0]!.yawDeg[i]).toBeCloseTo(sim.segments.yawDeg[i]!, 6)
    }
  })
  it('30/30 wheels give the baseline time; deeper wheels are faster on this course', () => {
    const base = baselineTime(setup)
    expect(base.directions).toHaveLength(8)
    expect(pairTime(setup, base, '30', '30')).toBeCloseTo(base.timeS, 9)
    expect(pairTime(setup, base, '80', 'disc')).toBeLessThan(base.timeS)
  })
  it('still air: one direction, zero yaw', () => {
    const base = baselineTime({ ...setup, windMps: 0 })
    expect(base.directions).toHaveLength(1)
    expect(base.meanAbsYawDeg).toBe(0)
  })
})
