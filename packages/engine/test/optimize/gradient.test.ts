// The adjoint (reverse-sweep) gradient equals central finite differences of the same objective:
// dynamic model with kinetic energy, corners and wind, for every constraint type.
import { describe, expect, it } from 'vitest'
import { prepareModel, type Rider } from '../../src/index.ts'
import { augmentedObjective, workspace, type ConstraintSpec } from '../../src/optimize/problem.ts'
import { randomCourse } from '../random.ts'
import { cpRider } from '../fixtures.ts'

const rider: Rider = cpRider

describe('adjoint gradient of the augmented Lagrangian', () => {
  const course = randomCourse(5, 60)
  const model = prepareModel(course, rider, {
    airDensityKgM3: 1.2,
    windSpeedMps: 4,
    windFromDeg: 30,
  })
  const K = 12
  const of = Int32Array.from({ length: course.n }, (_, i) => Math.floor((i * K) / course.n))
  const cases: [string, ConstraintSpec, number][] = [
    [
      'W′ balance (split variables, KS aggregate)',
      { type: 'w_prime_balance', cpW: 300, wPrimeJ: 20000 },
      2 * K,
    ],
    ['normalized power (surrogate)', { type: 'normalized_power', powerW: 250 }, K],
    ['average power', { type: 'average_power', powerW: 250 }, K],
    ['work', { type: 'work', workJ: 150000 }, K],
  ]
  for (const [name, spec, V] of cases) {
    it(name, () => {
      const al = { lambda: 0.05, mu: 100, ks: 300 }
      const ws = workspace(course.n)
      // W′: (a, b) = (excess above CP, deficit below CP); others: powers
      const x = Float64Array.from({ length: V }, (_, i) =>
        V === 2 * K
          ? i < K
            ? 30 + 25 * Math.sin(i)
            : 15 + 15 * Math.cos(i)
          : 230 + 60 * Math.sin(i),
      )
      const g = new Float64Array(V)
      const scratch = new Float64Array(V)
      const f = (y: Float64Array, gg: Float64Array) =>
        augmentedObjective(model, 3, of, K, spec, al, 1000, y, gg, ws, 3)
      expect(Number.isFinite(f(x, g))).toBe(true)
      for (let k = 0; k < V; k++) {
        const h = 1e-4
        const xp = Float64Array.from(x)
        const xm = Float64Array.from(x)
        xp[k] = xp[k]! + h
        xm[k] = xm[k]! - h
        const fd = (f(xp, scratch) - f(xm, scratch)) / (2 * h)
        expect(Math.abs(g[k]! - fd)).toBeLessThan(1e-5 * Math.abs(fd) + 1e-10)
      }
    })
  }
})
