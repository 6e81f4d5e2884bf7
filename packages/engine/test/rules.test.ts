// The rules a rider follows (sim/rules.ts), checked on the plan as ridden: the optimizer's plan,
// ridden again through `simulate` with the same rules, gives no power above a cap, none where
// coasting is asked, the held power where it is held, no speed above a stretch's limit, and the
// easy start's cap over its whole duration. Without rules nothing changes.
import { describe, expect, it } from 'vitest'
import {
  courseFromSegments,
  EngineInputError,
  optimizePacing,
  parseOptimizeScenario,
  pacingOutput,
  runPacingScenario,
  simulate,
  type Course,
  type RideRules,
} from '../src/index.ts'
import { cpRider, cpRiderJson } from './fixtures.ts'

const rider = { ...cpRider, maxPowerW: 700 }
const environment = { airDensityKgM3: 1.2 }

/** 6 km: a 5 % climb, a steep dip (−9 %) into a hairpin (radius 12 m), a 10 % ramp, rolling road. */
function dipCourse(): Course {
  const seg: { lengthM: number; grade: number; headingDeg: number; radiusM?: number }[] = []
  for (let i = 0; i < 100; i++) seg.push({ lengthM: 20, grade: 0.05, headingDeg: 0 })
  for (let i = 0; i < 6; i++) seg.push({ lengthM: 20, grade: -0.09, headingDeg: 0 })
  seg.push({ lengthM: 20, grade: 0, headingDeg: 90, radiusM: 12 })
  for (let i = 0; i < 20; i++) seg.push({ lengthM: 20, grade: 0.1, headingDeg: 180 })
  for (let i = 0; i < 173; i++) {
    seg.push({ lengthM: 20, grade: 0.04 * Math.sin(i / 12), headingDeg: 180 })
  }
  return courseFromSegments(seg, 500)
}

function rideWith(rules: RideRules) {
  const course = dipCourse()
  const options = { rules }
  const r = optimizePacing({
    course,
    rider,
    environment,
    options,
    pacing: { constraint: { type: 'w_prime_balance' } },
  })
  expect(r.status).toBe('optimal')
  // the plan as handed out, ridden again with the same rules
  const sim = simulate({
    course,
    rider,
    environment,
    options,
    pacing: { type: 'plan', powerW: Array.from(r.plan!.powerW) },
  })
  expect(sim.status).toBe('ok')
  expect(sim.timeS).toBeCloseTo(r.plan!.timeS, 6)
  return { course, r, sim }
}

describe('rules a rider follows', () => {
  it('none: the same plan and time as without the option', () => {
    const course = dipCourse()
    const input = {
      course,
      rider,
      environment,
      pacing: { constraint: { type: 'w_prime_balance' as const } },
    }
    const a = optimizePacing(input)
    const b = optimizePacing({ ...input, options: { rules: {} } })
    expect(b.plan!.timeS).toBe(a.plan!.timeS)
    expect(Array.from(b.plan!.powerW)).toEqual(Array.from(a.plan!.powerW))
  })

  it('coast: zero power on descents steeper than the grade and into the hairpin', () => {
    const { course, sim } = rideWith({ coast: { descentGrade: -0.05, beforeBraking: true } })
    let coasted = 0
    for (let i = 0; i < course.n; i++) {
      if (course.grade[i]! <= -0.05) {
        expect(sim.segments.power[i]).toBe(0)
        coasted++
      }
    }
    expect(coasted).toBe(6)
    // without the rule the same plan pedals down the dip
    const free = optimizePacing({
      course,
      rider,
      environment,
      pacing: { constraint: { type: 'w_prime_balance' } },
    })
    const dipPower = Array.from(free.plan!.powerW.slice(100, 106))
    expect(Math.max(...dipPower)).toBeGreaterThan(0)
  })

  it('a descent cap, a stretch cap, a held power and a speed limit', () => {
    const rules: RideRules = {
      descentCap: { grade: -0.02, powerW: 120 },
      stretches: [
        { startM: 500, endM: 1000, maxPowerW: 250 },
        { startM: 2500, endM: 3000, powerW: 280, label: 'held' },
        { startM: 4000, endM: 5000, maxSpeedMps: 8, label: 'feed zone' },
      ],
    }
    const { course, sim } = rideWith(rules)
    for (let i = 0; i < course.n; i++) {
      const mid = course.start[i]! + course.length[i]! / 2
      const p = sim.segments.power[i]!
      if (course.grade[i]! <= -0.02) expect(p).toBeLessThanOrEqual(120 + 1e-9)
      if (mid >= 500 && mid < 1000) expect(p).toBeLessThanOrEqual(250 + 1e-9)
      if (mid >= 2500 && mid < 3000 && sim.segments.exitSpeed[i]! < 30) {
        // held unless the speed envelope eases it off
        expect(p).toBeCloseTo(280, 6)
      }
      if (mid >= 4000 && mid < 5000) expect(sim.segments.speed[i]!).toBeLessThanOrEqual(8 + 1e-6)
    }
  })

  it('an easy start: at most the cap for its whole duration, then the plan rides above it', () => {
    const { course, sim } = rideWith({ easyStart: { durationS: 300, maxCpFraction: 0.8 } })
    let t = 0
    let after = 0
    for (let i = 0; i < course.n; i++) {
      if (t < 300) expect(sim.segments.power[i]!).toBeLessThanOrEqual(240 + 1e-9)
      else after = Math.max(after, sim.segments.power[i]!)
      t += sim.segments.duration[i]!
    }
    expect(after).toBeGreaterThan(240)
  })

  it('each rule costs its seconds: the plan optimized without it', () => {
    const course = dipCourse()
    const segments = Array.from({ length: course.n }, (_, i) => ({
      length_m: course.length[i]!,
      grade: course.grade[i]!,
      heading_deg: (course.heading[i]! * 180) / Math.PI,
      ...(Number.isFinite(course.radius[i]!) ? { radius_m: course.radius[i]! } : {}),
    }))
    const parsed = parseOptimizeScenario({
      course: { segments, start_altitude_m: 500 },
      rider: { ...cpRiderJson, max_power_w: 700 },
      environment: { air_density_kg_m3: 1.2 },
      rules: {
        easy_start: { duration_s: 300, max_cp_fraction: 0.8 },
        coast: { descent_grade: -0.05 },
      },
      constraint: { type: 'w_prime_balance' },
    })
    const { result, ctx } = runPacingScenario(parsed)
    const withoutEasy = optimizePacing({
      ...parsed.input,
      options: { ...parsed.input.options, rules: { coast: { descentGrade: -0.05 } } },
    })
    expect(ctx.costs!.easyStartS!).toBeCloseTo(result.plan!.timeS - withoutEasy.plan!.timeS, 6)
    expect(ctx.costs!.easyStartS!).toBeGreaterThan(0)
    expect(ctx.costs!.coastS).toBeDefined()
    const out = pacingOutput(result, parsed.input.course, ctx)
    expect(Object.keys(out.rule_costs!).sort()).toEqual(['coast_s', 'easy_start_s'])
    // the race sheet's rule rows: the dip coasted (km 2.0–2.12), the start capped at 240 W
    expect(out.rule_stretches).toContainEqual({
      start_m: 2000,
      end_m: 2120,
      kind: 'coast',
      power_w: 0,
    })
    expect(out.rule_stretches![0]).toMatchObject({ start_m: 0, kind: 'cap', power_w: 240 })
    // the plan's rows as ridden: the dip is its own row at 0 W, outside every target; the rows
    // still cover the course end to end and their durations add up to the plan's time
    const coast = out.plan.filter((row) => row.label === 'Coast')
    expect(coast.map((row) => [row.start_m, row.end_m, row.power_w])).toEqual([[2000, 2120, 0]])
    const inTargets = new Set(out.targets.flatMap((t) => t.sections))
    expect(inTargets.has(out.plan.indexOf(coast[0]!))).toBe(false)
    expect(out.plan.length).toBe(
      inTargets.size + out.plan.filter((r) => r.target === undefined).length,
    )
    for (let k = 1; k < out.plan.length; k++)
      expect(out.plan[k]!.start_m).toBe(out.plan[k - 1]!.end_m)
    const total = out.plan.reduce((a, row) => a + row.duration_s, 0)
    expect(total).toBeCloseTo(result.plan!.timeS, 0)
    for (const t of out.targets)
      for (const k of t.sections) expect(out.plan[k]!.power_w).toBe(t.power_w)
  })

  it('refuses a rule outside its range, naming the field and the value', () => {
    const base = {
      course: { segments: [{ length_m: 1000, grade: 0, heading_deg: 0 }] },
      rider: { ...cpRiderJson, max_power_w: 700 },
      environment: { air_density_kg_m3: 1.2 },
      constraint: { type: 'w_prime_balance' },
    }
    const run = (rules: unknown) => () =>
      optimizePacing(parseOptimizeScenario({ ...base, rules }).input)
    expect(run({ coast: { descent_grade: 0.05 } })).toThrow(
      /rules\.coast\.descent_grade: expected -0\.3 to 0, got 0\.05/,
    )
    expect(run({ easy_start: { duration_s: 600, max_cp_fraction: 2 } })).toThrow(
      /rules\.easy_start\.max_cp_fraction/,
    )
    expect(run({ stretches: [{ start_m: 500, end_m: 400, power_w: 200 }] })).toThrow(
      /rules\.stretches\[0\]\.end_m/,
    )
    expect(run({ stretches: [{ start_m: 0, end_m: 400 }] })).toThrow(
      /rules\.stretches\[0\]: expected max_power_w/,
    )
    expect(run({ fast: true })).toThrow(EngineInputError)
  })
})
