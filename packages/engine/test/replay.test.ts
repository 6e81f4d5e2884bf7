// Replaying a recording: samples → power and moving/stationary time per segment,
// and a replay that never stalls. Independent truth: recordings made by the simulator itself
// (replaying them must give back their own times, at any segment resolution), time conservation,
// and hand-made stops.
import { describe, expect, it } from 'vitest'
import {
  courseFromSegments,
  parseScenario,
  recordedSegments,
  replayRecorded,
  resultToJson,
  SEGMENT_PINNED,
  simulate,
} from '../src/index.ts'
import type { Course, RecordedSamples, Rider, SimulationResult } from '../src/index.ts'
import { randomCourse, rng } from './random.ts'
import { roadRider } from './fixtures.ts'

const rider: Rider = { ...roadRider, massKg: 72, cdaM2: 0.3, crr: 0.005 }
const environment = { airDensityKgM3: 1.2 }

/** 1 Hz samples of a simulated ride: distance interpolated at each segment's mean speed. */
function sampleRide(course: Course, sim: SimulationResult): RecordedSamples {
  const s = sim.segments
  const d: number[] = [0]
  const t: number[] = [0]
  const p: number[] = [s.power[0]!]
  let i = 0
  for (let time = 1; time < s.time[s.count - 1]!; time++) {
    while (s.time[i]! < time) i++
    const t0 = i === 0 ? 0 : s.time[i - 1]!
    d.push(course.start[i]! + ((time - t0) / s.duration[i]!) * course.length[i]!)
    t.push(time)
    p.push(s.power[i]!)
  }
  d.push(course.start[course.n]!)
  t.push(s.time[s.count - 1]!)
  p.push(s.power[s.count - 1]!)
  return { distanceM: d, timeS: t, powerW: p }
}

/** The same road cut into segments `k` times shorter. */
function finer(c: Course, k: number): Course {
  const segs = []
  for (let i = 0; i < c.n; i++) {
    for (let j = 0; j < k; j++) {
      segs.push({
        lengthM: c.length[i]! / k,
        grade: c.grade[i]!,
        headingDeg: (c.heading[i]! * 180) / Math.PI,
        radiusM: c.radius[i]!,
      })
    }
  }
  return courseFromSegments(segs, c.altitude[0]!)
}

/** Growable sample columns. */
function samples() {
  const d: number[] = []
  const t: number[] = []
  const p: number[] = []
  const add = (dm: number, ts: number, pw: number): void => {
    d.push(dm)
    t.push(ts)
    p.push(pw)
  }
  return { d, t, p, add }
}

describe('recordedSegments', () => {
  it('a segment-aligned recording maps back to its own power and times exactly', () => {
    const course = randomCourse(3, 120)
    const r = rng(3)
    const plan = Array.from({ length: course.n }, () => 150 + 200 * r())
    const sim = simulate({ course, rider, environment, pacing: { type: 'plan', powerW: plan } })
    expect(sim.status).toBe('ok')
    const samples = {
      distanceM: Array.from(course.start),
      timeS: [0, ...Array.from(sim.segments.time)],
      powerW: [0, ...Array.from(sim.segments.power)],
    }
    const rec = recordedSegments(course, samples)
    for (let i = 0; i < course.n; i++) {
      expect(rec.movingTimeS[i]).toBeCloseTo(sim.segments.duration[i]!, 9)
      expect(rec.powerW[i]).toBeCloseTo(sim.segments.power[i]!, 9)
      expect(rec.stationaryTimeS[i]).toBe(0)
    }
  })

  it('conserves time: moving + stationary = the samples’ time span; a stop is stationary', () => {
    const course = courseFromSegments(
      Array.from({ length: 100 }, () => ({ lengthM: 10, grade: 0 })),
    )
    // 5 m/s for 100 s, stopped 60 s at 500 m (GPS jitter of a few cm), then 5 m/s to the end.
    const { d, t, p, add } = samples()
    for (let k = 0; k <= 100; k++) add(5 * k, k, 180)
    for (let k = 1; k <= 60; k++) add(500 + 0.02 * (k % 3), 100 + k, 0)
    for (let k = 1; k <= 100; k++) add(500 + 5 * k, 160 + k, 200)
    const rec = recordedSegments(course, { distanceM: d, timeS: t, powerW: p })
    const moving = rec.movingTimeS.reduce((a, b) => a + b, 0)
    const stopped = rec.stationaryTimeS.reduce((a, b) => a + b, 0)
    expect(moving + stopped).toBeCloseTo(260, 9)
    expect(stopped).toBeCloseTo(60, 9)
    expect(rec.stationaryTimeS[49]! + rec.stationaryTimeS[50]!).toBeCloseTo(60, 9)
    expect(rec.powerW[10]).toBeCloseTo(180, 9)
    expect(rec.powerW[90]).toBeCloseTo(200, 9)
  })
})

describe('replayRecorded', () => {
  for (const seed of [1, 2, 5]) {
    for (const k of [1, 2, 5]) {
      it(`seed ${seed}: a simulated 1 Hz recording replays to its own moving time (±0.5 %) on segments ${k}× finer`, () => {
        const course = randomCourse(seed, 150)
        const r = rng(seed)
        const plan = Array.from({ length: course.n }, () => 180 + 150 * r())
        const sim = simulate({ course, rider, environment, pacing: { type: 'plan', powerW: plan } })
        expect(sim.status).toBe('ok')
        const fine = finer(course, k)
        const rec = recordedSegments(fine, sampleRide(course, sim))
        const rep = replayRecorded({ course: fine, recorded: rec, rider, environment })
        expect(rep.simulation.status).toBe('ok')
        expect(rep.recordedMovingTimeS).toBeCloseTo(sim.timeS, 6)
        expect(Math.abs(rep.errorPct)).toBeLessThan(0.5)
        expect(rep.stationaryTimeS).toBe(0)
        // Per km: every kilometre present, and their sums are the totals.
        expect(rep.perKm.length).toBe(Math.ceil(course.start[course.n]! / 1000))
        const sum = (f: (x: (typeof rep.perKm)[0]) => number) =>
          rep.perKm.reduce((a, x) => a + f(x), 0)
        expect(sum((x) => x.predictedS)).toBeCloseTo(rep.predictedMovingTimeS, 6)
        expect(sum((x) => x.recordedS)).toBeCloseTo(rep.recordedMovingTimeS, 6)
      })
    }
  }

  it('never stalls: zero power from a standstill and a stop mid-ride are ridden as recorded', () => {
    // 200 m of +8 % where the recording shows 0 W at 2 m/s (walking the bike), then flat.
    const course = courseFromSegments([
      ...Array.from({ length: 20 }, () => ({ lengthM: 10, grade: 0.08 })),
      ...Array.from({ length: 80 }, () => ({ lengthM: 10, grade: 0 })),
    ])
    const { d, t, p, add } = samples()
    for (let k = 0; k <= 100; k++) add(2 * k, k, 0)
    for (let k = 1; k <= 30; k++) add(200, 100 + k, 0) // a 30 s stop
    for (let k = 1; k <= 100; k++) add(200 + 8 * k, 130 + k, 250)
    const rec = recordedSegments(course, { distanceM: d, timeS: t, powerW: p })
    // The plain per-segment plan stalls at the start: the problem this replay solves.
    const plain = simulate({
      course,
      rider,
      environment,
      pacing: { type: 'plan', powerW: rec.powerW },
    })
    expect(plain.status).toBe('stalled')
    expect(plain.stalledAtM).toBe(0)
    const rep = replayRecorded({ course, recorded: rec, rider, environment })
    expect(rep.simulation.status).toBe('ok')
    expect(rep.simulation.segments.count).toBe(course.n)
    expect(rep.stationaryTimeS).toBeCloseTo(30, 9)
    expect(rep.recordedMovingTimeS).toBeCloseTo(200, 9)
    // The walked climb is pinned to the recording (100 s); the flat is modelled.
    for (let i = 0; i < 20; i++) expect(rep.simulation.segments.capped[i]).toBe(SEGMENT_PINNED)
    expect(rep.pinnedTimeS).toBeGreaterThanOrEqual(100 - 1e-9)
    expect(rep.pinnedDistanceM).toBeGreaterThanOrEqual(200 - 1e-9)
    expect(rep.perKm[0]!.recordedS).toBeCloseTo(200, 9)
    for (let i = 0; i < course.n; i++)
      expect(Number.isFinite(rep.simulation.segments.duration[i]!)).toBe(true)
  })

  it('1 W from a standstill after a stop is no crawl: the segment is ridden at the recorded speed', () => {
    const course = courseFromSegments(
      Array.from({ length: 60 }, () => ({ lengthM: 10, grade: 0.01 })),
    )
    const { d, t, p, add } = samples()
    for (let k = 0; k <= 50; k++) add(6 * k, k, 250)
    for (let k = 1; k <= 20; k++) add(299.99, 50 + k, 0) // stopped at the end of segment 29
    add(310, 75, 1) // rolls away with (almost) no power: 10 m in 4 s
    for (let k = 1; k <= 48; k++) add(310 + 6 * k, 75 + k, 250)
    const rec = recordedSegments(course, { distanceM: d, timeS: t, powerW: p })
    const rep = replayRecorded({ course, recorded: rec, rider, environment })
    const s = rep.simulation.segments
    expect(rec.stationaryTimeS[29]).toBeCloseTo(20, 9)
    expect(rec.stationaryTimeS[30]).toBe(0)
    expect(s.exitSpeed[29]).toBe(0)
    expect(s.capped[30]).toBe(SEGMENT_PINNED)
    expect(s.duration[30]).toBeCloseTo(rec.movingTimeS[30]!, 9)
    expect(s.speed[30]).toBeGreaterThanOrEqual(1)
  })
})

describe('scenario: pacing {type: "recorded"}', () => {
  const course = randomCourse(9, 80)
  const sim = simulate({ course, rider, environment, pacing: { type: 'constant', powerW: 250 } })
  const recorded = recordedSegments(course, sampleRide(course, sim))
  const json = {
    course: { file: 'ride.fit' },
    rider: { mass_kg: 72, bike_mass_kg: 8, cda_m2: 0.3, crr: 0.005, drivetrain_efficiency: 0.976 },
    environment: { air_density_kg_m3: 1.2 },
    pacing: { type: 'recorded' },
  }

  it('replays the file’s power and reports predicted vs recorded time per km', () => {
    const { input } = parseScenario(json, () => ({ course, recorded }))
    const out = resultToJson(simulate(input), course) as {
      status: string
      replay: { error_pct: number; per_km: { recorded_s: number; predicted_s: number }[] }
    }
    expect(out.status).toBe('ok')
    expect(Math.abs(out.replay.error_pct)).toBeLessThan(0.5)
    expect(out.replay.per_km.length).toBe(Math.ceil(course.start[course.n]! / 1000))
  })

  it('a file without power is refused naming the field and the file', () => {
    expect(() => parseScenario(json, () => course)).toThrow(
      /pacing\.type: expected a course file that records power for "recorded", got "ride\.fit" without power/,
    )
  })
})
