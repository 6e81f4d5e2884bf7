// A run's output carries what the plan adds for the rider: the CP at the finish where it varies,
// the target time's outcome and the fuel plan of the ride as handed out.
import { describe, expect, it } from 'vitest'
import {
  courseFromSegments,
  fuelPlan,
  fuelRideOf,
  optimizePacing,
  optimizeTargetTime,
  outputContext,
  pacingOutput,
  parseOptimizeScenario,
  runPacingScenario,
} from '../../src/index.ts'
import { cpRider, cpRiderJson } from '../fixtures.ts'

const rider = { ...cpRider, maxPowerW: 700, durability: 0.05 }
const course = courseFromSegments(
  Array.from({ length: 600 }, (_, i) => ({
    lengthM: 100,
    grade: 0.02 * Math.sin(i / 30),
    headingDeg: 0,
  })),
  0,
)
const environment = { temperatureC: 24, pressurePa: 101325 }

describe('the run output', () => {
  it('has the CP at the finish and the fuel plan of the plan as ridden', () => {
    const input = {
      course,
      rider,
      environment,
      pacing: { constraint: { type: 'w_prime_balance' as const } },
    }
    const r = optimizePacing(input)
    const out = pacingOutput(r, course, outputContext(input))
    const sim = r.plan!.simulation!
    expect(out.finish_cp_w).toBeCloseTo(300 * (1 - (0.05 * sim.workJ) / 1e6), 0)
    // the same fuel plan the engine gives for that ride, rounded
    const f = fuelPlan({ ride: fuelRideOf(course, sim, environment), cpW: 300 })
    expect(out.fuel!.feeds.length).toBe(f.feeds.length)
    expect(out.fuel!.feeds.length).toBeGreaterThan(0)
    expect(out.fuel!.intake_g).toBe(Math.round(f.carbohydrate.intakeG))
    expect(out.fuel!.feeds.at(-1)!.distance_m).toBeLessThan(60000)
    // without a CP there is no intensity to fuel by
    expect(pacingOutput(r, course).fuel).toBeUndefined()
  })

  it('says what the target time asked and what it got', () => {
    const input = {
      course,
      rider: { ...rider, durability: 0 },
      environment,
      pacing: { constraint: { type: 'w_prime_balance' as const } },
    }
    const r = optimizeTargetTime(input, 7200)
    const out = pacingOutput(r, course, outputContext(input))
    expect(out.target_time).toMatchObject({ time_s: 7200, reached: true })
    expect(Math.abs(out.time_s - 7200) / 7200).toBeLessThan(0.005)
    expect(out.finish_cp_w).toBeUndefined()
  })
})

describe('a scenario run (runPacingScenario)', () => {
  const scenario = (extra: Record<string, unknown>) =>
    parseOptimizeScenario({
      course: {
        segments: Array.from({ length: 300 }, (_, i) => ({
          length_m: 100,
          grade: 0.02 * Math.sin(i / 30),
          heading_deg: 0,
        })),
      },
      rider: { ...cpRiderJson, max_power_w: 700 },
      environment: { temperature_c: 30 },
      constraint: { type: 'w_prime_balance' },
      ...extra,
    })

  it('costs each asked effect the time of the plan optimized without it', () => {
    const withAll = scenario({
      rider: { ...cpRiderJson, max_power_w: 700, durability: 0.1 },
      options: { heat: true },
      fuel: { gut_tolerance_g_per_h: 60 },
    })
    const { result, ctx } = runPacingScenario(withAll)
    const costs = ctx.costs!
    // the durability cost is the time difference to the same scenario at durability 0
    const noDurability = runPacingScenario(
      scenario({ options: { heat: true }, fuel: { gut_tolerance_g_per_h: 60 } }),
    )
    expect(costs.durabilityS!).toBeCloseTo(result.plan!.timeS - noDurability.result.plan!.timeS, 6)
    // 30 °C unacclimatised: 13 °C above 17 at 1.9 %/°C lowers CP a quarter: heat costs time
    expect(costs.heatS!).toBeGreaterThan(10)
    expect(costs.durabilityS!).toBeGreaterThan(0)
    expect(costs.altitudeS).toBeUndefined()
    // the fuel options reach the output: intake capped by the gut tolerance asked
    const out = pacingOutput(result, withAll.input.course, ctx)
    expect(out.fuel!.gut_tolerance_g_per_h).toBe(60)
    expect(out.capacity_costs!.heat_s).toBeCloseTo(costs.heatS!, 1)
  })

  it('asks no cost when no effect is asked, nor for a target time', () => {
    expect(runPacingScenario(scenario({})).ctx.costs).toEqual({})
    const target = runPacingScenario(
      scenario({ options: { heat: true }, constraint: { type: 'target_time', time_s: 2400 } }),
    )
    expect(target.ctx.costs).toBeUndefined()
  })
})
