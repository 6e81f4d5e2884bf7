// The fuel plan against its published figures (van Loon et al. 2001, Jeukendrup 2014, ACSM 2007),
// its invariants (feeds only where the rule allows, intake = Σ feeds, the glycogen balance) and a
// simulated 180 km rolling course.
import { describe, expect, it } from 'vitest'
import { cpRider } from '../../test/fixtures.ts'
import { courseFromSegments } from '../course/types.ts'
import { simulate } from '../sim/simulate.ts'
import { EngineInputError } from '../sim/validate.ts'
import { fuelPlan, fuelRideOf } from './fuel.ts'
import type { FuelOptions, FuelPlan, FuelRide } from './types.ts'

const CP = 300

interface Stretch {
  minutes: number
  fractionCp: number
  grade?: number
  radiusM?: number
  temperatureC?: number
}

/** A ride of 100 m segments: each stretch at its power and grade, 10 m/s on the flat. */
function ride(stretches: Stretch[], segmentS = 10): FuelRide {
  const r = {
    startM: [] as number[],
    lengthM: [] as number[],
    durationS: [] as number[],
    powerW: [] as number[],
    grade: [] as number[],
    radiusM: [] as number[],
    temperatureC: [] as number[],
  }
  let at = 0
  for (const s of stretches) {
    const g = s.grade ?? 0
    // Slower up, faster down: a climb at 6 % is ridden at 4 m/s, a 5 % descent at 16 m/s.
    const speed = g > 0 ? 10 / (1 + 25 * g) : 10 * (1 - 12 * g)
    for (let k = 0; k < Math.round((s.minutes * 60) / segmentS); k++) {
      r.startM.push(at)
      r.lengthM.push(speed * segmentS)
      r.durationS.push(segmentS)
      r.powerW.push(s.fractionCp * CP)
      r.grade.push(g)
      r.radiusM.push(s.radiusM ?? Infinity)
      r.temperatureC.push(s.temperatureC ?? 20)
      at += speed * segmentS
    }
  }
  return { count: r.startM.length, ...r }
}

const plan = (r: FuelRide, options?: FuelOptions): FuelPlan =>
  fuelPlan({ ride: r, cpW: CP, options })
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0)

describe('carbohydrate oxidation (van Loon et al. 2001 at CP = 77 % of Wmax)', () => {
  it.each([
    [0.4, 0.6],
    [0.55, 1.2],
    [0.75, 2.9],
  ])('at %s of Wmax burns %s g/min', (fractionWmax, gPerMin) => {
    const fractionCp = fractionWmax / 0.77
    const p = plan(ride([{ minutes: 60, fractionCp }]))
    expect(p.carbohydrate.meanOxidationGPerH / 60).toBeCloseTo(gPerMin, 6)
    expect(p.carbohydrate.burnedG).toBeCloseTo(gPerMin * 60, 4)
  })

  it('rises with intensity, from nothing when coasting', () => {
    const rates = [0, 0.3, 0.5, 0.7, 0.9, 1.1, 1.5].map(
      (f) => plan(ride([{ minutes: 10, fractionCp: f }])).carbohydrate.meanOxidationGPerH,
    )
    expect(rates[0]).toBe(0)
    for (let k = 1; k < rates.length; k++) expect(rates[k]!).toBeGreaterThan(rates[k - 1]!)
  })
})

describe('intake targets (Jeukendrup 2014, capped by the gut)', () => {
  const long = ride([{ minutes: 240, fractionCp: 0.65 }])

  it('a 4 h ride at 65 % CP: 60 g/h with a gut of 60, the 90 g/h guideline with 120', () => {
    const p60 = plan(long, { gutToleranceGPerH: 60 })
    expect(p60.carbohydrate.targetGPerH).toBe(60)
    expect(p60.carbohydrate.intakeG / 4).toBeCloseTo(60, 0)
    expect(p60.carbohydrate.sugars).toBe('any')
    const p120 = plan(long, { gutToleranceGPerH: 120 })
    expect(p120.carbohydrate.guidelineGPerH).toBe(90)
    expect(p120.carbohydrate.targetGPerH).toBe(90)
    expect(p120.carbohydrate.intakeG / 4).toBeCloseTo(90, 0)
    expect(p120.carbohydrate.sugars).toBe('glucose-fructose')
    // 65 % CP is 50 % of Wmax: between the 40 % and 55 % rows of the table.
    expect(p120.carbohydrate.burnedG).toBeGreaterThan(0.6 * 240)
    expect(p120.carbohydrate.burnedG).toBeLessThan(1.2 * 240)
  })

  it.each([
    [40, 0, 0],
    [60, 0, 3],
    [90, 30, 5],
    [135, 60, 7],
    [180, 90, 9],
  ])('%s min: %s g/h in %s feeds', (minutes, gPerH, feeds) => {
    const p = plan(ride([{ minutes, fractionCp: 0.6 }]))
    expect(p.carbohydrate.targetGPerH).toBe(gPerH)
    expect(p.feeds).toHaveLength(feeds)
    if (minutes < 45) expect(p.fluid.totalMl).toBe(0)
  })

  it('the intake and the fluid are the sums of the feeds, each labelled', () => {
    const p = plan(long)
    expect(p.carbohydrate.intakeG).toBe(sum(p.feeds.map((f) => f.carbohydrateG)))
    expect(p.fluid.totalMl).toBe(sum(p.feeds.map((f) => f.fluidMl)))
    for (const f of p.feeds) {
      expect(f.label).toBe(`gel ${f.carbohydrateG} g + ${f.fluidMl} ml`)
    }
    // About every 20 minutes of riding.
    const gaps = p.feeds.slice(1).map((f, k) => f.elapsedS - p.feeds[k]!.elapsedS)
    for (const g of gaps) expect(Math.abs(g - 1200)).toBeLessThan(60)
  })
})

describe('fluid (ACSM 2007: 400–800 ml/h, more when hot)', () => {
  it('a hot day gets more fluid and sodium than a cool one, within the range', () => {
    const at = (temperatureC: number) =>
      plan(ride([{ minutes: 180, fractionCp: 0.65, temperatureC }]))
    const cool = at(8)
    const hot = at(32)
    expect(hot.fluid.totalMl).toBeGreaterThan(cool.fluid.totalMl)
    expect(hot.fluid.sodiumMgPerH).toBeGreaterThan(cool.fluid.sodiumMgPerH)
    for (const p of [cool, hot]) {
      expect(p.fluid.mlPerH).toBeGreaterThanOrEqual(400 - 5)
      expect(p.fluid.mlPerH).toBeLessThanOrEqual(800 + 5)
      // ACSM 2007: 20–30 meq/l of sodium, 460–690 mg per litre.
      const mgPerL = p.fluid.sodiumMgPerH / (p.fluid.mlPerH / 1000)
      expect(mgPerL).toBeGreaterThanOrEqual(460)
      expect(mgPerL).toBeLessThanOrEqual(690)
    }
  })

  it('a ride that warms up drinks more in its hot part', () => {
    const p = plan(
      ride([
        { minutes: 90, fractionCp: 0.65, temperatureC: 10 },
        { minutes: 90, fractionCp: 0.65, temperatureC: 30 },
      ]),
    )
    const early = p.feeds.filter((f) => f.elapsedS < 80 * 60)
    const late = p.feeds.filter((f) => f.elapsedS > 100 * 60)
    expect(Math.max(...early.map((f) => f.fluidMl))).toBeLessThan(
      Math.min(...late.map((f) => f.fluidMl)),
    )
  })
})

/** Whether segment i of `r` meets the feeding rule, checked from the raw ride. */
function easy(r: FuelRide, i: number): boolean {
  const speed = (r.lengthM[i]! * Math.hypot(1, r.grade[i]!)) / r.durationS[i]!
  // the plan's time-weighted median power, where the plan rides above 85 % of CP throughout, each
  // with a watt's tolerance
  const pairs = Array.from({ length: r.count }, (_, j) => [r.powerW[j]!, r.durationS[j]!])
  pairs.sort((a, b) => a[0]! - b[0]!)
  const half = pairs.reduce((s, [, t]) => s + t!, 0) / 2
  let acc = 0
  const median = pairs.find(([, t]) => (acc += t!) >= half)![0]!
  return (
    r.powerW[i]! <= Math.max(0.85 * CP, median) + 1 &&
    r.grade[i]! >= -0.02 &&
    r.grade[i]! <= 0.04 &&
    r.radiusM![i]! >= 100 &&
    speed <= 50 / 3.6
  )
}

/** Every feed starts 30 s of riding that meets the rule. */
function expectFeedsOnEasyStretches(r: FuelRide, p: FuelPlan): void {
  for (const f of p.feeds) {
    const i = Array.prototype.indexOf.call(r.startM, f.distanceM)
    expect(i, `feed at ${f.distanceM} m`).toBeGreaterThanOrEqual(0)
    let t = 0
    for (let j = i; t < 30; j++) {
      expect(easy(r, j), `segment ${j} after the feed at ${f.distanceM} m`).toBe(true)
      t += r.durationS[j]!
    }
  }
}

describe('feeds on easy, straight stretches', () => {
  // Each 30 min block: climb above CP, fast descent, a hairpin-lined flat, a short easy flat.
  const block: Stretch[] = [
    { minutes: 12, fractionCp: 1.05, grade: 0.06 },
    { minutes: 6, fractionCp: 0, grade: -0.05 },
    { minutes: 6, fractionCp: 0.7, radiusM: 25 },
    { minutes: 2, fractionCp: 0.9, grade: 0.03 },
    { minutes: 4, fractionCp: 0.6, grade: 0.01 },
  ]
  const r = ride(Array.from({ length: 8 }, () => block).flat())

  it('lie only where the rule allows, and the intake stays whole', () => {
    const p = plan(r)
    expect(p.feeds.length).toBeGreaterThan(0)
    expectFeedsOnEasyStretches(r, p)
    expect(p.carbohydrate.intakeG / (p.durationS / 3600)).toBeCloseTo(90, 0)
  })

  it('a time trial at CP throughout feeds where it is easiest, never on its harder parts', () => {
    const tt = ride(
      Array.from({ length: 10 }, () => [
        { minutes: 6, fractionCp: 1.0 },
        { minutes: 4, fractionCp: 1.1, grade: 0.02 },
      ]).flat(),
    )
    const p = plan(tt)
    expect(p.feeds.length).toBeGreaterThanOrEqual(4)
    expectFeedsOnEasyStretches(tt, p)
    for (const f of p.feeds) {
      const i = Array.prototype.indexOf.call(tt.startM, f.distanceM)
      expect(tt.powerW[i]).toBe(CP)
    }
  })

  it('a stretch a thousandth of a watt above the median power is as easy as the median', () => {
    // A plan at CP whose opening flat an optimizer left at 300.002 W and its long flat at 300 W.
    const tt = ride([
      { minutes: 40, fractionCp: 1.0 + 0.002 / CP },
      { minutes: 10, fractionCp: 1.1, grade: 0.02 },
      { minutes: 60, fractionCp: 1.0 },
    ])
    const p = plan(tt)
    expectFeedsOnEasyStretches(tt, p)
    expect(p.feeds.filter((f) => f.elapsedS < 40 * 60).length).toBeGreaterThanOrEqual(1)
    expect(p.feeds.filter((f) => f.elapsedS > 40 * 60 && f.elapsedS < 50 * 60)).toHaveLength(0)
    // two watts over the median is harder than the rule allows
    const hard = ride([
      { minutes: 40, fractionCp: 1.0 + 2 / CP },
      { minutes: 60, fractionCp: 1.0 },
    ])
    expect(plan(hard).feeds.filter((f) => f.elapsedS < 40 * 60)).toHaveLength(0)
  })

  it('a long climb with no place to feed passes its feed on, with a warning', () => {
    const climbs = ride([
      { minutes: 60, fractionCp: 0.6 },
      { minutes: 70, fractionCp: 0.95, grade: 0.07 },
      { minutes: 60, fractionCp: 0.6 },
    ])
    const p = plan(climbs)
    expectFeedsOnEasyStretches(climbs, p)
    expect(p.warnings.some((w) => w.startsWith('no easy, straight stretch'))).toBe(true)
    expect(p.carbohydrate.intakeG).toBeCloseTo((p.carbohydrate.targetGPerH * 190) / 60, 0)
    const onClimb = p.feeds.filter((f) => f.elapsedS > 60 * 60 && f.elapsedS < 130 * 60)
    expect(onClimb).toHaveLength(0)
  })
})

describe('glycogen', () => {
  it('a long hard ride with little food empties the store where burned − eaten reaches it', () => {
    const r = ride([{ minutes: 360, fractionCp: 0.9 }])
    const p = plan(r, { gutToleranceGPerH: 30, glycogenStoreG: 450 })
    expect(p.glycogen.emptyAtS).not.toBeNull()
    expect(p.warnings.some((w) => w.includes('empties the glycogen store (450 g)'))).toBe(true)
    const t = p.glycogen.emptyAtS!
    const burned = (p.carbohydrate.burnedG * t) / p.durationS // constant power
    const eaten = sum(p.feeds.filter((f) => f.elapsedS <= t).map((f) => f.carbohydrateG))
    expect(burned - eaten).toBeCloseTo(450, 0)
    expect(p.glycogen.finishG).toBeCloseTo(450 - p.carbohydrate.burnedG + p.carbohydrate.intakeG, 6)
  })

  it('an easy 2 h ride leaves most of the store and no warning', () => {
    const p = plan(ride([{ minutes: 120, fractionCp: 0.55 }]))
    expect(p.glycogen.emptyAtS).toBeNull()
    expect(p.warnings).toEqual([])
    expect(p.glycogen.finishG).toBeGreaterThan(250)
  })
})

describe('bad input', () => {
  const r = ride([{ minutes: 60, fractionCp: 0.6 }])
  it.each([
    [{ ride: r, cpW: CP, options: { gutToleranceGPerH: 20 } }, 'options.gutToleranceGPerH', '20'],
    [{ ride: r, cpW: CP, options: { gutToleranceGPerH: 160 } }, 'options.gutToleranceGPerH', '160'],
    [{ ride: r, cpW: 0 }, 'cpW', '0'],
    [{ ride: r, cpW: -250 }, 'cpW', '-250'],
    [{ ride: { ...r, durationS: [10, 10] }, cpW: CP }, 'ride.durationS', 'got 2'],
    [{ ride: r, cpW: CP, options: { glycogenStoreG: -1 } }, 'options.glycogenStoreG', '-1'],
  ])('throws EngineInputError naming the field and value', (input, field, value) => {
    let err: unknown
    try {
      fuelPlan(input)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(EngineInputError)
    expect((err as EngineInputError).field.startsWith(field)).toBe(true)
    expect((err as Error).message).toContain(value)
  })

  it('a negative duration is named with its index and value', () => {
    const durationS = Array.from(r.durationS)
    durationS[7] = -3
    expect(() => fuelPlan({ ride: { ...r, durationS }, cpW: CP })).toThrow(
      /ride\.durationS\[7\].*got -3/,
    )
  })
})

describe('a simulated 180 km rolling course', () => {
  // 100 m segments: 2 km climbs of 5–7 %, their descents, flat between, a roundabout every 15 km.
  const segments = Array.from({ length: 1800 }, (_, i) => {
    const km = (i * 100) / 1000
    const phase = km % 10
    const grade = phase < 2 ? 0.05 + 0.01 * Math.sin(i) : phase < 4 ? -0.055 : 0.005 * Math.sin(i)
    const radiusM = i % 150 === 75 ? 20 : undefined
    return { lengthM: 100, grade, headingDeg: (i * 3) % 360, radiusM }
  })
  const course = courseFromSegments(segments)
  const rider = { ...cpRider, cpW: CP }
  // What a rider does: above CP on the climbs, 70 % of it elsewhere.
  const powerW = segments.map((s) => (s.grade > 0.03 ? 1.05 * CP : 0.7 * CP))
  const sim = simulate({ course, rider, pacing: { type: 'plan', powerW } })
  const r = fuelRideOf(course, sim, { temperatureC: 27 })
  const p = fuelPlan({ ride: r, cpW: CP, options: { gutToleranceGPerH: 90 } })

  it('feeds every ~20 min, never on its climbs, descents or roundabouts', () => {
    expect(sim.status).toBe('ok')
    expect(p.durationS).toBeCloseTo(sim.timeS, 6)
    expect(p.feeds.length).toBe(Math.round(sim.timeS / 1200))
    expectFeedsOnEasyStretches(r, p)
    for (const f of p.feeds) {
      const phase = (f.distanceM / 1000) % 10
      expect(phase, `feed at ${f.distanceM} m`).toBeGreaterThanOrEqual(4)
    }
  })

  it('targets 90 g/h and drinks for a hot day', () => {
    expect(p.carbohydrate.targetGPerH).toBe(90)
    expect(p.carbohydrate.intakeG / (sim.timeS / 3600)).toBeCloseTo(90, 0)
    expect(p.fluid.band).toBe('hot')
    expect(p.fluid.temperatureC).toBeCloseTo(27, 9)
    expect(p.segments.oxidationGPerH).toHaveLength(course.n)
  })
})
