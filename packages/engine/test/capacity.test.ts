// The rider's capacity along the ride (sim/capacity.ts): durability, heat and altitude, against
// independent truth: a per-second integration of the same definitions written here, the published
// figures they come from, and the plan they make on a long flat course.
import { describe, expect, it } from 'vitest'
import {
  courseFromSegments,
  EngineInputError,
  optimizePacing,
  outputContext,
  parseScenario,
  simulate,
  type Course,
} from '../src/index.ts'
import { altitudePowerFactor, heatPowerFactor } from '../src/sim/capacity.ts'
import { cpRider, cpRiderJson } from './fixtures.ts'

const rider = { ...cpRider, maxPowerW: 700 }
const still = { airDensityKgM3: 1.2 }
const flat = (km: number, segmentM = 100): Course =>
  courseFromSegments(
    Array.from({ length: (km * 1000) / segmentM }, () => ({
      lengthM: segmentM,
      grade: 0,
      headingDeg: 0,
    })),
    0,
  )

/** Mean power over a third of the ride (time-weighted). */
function thirdPower(sim: ReturnType<typeof simulate>, k: number): number {
  const s = sim.segments
  let e = 0
  let t = 0
  for (let i = Math.floor((k * s.count) / 3); i < Math.floor(((k + 1) * s.count) / 3); i++) {
    e += s.power[i]! * s.duration[i]!
    t += s.duration[i]!
  }
  return e / t
}

describe('durability', () => {
  const hilly = courseFromSegments(
    Array.from({ length: 600 }, (_, i) => ({
      lengthM: 20,
      grade: 0.05 * Math.sin(i / 40),
      headingDeg: 0,
    })),
    100,
  )

  it('0 changes no plan and no time', () => {
    const input = {
      course: hilly,
      environment: still,
      pacing: { constraint: { type: 'w_prime_balance' as const } },
    }
    const a = optimizePacing({ ...input, rider })
    const b = optimizePacing({ ...input, rider: { ...rider, durability: 0 } })
    expect(b.plan!.timeS).toBe(a.plan!.timeS)
    expect(Array.from(b.plan!.powerW)).toEqual(Array.from(a.plan!.powerW))
    expect(b.plan!.simulation!.finishCpW).toBeUndefined()
  })

  it('a constant-power ride: CP at the finish is CP·(1 − d·W/1,000 kJ), W′ runs out when the integral says', () => {
    const d = 0.06
    const P = 260
    const sim = simulate({
      course: flat(180),
      rider: { ...rider, durability: d },
      environment: still,
      pacing: { type: 'constant', powerW: P },
    })
    expect(sim.finishCpW!).toBeCloseTo(300 * (1 - (d * sim.workJ) / 1e6), 6)
    // per-second integration of the definitions: CP and W′ fall with the work; the W′ spent stays
    // spent; at constant power the work is P·t (the start's acceleration aside: a few seconds)
    let spent = 0
    let exhausted = NaN
    for (let t = 0; t < 30000; t++) {
      const g = 1 - (d * P * t) / 1e6
      const cp = 300 * g
      spent = P > cp ? spent + (P - cp) : spent * Math.exp(-(cp - P) / (20000 * g))
      if (spent >= 20000 * g) {
        exhausted = t
        break
      }
    }
    expect(sim.wPrimeExhaustedAtS!).toBeGreaterThan(exhausted - 30)
    expect(sim.wPrimeExhaustedAtS!).toBeLessThan(exhausted + 30)
  })

  it('on a flat 180 km course the plan’s last third is lower than its first, and slower than without', () => {
    const course = flat(180)
    const run = (durability: number) =>
      optimizePacing({
        course,
        rider: { ...rider, durability },
        environment: still,
        pacing: { constraint: { type: 'w_prime_balance' } },
      })
    const fresh = run(0)
    const tired = run(0.06)
    const sim = tired.plan!.simulation!
    expect(thirdPower(sim, 2)).toBeLessThan(thirdPower(sim, 0) - 20)
    expect(tired.plan!.timeS).toBeGreaterThan(fresh.plan!.timeS)
    // the plan as ridden keeps W′ ≥ 0 under the same durability
    expect(sim.minWPrimeBalanceJ!).toBeGreaterThanOrEqual(0)
    // and beats the best constant power, which must start as low as it ends
    expect(tired.plan!.timeS).toBeLessThan(tired.baseline!.timeS)
  })
})

describe('altitude and heat', () => {
  it('reproduce their sources', () => {
    // scheibo calc_test.go TestAltitudeAdjust: 300 W at 0 m → 301 W, at 2,000 m → 270 W
    expect(300 * altitudePowerFactor(0)).toBeCloseTo(301, -0.5)
    expect(Math.abs(300 * altitudePowerFactor(2000) - 270) / 270).toBeLessThan(0.005)
    // a 40 km time trial at 32 °C ridden at 309 W against 329 W at 17 °C
    expect(Math.abs(329 * heatPowerFactor(32, true) - 309)).toBeLessThan(1)
    expect(heatPowerFactor(15, false)).toBe(1)
  })

  it('not acclimatised, a 43 km time trial at 37 °C takes about 17 % longer than in the cool', () => {
    const course = flat(43.4, 200)
    const run = (temperatureC: number) =>
      optimizePacing({
        course,
        rider,
        environment: { temperatureC, pressurePa: 101325, relativeHumidity: 0.5 },
        options: { heat: true },
        pacing: { constraint: { type: 'w_prime_balance' } },
      }).plan!.timeS
    const ratio = run(37) / run(17)
    expect(ratio).toBeGreaterThan(1.14)
    expect(ratio).toBeLessThan(1.2)
  })

  it('altitude lowers CP along a climb: the W′ plan rides less power high up than a sea-level plan', () => {
    const climb = courseFromSegments(
      Array.from({ length: 200 }, () => ({ lengthM: 50, grade: 0.08, headingDeg: 0 })),
      1500,
    )
    const at = (altitude: boolean) =>
      optimizePacing({
        course: climb,
        rider,
        environment: still,
        options: { altitude },
        pacing: { constraint: { type: 'w_prime_balance' } },
      }).plan!
    const sea = at(false)
    const high = at(true)
    expect(high.timeS).toBeGreaterThan(sea.timeS)
    expect(high.simulation!.finishCpW!).toBeCloseTo(300 * altitudePowerFactor(2300), 0)
    expect(high.simulation!.minWPrimeBalanceJ!).toBeGreaterThanOrEqual(0)
  })
})

describe('the scenario', () => {
  const base = {
    course: { segments: [{ length_m: 1000, grade: 0, heading_deg: 0 }] },
    rider: { ...cpRiderJson },
    environment: { temperature_c: 30 },
    pacing: { type: 'constant', power_w: 250 },
  }

  it('reads "by_level": the default durability of the rider’s CP per kg, stated in the output', () => {
    const level = (cp_w: number, mass_kg: number) =>
      parseScenario({ ...base, rider: { ...base.rider, cp_w, mass_kg, durability: 'by_level' } })
        .input.rider
    // 300 W / 75 kg = 4.0 W/kg: trained, 6 %; 360 / 75 = 4.8: well-trained; 220 / 75: 10 %
    expect(level(300, 75)).toMatchObject({ durability: 0.06, durabilityLevel: 'trained' })
    expect(level(360, 75)).toMatchObject({ durability: 0.035, durabilityLevel: 'well-trained' })
    expect(level(220, 75)).toMatchObject({ durability: 0.1, durabilityLevel: 'recreational' })
    expect(outputContext({ rider: level(300, 75) }).durability).toEqual({
      per_1000_kj: 0.06,
      basis: 'level',
      level: 'trained',
    })
    expect(outputContext({ rider: { ...rider, durability: 0.04 } }).durability).toEqual({
      per_1000_kj: 0.04,
      basis: 'rider',
    })
    expect(outputContext({ rider }).durability).toBeUndefined()
    const noCp = { ...base, rider: { ...base.rider, cp_w: undefined, durability: 'by_level' } }
    expect(() => parseScenario(noCp)).toThrow(/rider\.durability: expected cp_w/)
  })

  it('reads durability, acclimatisation, heat and altitude', () => {
    const { input } = parseScenario({
      ...base,
      rider: { ...base.rider, durability: 0.08, heat_acclimatised: true },
      options: { heat: true, altitude: true },
    })
    expect(input.rider.durability).toBe(0.08)
    expect(input.rider.heatAcclimatised).toBe(true)
    expect(input.options).toMatchObject({ heat: true, altitude: true })
    const sim = simulate(input)
    expect(sim.finishCpW!).toBeLessThan(300 * heatPowerFactor(30, true))
  })

  it('refuses values outside their range and the 2012 W′ model with them, naming the field', () => {
    const bad = { ...base, rider: { ...base.rider, durability: 0.9 } }
    expect(() => simulate(parseScenario(bad).input)).toThrow(/rider\.durability.*0\.9/)
    const model = {
      ...base,
      rider: { ...base.rider, durability: 0.05 },
      options: { w_prime_model: 'skiba2012' },
    }
    expect(() => simulate(parseScenario(model).input)).toThrow(EngineInputError)
    expect(() => simulate(parseScenario(model).input)).toThrow(/options\.w_prime_model/)
  })
})
