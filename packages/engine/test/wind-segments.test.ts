// Wind per stretch of the course (environment.wind_segments): applied by distance, so the fine
// course and any coarser copy see the same wind; checked against the steady-state power balance
// solved independently here, and against the course-wide wind it replaces.
import { describe, expect, it } from 'vitest'
import {
  courseFromSegments,
  MARTIN,
  parseScenario,
  prepareModel,
  simulate,
  type Environment,
  type Rider,
} from '../src/index.ts'
import { optimizePacing } from '../src/optimize/positions.ts'
import { cpRider } from './fixtures.ts'

const rider: Rider = { ...cpRider, massKg: 70, cdaM2: 0.3, cpW: 280, maxPowerW: 800 }
const RHO = 1.2
// Flat, heading north (0°): a wind from 0° is a pure headwind, from 180° a pure tailwind.
const flat = (n: number, len: number) =>
  courseFromSegments(Array.from({ length: n }, () => ({ lengthM: len, grade: 0, headingDeg: 0 })))

/**
 * Steady speed on the flat into a headwind w (m/s), solved by bisection from Martin et al. 1998
 * without bearings: P·η = v·(½ρ(CdA+Fw)(v+w)² + m·g·Crr) (independent of the engine's step).
 */
function steadySpeed(powerW: number, headwind: number): number {
  const area = rider.cdaM2 + MARTIN.spokeDragAreaM2
  const m = rider.massKg + rider.bikeMassKg
  const f = (v: number) =>
    v * (0.5 * RHO * area * (v + headwind) ** 2 + m * 9.80665 * rider.crr) -
    powerW * rider.drivetrainEfficiency
  let lo = 0
  let hi = 40
  for (let k = 0; k < 200; k++) {
    const mid = (lo + hi) / 2
    if (f(mid) > 0) hi = mid
    else lo = mid
  }
  return (lo + hi) / 2
}

const quasiSteady = { kineticEnergy: false, bearingLosses: false }

/** The rider at a constant 250 W on 5 km of flat road in `environment`, quasi-steady. */
const steady250 = (environment: Environment) =>
  simulate({
    course: flat(100, 50),
    rider,
    environment,
    options: quasiSteady,
    pacing: { type: 'constant', powerW: 250 },
  })

describe('wind per stretch', () => {
  it('a headwind stretch gives the steady speed of that headwind there, calm elsewhere', () => {
    const env: Environment = {
      airDensityKgM3: RHO,
      windSegments: [{ startM: 1000, endM: 3000, speedMps: 5, fromDeg: 0 }],
    }
    const r = steady250(env)
    const calm = steadySpeed(250, 0)
    const head = steadySpeed(250, 5)
    expect(r.segments.speed[5]).toBeCloseTo(calm, 6) // 250–300 m
    expect(r.segments.speed[30]).toBeCloseTo(head, 6) // 1500–1550 m
    expect(r.segments.speed[80]).toBeCloseTo(calm, 6) // 4000–4050 m
    expect(head).toBeLessThan(calm - 1)
  })

  it('replaces the course-wide wind on its stretch only', () => {
    const env: Environment = {
      airDensityKgM3: RHO,
      windSpeedMps: 4,
      windFromDeg: 180, // tailwind everywhere …
      windSegments: [{ startM: 0, endM: 2500, speedMps: 4, fromDeg: 0 }], // … but a headwind here
    }
    const r = steady250(env)
    expect(r.segments.speed[10]).toBeCloseTo(steadySpeed(250, 4), 6)
    expect(r.segments.speed[70]).toBeCloseTo(steadySpeed(250, -4), 6)
  })

  it('one stretch over the whole course is exactly the course-wide wind', () => {
    const course = courseFromSegments(
      Array.from({ length: 60 }, (_, i) => ({
        lengthM: 40,
        grade: 0.04 * Math.sin(i / 6),
        headingDeg: (i * 17) % 360,
      })),
    )
    const pacing = { type: 'constant' as const, powerW: 260 }
    const a = simulate({
      course,
      rider,
      environment: { airDensityKgM3: RHO, windSpeedMps: 3, windFromDeg: 250 },
      pacing,
    })
    const b = simulate({
      course,
      rider,
      environment: {
        airDensityKgM3: RHO,
        windSegments: [{ startM: 0, endM: 2400, speedMps: 3, fromDeg: 250 }],
      },
      pacing,
    })
    expect(b.timeS).toBeCloseTo(a.timeS, 9)
  })

  it('a segment straddling a stretch boundary (a coarse copy) gets the length-weighted wind', () => {
    const course = flat(2, 100)
    const m = prepareModel(course, rider, {
      airDensityKgM3: RHO,
      windSegments: [{ startM: 50, endM: 150, speedMps: 6, fromDeg: 0 }],
    })
    // half of each 100 m segment is in the 6 m/s headwind, half calm
    expect(m.wPar[0]).toBeCloseTo(3, 12)
    expect(m.wPar[1]).toBeCloseTo(3, 12)
    expect(m.wPerp[0]).toBeCloseTo(0, 12)
  })

  it('the optimizer (on its coarse copy) pushes more power into the headwind stretch (Atkinson & Brunskill 2000)', () => {
    const course = flat(200, 50) // 10 km out, headwind on the first half, tailwind on the second
    const env: Environment = {
      airDensityKgM3: RHO,
      windSegments: [
        { startM: 0, endM: 5000, speedMps: 5, fromDeg: 0 },
        { startM: 5000, endM: 10000, speedMps: 5, fromDeg: 180 },
      ],
    }
    const r = optimizePacing({
      course,
      rider,
      environment: env,
      pacing: { constraint: { type: 'average_power', powerW: 250 } },
    })
    expect(r.status).toBe('optimal')
    const mean = (a: number, b: number) => {
      let s = 0
      for (let i = a; i < b; i++) s += r.powerW[i]!
      return s / (b - a)
    }
    expect(mean(10, 90)).toBeGreaterThan(mean(110, 190) + 20)
    // and the reported time is what simulate gives for the plan under the same wind
    const sim = simulate({
      course,
      rider,
      environment: env,
      pacing: { type: 'plan', powerW: r.powerW },
    })
    expect(sim.timeS).toBeCloseTo(r.timeS, 6)
  })

  const scenario = (windSegments: unknown) => ({
    course: { segments: [{ length_m: 1000, grade: 0 }] },
    rider: { mass_kg: 70, bike_mass_kg: 8, cda_m2: 0.3, crr: 0.004, drivetrain_efficiency: 0.97 },
    environment: { air_density_kg_m3: 1.2, wind_segments: windSegments },
    pacing: { type: 'constant', power_w: 200 },
  })
  const w = (start_m: number, end_m: number, wind_speed_mps = 3, wind_from_deg = 90) => ({
    start_m,
    end_m,
    wind_speed_mps,
    wind_from_deg,
  })

  it('parses the scenario keys', () => {
    const p = parseScenario(scenario([w(0, 400), w(400, 900, 2, 10)]))
    expect(p.input.environment!.windSegments).toEqual([
      { startM: 0, endM: 400, speedMps: 3, fromDeg: 90 },
      { startM: 400, endM: 900, speedMps: 2, fromDeg: 10 },
    ])
  })

  it.each([
    [[w(0, 500), w(400, 900)], /wind_segments\[1\]\.start_m.*not overlapping.*400/],
    [[w(500, 900), w(0, 400)], /wind_segments\[1\]\.start_m.*sorted.*got 0/],
    [[w(300, 300)], /wind_segments\[0\]\.end_m: expected more than start_m \(300\), got 300/],
    [[w(0, 100, -2)], /wind_segments\[0\]\.wind_speed_mps.*got -2/],
    [[w(0, 100, 2, 400)], /wind_segments\[0\]\.wind_from_deg.*≤ 360.*got 400/],
    [[{ ...w(0, 100), gust: 3 }], /wind_segments\[0\]\.gust/],
  ])('refuses bad stretches naming the field and the value (%#)', (list, message) => {
    expect(() => parseScenario(scenario(list))).toThrow(message)
  })
})
