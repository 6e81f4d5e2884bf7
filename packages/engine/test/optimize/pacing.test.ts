// The fast pacing optimizer against independent truth: the dense DP reference (its own physics
// and solver), invariants (feasible by construction, never slower than the best constant power,
// reported time = simulate() of the returned plan), and a wall that cannot be climbed.
import { describe, expect, it } from 'vitest'
import { courseFromSegments, simulate, type Rider } from '../../src/index.ts'
import { optimizePacing, type PacingInput } from '../../src/optimize/pacing.ts'
import { referenceOptimize, type ReferenceConstraint } from '../../src/optimize/reference.ts'
import { randomCourse } from '../random.ts'

const rider: Rider = {
  massKg: 75,
  bikeMassKg: 8,
  cdaM2: 0.25,
  crr: 0.004,
  drivetrainEfficiency: 0.976,
  cpW: 300,
  wPrimeJ: 20000,
  maxPowerW: 600,
}

/** A short rolling course, straight and calm: the reference's model applies exactly. */
function rolling(n: number, len: number, grades: number[]) {
  return courseFromSegments(
    Array.from({ length: n }, (_, i) => ({ lengthM: len, grade: grades[i % grades.length]! })),
  )
}

const GRADES_A = [0, 0.02, 0.05, 0.07, 0.04, 0.01, -0.02, -0.05, -0.03, 0, 0.03, 0.06]
const GRADES_B = [0.08, 0.03, -0.06, -0.01, 0.05, 0.1, 0.02, -0.08, 0, 0.04]

function referenceFor(
  course: ReturnType<typeof rolling>,
  c: ReferenceConstraint,
  minPowerW: number,
) {
  const n = course.n
  const length = new Float64Array(n)
  for (let i = 0; i < n; i++) length[i] = course.length[i]! * Math.sqrt(1 + course.grade[i]! ** 2)
  return referenceOptimize(
    {
      length,
      grade: course.grade,
      headwind: new Float64Array(n),
      rho: new Float64Array(n).fill(1.2),
    },
    {
      massKg: 83,
      cdaM2: 0.25,
      crr: 0.004,
      eta: 0.976,
      fwM2: 0.0044,
      bearing: true,
      cpW: 300,
      wPrimeJ: 20000,
      minPowerW,
      maxPowerW: 600,
    },
    c,
    { levels: 400, powerStep: 2 },
  )!
}

function quasiSteady(
  course: ReturnType<typeof rolling>,
  constraint: PacingInput['pacing']['constraint'],
) {
  return optimizePacing({
    course,
    rider,
    environment: { airDensityKgM3: 1.2 },
    options: { kineticEnergy: false, cornering: false },
    pacing: { constraint, minPowerW: 100, controls: { grouping: 'every' } },
  })
}

describe('fast optimizer vs the dense DP reference (quasi-steady model, short courses)', () => {
  const cases: [string, ReturnType<typeof rolling>][] = [
    ['course A: 24 × 250 m', rolling(24, 250, GRADES_A)],
    ['course B: 30 × 200 m', rolling(30, 200, GRADES_B)],
  ]
  for (const [name, course] of cases) {
    it(`${name}, W′ balance ≥ 0: within 0.1 % of the reference finish time`, () => {
      const fast = quasiSteady(course, { type: 'w_prime_balance' })
      const ref = referenceFor(course, { type: 'w_prime_balance' }, 100)
      expect(fast.status).toBe('optimal')
      expect(Math.abs(fast.timeS - ref.timeS) / ref.timeS).toBeLessThan(0.001)
    })
    it(`${name}, mean power ≤ 260 W: within 0.1 % of the reference finish time`, () => {
      const fast = quasiSteady(course, { type: 'average_power', powerW: 260 })
      const ref = referenceFor(course, { type: 'average_power', powerW: 260 }, 100)
      expect(Math.abs(fast.timeS - ref.timeS) / ref.timeS).toBeLessThan(0.001)
    })
    it(`${name}, work ≤ 400 kJ: within 0.1 % of the reference finish time`, () => {
      const fast = quasiSteady(course, { type: 'work', workJ: 400000 })
      const ref = referenceFor(course, { type: 'work', workJ: 400000 }, 100)
      expect(Math.abs(fast.timeS - ref.timeS) / ref.timeS).toBeLessThan(0.001)
    })
  }
})
