import { describe, expect, it } from 'vitest'
import { EngineInputError } from '../sim/validate.ts'
import { analyzeAero } from './analyze.ts'
import { syntheticRide } from './synthetic-ride.ts'
import type { ActivitySamples, AeroAnalysisInput } from './types.ts'

const ride = () =>
  syntheticRide({
    cda: 0.27,
    crr: 0.0045,
    massKg: 78,
    rho: 1.19,
    laps: 4,
    lengthM: 2000,
    lapPowerW: [170, 290],
    recordLaps: true,
    powerNoise: 0.01,
    speedNoise: 0.03,
    gpsNoiseM: 1,
    elevationNoiseM: 0.1,
    elevationWhiteM: 0.05,
    seed: 41,
  }).samples

function fieldOf(f: () => unknown): string {
  try {
    f()
  } catch (e) {
    expect(e).toBeInstanceOf(EngineInputError)
    return (e as EngineInputError).field
  }
  throw new Error('no error thrown')
}

describe('analyzeAero', () => {
  it('gives every detected lap a VE CdA with an interval, the shared Crr, and no comparison without other configurations', () => {
    const a = analyzeAero(ride(), { massKg: 78, airDensity: 1.19 })
    expect(a.runs).toHaveLength(4)
    for (const r of a.runs) {
      expect(r.method).toBe('ve')
      expect(r.source).toBe('lap')
      expect(Math.abs(r.cda - 0.27)).toBeLessThan(0.01)
      expect(r.cdaCi95[0]).toBeLessThan(r.cda)
      expect(r.cdaCi95[1]).toBeGreaterThan(r.cda)
      expect(r.crr).toBe(a.crr)
      expect(r.veRmseM).toBeLessThan(0.5)
      expect(r.samplesUsed).toBeGreaterThan(100)
    }
    expect(Math.abs(a.crr - 0.0045)).toBeLessThan(0.0008)
    expect(a.comparison!.configurations).toEqual([])
    expect(a.windows).toEqual([])
  })

  it('analyses time-range runs with labels and configurations, in time order', () => {
    const s = ride()
    const end = s.t[s.t.length - 1]!
    const a = analyzeAero(s, {
      massKg: 78,
      airDensity: 1.19,
      runs: [
        { startT: end / 2, endT: end, label: 'second half', configuration: 'A' },
        { startT: 0, endT: end / 2, label: 'first half', configuration: 'A' },
      ],
    })
    expect(a.runs.map((r) => r.label)).toEqual(['first half', 'second half'])
    expect(a.runs.every((r) => r.source === 'time_range' && r.configuration === 'A')).toBe(true)
  })

  it('survives zero-speed samples and NaN gaps (stops break the trace, no NaN in the results)', () => {
    const s = ride()
    for (let i = 300; i < 330; i++) s.speed[i] = 0
    for (let i = 600; i < 605; i++) {
      s.power[i] = NaN
      s.altitude![i] = NaN
    }
    const a = analyzeAero(s, { massKg: 78, airDensity: 1.19 })
    for (const r of a.runs) {
      expect(Number.isFinite(r.cda)).toBe(true)
      expect(Number.isFinite(r.cdaCi95[0]) && Number.isFinite(r.cdaCi95[1])).toBe(true)
    }
  })

  it('answers bad input with EngineInputError naming the field', () => {
    const s = ride()
    const ok: AeroAnalysisInput = { massKg: 78 }
    expect(fieldOf(() => analyzeAero(s, { ...ok, massKg: -1 }))).toBe('massKg')
    expect(fieldOf(() => analyzeAero(s, { ...ok, crr: 0.5 }))).toBe('crr')
    expect(fieldOf(() => analyzeAero(s, { ...ok, drivetrainEfficiency: 0 }))).toBe(
      'drivetrainEfficiency',
    )
    expect(fieldOf(() => analyzeAero(s, { ...ok, method: 'magic' as 've' }))).toBe('method')
    expect(fieldOf(() => analyzeAero(s, { ...ok, method: 'direct' }))).toBe('method')
    expect(fieldOf(() => analyzeAero(s, { ...ok, runs: [{ startT: 10, endT: 5 }] }))).toBe(
      'runs[0].endT',
    )
    expect(
      fieldOf(() => analyzeAero(s, { ...ok, environment: { temperatureC: 20, pressurePa: 1013 } })),
    ).toBe('environment.pressurePa')
    expect(fieldOf(() => analyzeAero(s, { ...ok, calibrationFactor: 0 }))).toBe('calibrationFactor')
    const noPower: ActivitySamples = { ...s, power: new Float64Array(s.t.length) }
    expect(fieldOf(() => analyzeAero(noPower, ok))).toBe('samples.power')
    const short: ActivitySamples = { ...s, speed: s.speed.subarray(1) }
    expect(fieldOf(() => analyzeAero(short, ok))).toBe('samples.speed')
    const t = Float64Array.from(s.t)
    t[10] = t[9]!
    expect(fieldOf(() => analyzeAero({ ...s, t }, ok))).toBe('samples.t[10]')
    expect(() => analyzeAero(s, { ...ok, massKg: -1 })).toThrow(/massKg: expected a number/)
  })

  it('is deterministic', () => {
    const a = analyzeAero(ride(), { massKg: 78 })
    const b = analyzeAero(ride(), { massKg: 78 })
    expect(JSON.stringify(a)).toBe(JSON.stringify(b))
  })
})

describe('analyzeAero: samples, not runs, are left out', () => {
  it('counts braking samples per run, leaves them out of the fit, and flags a run only when too little remains', () => {
    const s = ride()
    // Lap 2: a hard braking of 6 s (0 W, −1.2 m/s per second) that the rider then rides out of.
    let at = 0
    while (s.lap[at] !== 1) at++
    at += 60
    for (let k = 0; k < 6; k++) {
      s.power[at + k] = 0
      s.speed[at + k] = s.speed[at + k - 1]! - 1.2
    }
    const a = analyzeAero(s, { massKg: 78, airDensity: 1.19 })
    const lap2 = a.runs[1]!
    // The six braking seconds and the second either side (part of it may be braking).
    expect(lap2.excludedSamples.braking).toBe(8)
    // The chart's per-sample reasons: the same eight seconds, braking, and nothing else there.
    const reasons = Array.from(a.veExcluded.subarray(at - 3, at + 9))
    expect(reasons).toEqual([0, 0, 2, 2, 2, 2, 2, 2, 2, 2, 0, 0])
    expect(lap2.flags).not.toContain('braking')
    expect(lap2.flags).not.toContain('too_little_left')
    for (const r of [a.runs[0]!, a.runs[2]!, a.runs[3]!]) expect(r.excludedSamples.braking).toBe(0)
    // A run that is mostly the braking: too little left, flagged.
    const t0 = s.t[at - 2]!
    const b = analyzeAero(s, {
      massKg: 78,
      airDensity: 1.19,
      crr: 0.0045,
      runs: [
        { startT: t0, endT: s.t[at + 5]!, configuration: 'A' },
        { lap: 0, configuration: 'A' },
      ],
    })
    const short = b.runs.find((r) => r.startT === t0)!
    // It ends with the braking: the six seconds and the one before them.
    expect(short.excludedSamples.braking).toBe(7)
    expect(short.flags).toContain('too_little_left')
  })
})
