// Riding positions by speed (rider.positions): the rider takes on each segment the position whose
// speed range holds the segment's speed. Checked against independent truths: a position ridden
// everywhere is the same ride as that CdA without positions; one position or identical CdAs change
// nothing; a fast flat and a slow climb get the aero and the upright position; the energy balance
// holds; a lower aero CdA never makes the ride slower; the reported ride is the ride simulated
// with the reported assignment.
import { describe, expect, it } from 'vitest'
import {
  courseFromSegments,
  optimizeEquipment,
  optimizePacing,
  optimizeResultToJson,
  parseOptimizeScenario,
  pacingOutput,
  positionAt,
  positionDragFactor,
  prepareModel,
  scaleDrag,
  simulate,
  simulatePrepared,
  type Rider,
  type RiderPosition,
  type SimulationResult,
} from '../src/index.ts'
import { cpRider } from './fixtures.ts'

const base: Rider = { ...cpRider, massKg: 72, cdaM2: 0.3, maxPowerW: 900 }
const env = { airDensityKgM3: 1.2 }
const KMH = 1 / 3.6
// The typical switch (DESIGN.md §5): aero above ~25 km/h, upright on the base bar below.
const twoPositions = (aero: number, upright = 0.32): RiderPosition[] => [
  { name: 'aero', cdaM2: aero, minSpeedMps: 25 * KMH, maxSpeedMps: 30 },
  { name: 'upright', cdaM2: upright, minSpeedMps: 0, maxSpeedMps: 25 * KMH },
]
// 4 km flat, 3 km at 8 %, 3 km flat (fast, slow, fast)
const course = courseFromSegments(
  Array.from({ length: 200 }, (_, i) => ({
    lengthM: 50,
    grade: i >= 80 && i < 140 ? 0.08 : 0,
    headingDeg: 0,
  })),
)

function energyBalance(r: SimulationResult): number {
  const e = r.energy
  const wheel = e.crankJ - e.drivetrainLossJ
  const parts = e.aeroJ + e.rollingJ + e.bearingJ + e.potentialJ + e.kineticJ + e.brakingJ
  return Math.abs(wheel - parts) / wheel
}

describe('positions in the simulation', () => {
  const pacing = { type: 'constant' as const, powerW: 260 }

  it('one position ridden at every speed is the same ride as its CdA without positions', () => {
    const r = simulate({
      course,
      rider: { ...base, positions: [{ cdaM2: 0.25 }] },
      environment: env,
      pacing,
    })
    const plain = simulate({ course, rider: { ...base, cdaM2: 0.25 }, environment: env, pacing })
    expect(r.timeS).toBeCloseTo(plain.timeS, 9)
    expect(r.energy.aeroJ).toBeCloseTo(plain.energy.aeroJ, 3)
  })

  it('identical CdAs (or one position with the rider’s CdA) give exactly today’s ride', () => {
    const plain = simulate({ course, rider: base, environment: env, pacing })
    for (const positions of [
      [{ cdaM2: 0.3 }],
      twoPositions(0.3, 0.3),
    ] satisfies RiderPosition[][]) {
      const r = simulate({ course, rider: { ...base, positions }, environment: env, pacing })
      expect(r.timeS).toBe(plain.timeS)
      expect(r.segmentPosition).toBeUndefined()
    }
  })

  it('rides aero on the fast flats and upright on the slow climb; energy balances', () => {
    const rider = { ...base, positions: twoPositions(0.24) }
    const r = simulate({ course, rider, environment: env, pacing })
    const a = r.segmentPosition!
    // 260 W: ~40 km/h on the flat, ~13 km/h at 8 % (well either side of 25 km/h)
    expect(r.segments.speed[50]!).toBeGreaterThan(30 * KMH)
    expect(r.segments.speed[110]!).toBeLessThan(20 * KMH)
    expect(a[50]).toBe(0)
    expect(a[110]).toBe(1)
    expect(a[180]).toBe(0)
    // the assignment is the one the final ride's own speeds give (a fixed point)
    for (let i = 0; i < course.n; i++) {
      expect(a[i], `segment ${i}`).toBe(positionAt(rider.positions, r.segments.speed[i]!))
    }
    expect(energyBalance(r)).toBeLessThan(1e-3)
  })

  it('the drag factor is the position’s (CdA + Fw) over the rider’s', () => {
    const rider = { ...base, positions: twoPositions(0.24) }
    const f = positionDragFactor(rider, new Uint8Array([0, 1]))
    const fw = 0.0044 // Martin 1998 spoke drag area, the default
    expect(f[0]).toBeCloseTo((0.24 + fw) / (0.3 + fw), 12)
    expect(f[1]).toBeCloseTo((0.32 + fw) / (0.3 + fw), 12)
  })

  it('takes the first listed range when several hold the speed, the nearest when none does', () => {
    const p: RiderPosition[] = [
      { cdaM2: 0.25, minSpeedMps: 8, maxSpeedMps: 12 },
      { cdaM2: 0.3, minSpeedMps: 10, maxSpeedMps: 20 },
      { cdaM2: 0.35, minSpeedMps: 2, maxSpeedMps: 5 },
    ]
    expect(positionAt(p, 11)).toBe(0)
    expect(positionAt(p, 15)).toBe(1)
    expect(positionAt(p, 6)).toBe(2) // 2 m/s below range 0, 1 m/s above range 2: the nearest
    expect(positionAt(p, 6.9)).toBe(0) // 1.1 m/s below 0, 1.9 above 2
    expect(positionAt(p, 1)).toBe(2)
    expect(positionAt(p, 25)).toBe(1)
  })

  it('a lower aero CdA never makes the ride slower (monotonic)', () => {
    let last = Infinity
    for (const aero of [0.32, 0.3, 0.28, 0.26, 0.24, 0.22, 0.2]) {
      const r = simulate({
        course,
        rider: { ...base, positions: twoPositions(aero) },
        environment: env,
        pacing,
      })
      expect(r.timeS).toBeLessThanOrEqual(last + 1e-9)
      last = r.timeS
    }
  })
})

describe('positions in the optimizer', () => {
  const settings = { constraint: { type: 'w_prime_balance' as const }, maxTargets: 8 }

  it('identical CdAs give exactly today’s optimization', () => {
    const plain = optimizePacing({ course, rider: base, environment: env, pacing: settings })
    const same = optimizePacing({
      course,
      rider: { ...base, positions: twoPositions(0.3, 0.3) },
      environment: env,
      pacing: settings,
    })
    expect(same.timeS).toBe(plain.timeS)
    expect(Array.from(same.powerW)).toEqual(Array.from(plain.powerW))
    expect(same.positions).toBeUndefined()
  })

  const rider = { ...base, positions: twoPositions(0.24) }
  const r = optimizePacing({ course, rider, environment: env, pacing: settings })

  it('assigns aero on the flats and upright on the climb; the ride is simulated with it', () => {
    expect(r.status).toBe('optimal')
    const a = r.positions!.segment
    expect(a[30]).toBe(0)
    expect(a[110]).toBe(1)
    expect(a[170]).toBe(0)
    // consistent: the reported time is the simulation of the plan with the reported assignment
    const model = prepareModel(course, rider, env)
    const again = simulatePrepared(
      scaleDrag(model, positionDragFactor(rider, a)),
      course,
      rider,
      { type: 'plan', powerW: r.powerW },
      {},
    )
    expect(again.timeS).toBeCloseTo(r.timeS, 9)
    expect(energyBalance(r.simulation!)).toBeLessThan(1e-3)
    expect(r.simulation!.minWPrimeBalanceJ!).toBeGreaterThanOrEqual(-1e-6)
  })

  it('is faster than riding upright everywhere and slower than aero everywhere', () => {
    const upright = optimizePacing({
      course,
      rider: { ...base, cdaM2: 0.32 },
      environment: env,
      pacing: settings,
    })
    const aero = optimizePacing({
      course,
      rider: { ...base, cdaM2: 0.24 },
      environment: env,
      pacing: settings,
    })
    expect(r.timeS).toBeLessThan(upright.timeS)
    expect(r.timeS).toBeGreaterThan(aero.timeS)
  })

  it('a lower aero CdA never makes the optimized ride slower (monotonic)', () => {
    let last = Infinity
    for (const aero of [0.3, 0.27, 0.24, 0.21]) {
      const t = optimizePacing({
        course,
        rider: { ...base, positions: twoPositions(aero) },
        environment: env,
        pacing: settings,
      }).timeS
      // the optimizer's own tolerance (1e-4 relative) bounds what counts as slower
      expect(t).toBeLessThanOrEqual(last * (1 + 1e-4))
      last = t
    }
  })

  it('outputs the position per segment and per plan section', () => {
    const out = pacingOutput(r, course)
    expect(out.positions).toEqual(['aero', 'upright'])
    expect(out.segment_position!.length).toBe(course.n)
    const climb = out.plan.find((s) => s.start_m <= 5500 && s.end_m >= 5500)!
    expect(climb.position).toBe('upright')
    const flat = out.plan.find((s) => s.start_m <= 1000 && s.end_m >= 1000)!
    expect(flat.position).toBe('aero')
    const json = optimizeResultToJson(r, course, null)
    expect((json.plan as { position: string }[]).map((s) => s.position)).toEqual(
      out.plan.map((s) => s.position),
    )
    expect(json.segment_position).toEqual(out.segment_position)
  })

  it('equipment: every combination rides the positions; a −0.01 m² helmet ranks faster', () => {
    const eq = optimizeEquipment({
      course,
      rider,
      environment: env,
      pacing: settings,
      equipment: {
        groups: { helmet: [{ name: 'road' }, { name: 'aero', cdaDeltaM2: -0.01 }] },
      },
    })
    expect(eq.ranking[0]!.choices.helmet).toBe('aero')
    // the ranking compares the combinations' per-segment optima, run without the rideable plan
    // (only the winner's is built); the plain run's plan refit can improve its optimum a little,
    // within the optimizer's own tolerance (1e-4 relative)
    expect(Math.abs(eq.baseline.timeS - r.timeS)).toBeLessThanOrEqual(1e-4 * r.timeS)
    expect(eq.best.positions!.segment[110]).toBe(1)
  })
})

describe('positions in the scenario', () => {
  const json = (positions: unknown) => ({
    course: { segments: [{ length_m: 1000, grade: 0 }] },
    rider: { ...riderJson, positions },
    environment: { air_density_kg_m3: 1.2 },
    constraint: { type: 'w_prime_balance' },
  })
  const riderJson = {
    mass_kg: 72,
    bike_mass_kg: 8,
    cda_m2: 0.3,
    crr: 0.004,
    drivetrain_efficiency: 0.976,
    cp_w: 300,
    w_prime_j: 20000,
    max_power_w: 900,
  }

  it('parses rider.positions', () => {
    const p = parseOptimizeScenario(
      json([{ name: 'aero', cda_m2: 0.25, min_speed_mps: 7, max_speed_mps: 20 }]),
    )
    expect(p.input.rider.positions).toEqual([
      { name: 'aero', cdaM2: 0.25, minSpeedMps: 7, maxSpeedMps: 20 },
    ])
  })

  it.each([
    [[{ cda_m2: -0.1 }], /rider\.positions\[0\]\.cda_m2.*got -0\.1/],
    [
      [{ cda_m2: 0.3, min_speed_mps: 9, max_speed_mps: 5 }],
      /positions\[0\]\.max_speed_mps.*\(9\), got 5/,
    ],
    [[{ cda: 0.3 }], /rider\.positions\[0\]\.cda/],
    [[], /rider\.positions: expected 1 to 8 positions/],
  ])('refuses bad positions naming the field and the value (%#)', (positions, message) => {
    expect(() => parseOptimizeScenario(json(positions))).toThrow(message)
  })
})
