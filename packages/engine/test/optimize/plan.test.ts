// The rideable plan: at most max_targets target powers over contiguous sections, labelled by
// terrain and wind, ridden through the simulation.
import { describe, expect, it } from 'vitest'
import { courseFromSegments, type Rider } from '../../src/index.ts'
import { optimizeWithoutPositions as optimizePacing } from '../../src/optimize/pacing.ts'
import { sectionLabel } from '../../src/optimize/plan.ts'
import { cpRider } from '../fixtures.ts'
import { expectPlanRidesAsReported } from '../plan-checks.ts'

const rider: Rider = { ...cpRider, maxPowerW: 700 }

describe('section labels', () => {
  it('name the terrain, and the wind where it matters', () => {
    expect(sectionLabel(0.06, 0, 0)).toBe('climb')
    expect(sectionLabel(0.02, 0, 0)).toBe('false flat')
    expect(sectionLabel(0.0, 3, 0)).toBe('flat with headwind')
    expect(sectionLabel(0.005, -2, 0)).toBe('flat with tailwind')
    expect(sectionLabel(-0.015, 0, 4)).toBe('gentle descent with crosswind')
    expect(sectionLabel(-0.06, 0, 0)).toBe('descent')
  })
})

describe('simplified plan', () => {
  // out and back into a 5 m/s wind over a hill: climb, descent, flat headwind, flat tailwind
  const course = courseFromSegments([
    ...Array.from({ length: 100 }, () => ({ lengthM: 20, grade: 0, headingDeg: 0 })),
    ...Array.from({ length: 60 }, () => ({ lengthM: 20, grade: 0.06, headingDeg: 90 })),
    ...Array.from({ length: 60 }, () => ({ lengthM: 20, grade: -0.06, headingDeg: 90 })),
    ...Array.from({ length: 100 }, () => ({ lengthM: 20, grade: 0, headingDeg: 180 })),
  ])
  const environment = { airDensityKgM3: 1.2, windSpeedMps: 5, windFromDeg: 0 }
  for (const maxTargets of [3, 6]) {
    it(`max_targets ${maxTargets}: at most that many targets over contiguous sections covering the course, feasible, its own time`, () => {
      const r = optimizePacing({
        course,
        rider,
        environment,
        pacing: { constraint: { type: 'w_prime_balance' }, maxTargets },
      })
      const plan = r.plan!
      expect(plan.targets.length).toBeLessThanOrEqual(maxTargets)
      // every section belongs to one target, and the target lists it
      plan.sections.forEach((s, q) => expect(plan.targets[s.target]!.sections).toContain(q))
      expect(plan.sections[0]!.startM).toBe(0)
      for (let k = 1; k < plan.sections.length; k++) {
        expect(plan.sections[k]!.startM).toBe(plan.sections[k - 1]!.endM)
      }
      expect(plan.sections[plan.sections.length - 1]!.endM).toBeCloseTo(course.start[course.n]!, 6)
      expectPlanRidesAsReported(plan, { course, rider, environment })
      // never faster than the optimum it simplifies (the optimum takes the plan if it were)
      expect(plan.timeS).toBeGreaterThanOrEqual(r.timeS)
    })
  }
  it('the rideable plan is never slower than the best constant power, at any number of targets (synthetic irregular climb)', () => {
    // a climb of irregular gradient: variation pays segment by segment, but averaged into a few
    // sections it can cost more than it gains; then the steady power is the rideable plan
    const grades = [0.098, 0.124, 0.087, 0.081, 0.029, 0.104, 0.143, 0.087, 0.03, 0.063, 0.107]
    const climb = courseFromSegments(
      grades.flatMap((grade, k) =>
        Array.from({ length: 20 + 7 * k }, () => ({ lengthM: 20, grade, headingDeg: 0 })),
      ),
    )
    for (const maxTargets of [1, 2, 3, 5, 8]) {
      const r = optimizePacing({
        course: climb,
        rider,
        environment: { airDensityKgM3: 1.1 },
        pacing: { constraint: { type: 'w_prime_balance' }, maxTargets },
      })
      expect(r.status).toBe('optimal')
      expect(r.plan!.timeS).toBeLessThanOrEqual(r.baseline!.timeS + 1e-9)
    }
  })

  it('labels follow the course: the headwind leg, the climb and the tailwind leg are named', () => {
    const r = optimizePacing({
      course,
      rider,
      environment,
      pacing: { constraint: { type: 'w_prime_balance' }, maxTargets: 6 },
    })
    const labels = r.plan!.sections.map((s) => s.label)
    expect(labels[0]).toBe('flat with headwind')
    expect(labels).toContain('climb with crosswind')
    expect(labels[labels.length - 1]).toBe('flat with tailwind')
  })
  it('under a mean-power constraint: more power into the headwind than with the tailwind (Atkinson 2007)', () => {
    const r = optimizePacing({
      course,
      rider,
      environment,
      pacing: { constraint: { type: 'average_power', powerW: 260 }, maxTargets: 6 },
    })
    const first = r.plan!.sections[0]!
    const last = r.plan!.sections[r.plan!.sections.length - 1]!
    expect(first.label).toBe('flat with headwind')
    expect(last.label).toBe('flat with tailwind')
    expect(first.powerW).toBeGreaterThan(last.powerW + 10)
  })
})
