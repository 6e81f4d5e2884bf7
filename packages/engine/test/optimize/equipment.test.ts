// Equipment optimization: pruning never changes the winner, pruned times are real upper bounds,
// and the options act in the physical direction.
import { describe, expect, it } from 'vitest'
import { courseFromSegments, optimizePacing, type Rider } from '../../src/index.ts'
import { optimizeEquipment, type EquipmentInput } from '../../src/optimize/equipment.ts'
import { cpRider } from '../fixtures.ts'

const rider: Rider = { ...cpRider, maxPowerW: 700 }

const course = courseFromSegments(
  Array.from({ length: 400 }, (_, i) => ({
    lengthM: 25,
    grade: 0.03 * Math.sin(i / 40) + 0.01 * Math.sin(i / 7),
    headingDeg: (i * 3) % 360,
  })),
)

function input(prune: boolean): EquipmentInput {
  return {
    course,
    rider,
    environment: { airDensityKgM3: 1.2, windSpeedMps: 4, windFromDeg: 70 },
    pacing: { constraint: { type: 'w_prime_balance' } },
    equipment: {
      prune,
      groups: {
        front: [0, 1, 2].map((k) => ({
          name: `front${k}`,
          cdaDeltaByYaw: [
            [0, -0.002 * k],
            [10, -0.005 * k],
            [20, -0.003 * k],
          ] as [number, number][],
          massDeltaKg: 0.15 * k,
        })),
        helmet: [0, 1, 2].map((k) => ({
          name: `helmet${k}`,
          cdaDeltaM2: -0.004 * k + 0.002 * (k % 2),
        })),
        position: [0, 1].map((k) => ({
          name: `position${k}`,
          cdaDeltaM2: -0.012 * k,
          powerFactor: 1 - 0.03 * k,
        })),
      },
      baseline: { front: 'front0', helmet: 'helmet0', position: 'position0' },
    },
  }
}

describe('equipment optimization', () => {
  const pruned = optimizeEquipment(input(true))
  const full = optimizeEquipment(input(false))

  it('ranks every combination once, fastest first, Δ against the baseline combination', () => {
    expect(pruned.combinations).toBe(18)
    expect(pruned.ranking).toHaveLength(18)
    for (let k = 1; k < 18; k++) {
      expect(pruned.ranking[k]!.timeS).toBeGreaterThanOrEqual(pruned.ranking[k - 1]!.timeS)
    }
    expect(pruned.baseline.deltaS).toBe(0)
    expect(pruned.baseline.choices).toEqual({
      front: 'front0',
      helmet: 'helmet0',
      position: 'position0',
    })
  })

  it('pruning skips work but not the winner; pruned times are feasible upper bounds', () => {
    expect(full.optimizedCount).toBe(18)
    expect(pruned.optimizedCount).toBeLessThan(18)
    expect(pruned.ranking[0]!.choices).toEqual(full.ranking[0]!.choices)
    expect(pruned.ranking[0]!.timeS).toBe(full.ranking[0]!.timeS)
    const exact = new Map(full.ranking.map((r) => [JSON.stringify(r.choices), r.timeS]))
    for (const r of pruned.ranking) {
      const t = exact.get(JSON.stringify(r.choices))!
      if (r.optimized) expect(r.timeS).toBe(t)
      else {
        expect(r.timeS).toBeGreaterThanOrEqual(t - 1e-9)
        expect(t).toBeGreaterThan(full.ranking[0]!.timeS)
      }
    }
  })

  it("hands out the winner's rideable plan; its bound is the winner's ranked time", () => {
    for (const r of [pruned, full]) {
      expect(r.best.status).toBe('optimal')
      expect(r.best.timeS).toBe(r.ranking[0]!.timeS)
      const plan = r.best.plan!
      expect(plan.targets.length).toBeGreaterThan(0)
      expect(plan.targets.length).toBeLessThanOrEqual(12)
      // the plan as ridden is never faster than the per-segment optimum it is bounded by
      expect(plan.timeS).toBeGreaterThanOrEqual(r.best.timeS - 1e-9)
      expect(plan.simulation!.timeS).toBe(plan.timeS)
    }
  })

  it('options act in the physical direction: less drag at equal power is faster', () => {
    const time = (front: string, helmet: string, position: string) =>
      full.ranking.find(
        (r) =>
          r.choices.front === front &&
          r.choices.helmet === helmet &&
          r.choices.position === position,
      )!.timeS
    expect(time('front2', 'helmet0', 'position0')).toBeLessThan(
      time('front0', 'helmet0', 'position0'),
    )
    expect(time('front0', 'helmet2', 'position0')).toBeLessThan(
      time('front0', 'helmet0', 'position0'),
    )
    // the Δ-time series ends at the combination's Δ
    for (const r of full.ranking) {
      const d = r.deltaSeries.deltaS
      expect(d[d.length - 1]!).toBeCloseTo(r.deltaS, 6)
    }
  })
})

describe('equipment optimization: each ranked optimum against its own pacing run', () => {
  // constant ΔCdA and power factors only, so each combination's rider can be written out here and
  // optimized on its own, cold (no warm start): the ranking's runs start at the baseline's optimum
  // and leave out the structured starts, and must not be slower for it
  const helmets = [0, 1, 2].map((k) => ({ name: `helmet${k}`, cdaDeltaM2: -0.005 * k }))
  const positions = [0, 1].map((k) => ({
    name: `position${k}`,
    cdaDeltaM2: -0.015 * k,
    powerFactor: 1 - 0.04 * k,
  }))
  const environment = { airDensityKgM3: 1.2, windSpeedMps: 4, windFromDeg: 70 }
  const result = optimizeEquipment({
    course,
    rider,
    environment,
    pacing: { constraint: { type: 'w_prime_balance' } },
    equipment: { prune: false, groups: { helmet: helmets, position: positions } },
  })

  it('every combination optimized is within 0.05 % of its own cold run on the same control grid, or faster', () => {
    expect(result.optimizedCount).toBe(6)
    const grid = result.best.controlOptions
    for (const r of result.ranking) {
      const h = helmets.find((o) => o.name === r.choices.helmet)!
      const p = positions.find((o) => o.name === r.choices.position)!
      const cold = optimizePacing({
        course,
        rider: {
          ...rider,
          cdaM2: rider.cdaM2 + h.cdaDeltaM2 + p.cdaDeltaM2,
          cpW: rider.cpW! * p.powerFactor,
          maxPowerW: rider.maxPowerW! * p.powerFactor,
        },
        environment,
        pacing: { constraint: { type: 'w_prime_balance' }, controls: grid },
        boundOnly: true,
      })
      expect(cold.status).toBe('optimal')
      expect(r.timeS).toBeLessThanOrEqual(cold.timeS * (1 + 5e-4))
    }
  })
})

describe('equipment optimization: a baseline option with a drag table by yaw', () => {
  // A table that is the same at every yaw is a constant ΔCdA: the baseline's time with it must be
  // the time with that constant, whichever way it is written (the table needs the ride's yaw, which
  // the baseline's own run gives)
  const environment = { airDensityKgM3: 1.2, windSpeedMps: 4, windFromDeg: 70 }
  const flat = (d: number): [number, number][] => [
    [0, d],
    [20, d],
  ]
  const run = (deep: { cdaDeltaM2?: number; cdaDeltaByYaw?: [number, number][] }) =>
    optimizeEquipment({
      course,
      rider,
      environment,
      pacing: { constraint: { type: 'w_prime_balance' } },
      equipment: {
        prune: false,
        groups: { wheels: [{ name: 'deep', massDeltaKg: 0.3, ...deep }, { name: 'shallow' }] },
      },
    })
  const byTable = run({ cdaDeltaByYaw: flat(-0.012) })
  const byConstant = run({ cdaDeltaM2: -0.012 })
  const time = (r: ReturnType<typeof run>, name: string) =>
    r.ranking.find((c) => c.choices.wheels === name)!.timeS

  it('the baseline is timed with its table, as with the same constant ΔCdA', () => {
    expect(byTable.baseline.choices.wheels).toBe('deep')
    expect(byTable.baseline.deltaS).toBe(0)
    expect(time(byTable, 'deep')).toBeCloseTo(time(byConstant, 'deep'), 1)
    expect(time(byTable, 'shallow')).toBeCloseTo(time(byConstant, 'shallow'), 1)
    // 0.012 m² less drag area is worth far more than 0.3 kg on this course: the deep wheel wins
    expect(byTable.ranking[0]!.choices.wheels).toBe('deep')
    expect(time(byTable, 'shallow') - time(byTable, 'deep')).toBeGreaterThan(1)
  })
})
