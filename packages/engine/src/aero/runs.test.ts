import { describe, expect, it } from 'vitest'
import { detectRuns } from './runs.ts'
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
