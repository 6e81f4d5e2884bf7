import { describe, expect, it } from 'vitest'
import { analyzeAero } from './analyze.ts'
import { detectRuns, detectRunsAndSkipped } from './runs.ts'
import { syntheticRide } from './synthetic-ride.ts'

describe('detectRuns', () => {
  it('finds repeated loops by position (gate crossings) when the file has no laps', () => {
    const ride = syntheticRide({
      cda: 0.25,
      crr: 0.004,
      massKg: 80,
      laps: 5,
      lengthM: 2500,
      gpsNoiseM: 1.5,
      seed: 1,
    })
    const runs = detectRuns(ride.samples)
    // The gate is 100 m after the start: 5 laps give 4 complete loops.
    expect(runs).toHaveLength(4)
    expect(runs.every((r) => r.source === 'loop')).toBe(true)
    // Each loop is one lap long: its distance matches the loop's perimeter within 30 m.
    const d = ride.samples.distance!
    const t = ride.samples.t
    for (const r of runs) {
      const a = t.indexOf(r.startT!)
      const b = t.indexOf(r.endT!)
      expect(Math.abs(d[b]! - d[a]! - 2500)).toBeLessThan(30)
    }
  })

  it('pairs out-and-back legs into round trips, trimming 60 m at each turnaround so each closes', () => {
    const ride = syntheticRide({
      cda: 0.3,
      crr: 0.005,
      massKg: 85,
      shape: 'out_and_back',
      lengthM: 2000,
      laps: 6,
      gpsNoiseM: 1.5,
      seed: 4,
    })
    const runs = detectRuns(ride.samples)
    expect(runs).toHaveLength(3)
    const d = ride.samples.distance!
    const t = ride.samples.t
    for (const r of runs) {
      expect(r.source).toBe('out_and_back')
      expect(r.pieces).toHaveLength(2)
      const [out, back] = r.pieces!
      const i = (x: number) => t.indexOf(x)
      // The turnaround lies between the legs, and each leg is ~2000 − 2·60 m.
      const turnD = d[i(out![1])]! + (d[i(back![0])]! - d[i(out![1])]!) / 2
      expect(Math.abs((turnD % 4000) - 2000)).toBeLessThan(15)
      expect(Math.abs(d[i(out![1])]! - d[i(out![0])]! - 1880)).toBeLessThan(25)
      expect(Math.abs(d[i(back![1])]! - d[i(back![0])]! - 1880)).toBeLessThan(25)
    }
  })

  it('uses recorded laps (three or more) first', () => {
    const ride = syntheticRide({
      cda: 0.25,
      crr: 0.004,
      massKg: 80,
      laps: 4,
      recordLaps: true,
      seed: 2,
    })
    const runs = detectRuns(ride.samples)
    expect(runs.map((r) => r.lap)).toEqual([0, 1, 2, 3])
    expect(runs.every((r) => r.source === 'lap')).toBe(true)
  })

  it('without GPS and laps: the whole file, from the first to the last moving sample', () => {
    const ride = syntheticRide({ cda: 0.25, crr: 0.004, massKg: 80, laps: 2, noGps: true, seed: 2 })
    const runs = detectRuns(ride.samples)
    expect(runs).toEqual([
      {
        startT: 0,
        endT: ride.samples.t[ride.samples.t.length - 1],
        source: 'whole',
        label: 'whole file',
      },
    ])
  })
})

describe('laps sorted into test laps and the rest', () => {
  // Efforts at 320 and 180 W (the slow efforts of a Crr protocol), a recovery at 70 W, a
  // coast-down, all a lap of a 2 km loop each.
  const ride = syntheticRide({
    cda: 0.25,
    crr: 0.004,
    massKg: 80,
    laps: 7,
    lengthM: 2000,
    lapPowerW: [320, 180, 70, 320, 0, 180, 320],
    recordLaps: true,
    seed: 3,
  })

  it('keeps the efforts, fast and slow, and skips the recovery and the coast-down with the reason', () => {
    const { runs, skipped } = detectRunsAndSkipped(ride.samples)
    expect(runs.map((r) => r.lap)).toEqual([0, 1, 3, 5, 6])
    expect(skipped.map((l) => [l.lap, l.kind])).toEqual([
      [2, 'recovery'],
      [4, 'recovery'],
    ])
    expect(skipped[0]!.reason).toMatch(/^recovery: \d+ W pedalling at [\d.]+ km\/h, under 40 %/)
    expect(skipped[1]!.reason).toMatch(/^coasting: pedalled for 0 % of the lap/)
    expect(detectRuns(ride.samples)).toEqual(runs)
  })

  it('analyzeAero reports the skipped laps and fits only the efforts', () => {
    const a = analyzeAero(ride.samples, { massKg: 80, airDensity: 1.2 })
    expect(a.runs.map((r) => r.label)).toEqual(['lap 1', 'lap 2', 'lap 4', 'lap 6', 'lap 7'])
    expect(a.skippedLaps.map((l) => l.lap)).toEqual([2, 4])
    for (const r of a.runs) expect(Math.abs(r.cda - 0.25)).toBeLessThan(0.01)
  })
})
