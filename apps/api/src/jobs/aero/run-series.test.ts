// The VE chart's reason per point (why the fit left it out): on a synthetic out-and-back field
// test whose rider brakes only at the turns (packages/engine synthetic-ride.ts) and, in the long
// ride, stops once for half a minute, the points marked braking are the turns' and the stop's
// are the stop's, every sample (k = 1) or bucket (k > 1) of them; a bucket takes the reason most
// of its left-out samples have.
import { describe, expect, it } from 'vitest'
import { analyzeAero, VE_EXCLUDED, type VeSeries } from '@veloptima/engine'
import {
  syntheticRide,
  syntheticSession,
} from '../../../../../packages/engine/src/aero/synthetic-ride.ts'
import { seriesOf } from './run-series.ts'

/**
 * Whether sample i is within `s` samples before a turn (a leg's end, where the rider brakes) or
 * the 3 after it (the turn itself, ridden slowly).
 */
const nearTurn = (lapStarts: number[], i: number, s: number) =>
  lapStarts.some((turn) => turn > 0 && i <= turn + 3 && i >= turn - s)

describe('seriesOf: why the fit left each point out', () => {
  it('at full rate (k = 1), the braking samples of a run: at its turns, as many as the run counts', () => {
    const { ride, runs } = syntheticSession(3, -0.005)
    const a = analyzeAero(ride.samples, { massKg: 80, airDensity: 1.2, runs, baseline: 'B' })
    const run = a.runs[2]!
    const t = a.veSeries.t
    const i0 = t.findIndex((x) => x >= run.startT)
    const i1 = t.findIndex((x) => x > run.endT)
    const { series, k } = seriesOf(a.veSeries, a.veResiduals, a.veExcluded, run.veSegments, i0, i1)
    expect(k).toBe(1)
    expect(series.excluded).toHaveLength(series.t.length)
    const braking = series.excluded.flatMap((c, j) => (c === VE_EXCLUDED.braking ? [i0 + j] : []))
    // The run's own count (run-report.ts), and only braking: the rider never stops.
    expect(braking).toHaveLength(run.excludedSamples.braking)
    expect(run.excludedSamples.braking).toBeGreaterThan(0)
    expect(series.excluded.every((c) => c === 0 || c === VE_EXCLUDED.braking)).toBe(true)
    // Braking down to 3 m/s at 2.5 m/s² takes a few seconds before each turn; nowhere else.
    for (const i of braking) expect(nearTurn(ride.lapStarts, i, 12)).toBe(true)
    const turns = ride.lapStarts.filter((s) => s > i0 + 12 && s < i1)
    for (const turn of turns) expect(braking.some((i) => i <= turn && i >= turn - 12)).toBe(true)
  })

  it('bucketed (k = 2), a long ride with a stop: the turns braking, the stop stopped, the rest used', () => {
    // Twenty round trips of the synthetic session's road: longer than the chart's 4000 points.
    const ride = syntheticRide({
      cda: 0.25,
      crr: 0.004,
      massKg: 80,
      rho: 1.2,
      windMps: 2,
      windFromDeg: 200,
      shape: 'out_and_back',
      lengthM: 1500,
      hillM: 5,
      laps: 40,
      lapPowerW: [170, 170, 310, 310],
      recordLaps: true,
      powerNoise: 0.015,
      speedNoise: 0.05,
      gpsNoiseM: 1.5,
      turnSpeedMps: 3,
      brakeDecelMps2: 2.5,
      seed: 11,
    })
    const s = ride.samples
    // A 30 s stop (standing still, no power) in the middle of the eleventh leg.
    const stop = Math.round((ride.lapStarts[10]! + ride.lapStarts[11]!) / 2)
    for (let i = stop; i < stop + 30; i++) {
      s.speed[i] = 0
      s.power[i] = 0
    }
    const a = analyzeAero(s, { massKg: 80, airDensity: 1.2 })
    const n = a.veSeries.n
    const { series, k } = seriesOf(a.veSeries, a.veResiduals, a.veExcluded, [], 0, n)
    expect(k).toBe(2)
    expect(series.excluded).toHaveLength(Math.ceil(n / 2))
    series.excluded.forEach((c, p) => {
      const first = p * k
      const inStop = first + 1 >= stop && first <= stop + 29
      if (inStop) expect(c).toBe(VE_EXCLUDED.stop)
      else if (c !== 0) {
        // Left out only at a turn (or slowing into or leaving the stop).
        expect(nearTurn(ride.lapStarts, first, 14) || Math.abs(first - stop) <= 14).toBe(true)
      }
      // Non-zero exactly when one of the bucket's samples was left out.
      const any = Array.from(a.veExcluded.subarray(first, first + k)).some((x) => x > 0)
      expect(c > 0).toBe(any)
    })
    // Every turn shows braking on the chart.
    for (const turn of ride.lapStarts.slice(1)) {
      const near = series.excluded.slice(Math.floor((turn - 12) / k), Math.floor(turn / k) + 1)
      expect(near).toContain(VE_EXCLUDED.braking)
    }
    // No point is marked freewheeling on a road.
    expect(series.excluded).not.toContain(VE_EXCLUDED.freewheel)
  })

  it('a bucket takes its most frequent reason (stopped before braking before freewheeling on a tie)', () => {
    const n = 12_001 // 4 samples a point
    const fill = (x: number) => new Float64Array(n).fill(x)
    const ve: VeSeries = {
      n,
      t: Float64Array.from({ length: n }, (_, i) => i),
      dt: Float64Array.from({ length: n }, (_, i) => (i === 0 ? 0 : 1)),
      speed: fill(10),
      power: fill(200),
      rho: fill(1.2),
      elevation: fill(100),
      heading: fill(0),
      airspeed: null,
      valid: new Uint8Array(n).fill(1),
    }
    const buckets = [
      [2, 1, 2, 0],
      [1, 1, 2, 0],
      [0, 3, 0, 0],
      [1, 2, 0, 0],
      [0, 0, 0, 0],
      [3, 3, 2, 2],
      [0, 0, 0, 2],
    ]
    const excluded = new Uint8Array(n)
    excluded.set(buckets.flat(), 40)
    const { series, k } = seriesOf(ve, new Float64Array(n), excluded, [], 0, n)
    expect(k).toBe(4)
    expect(series.excluded.slice(10, 10 + buckets.length)).toEqual([2, 1, 3, 1, 0, 2, 2])
    expect(series.excluded.filter((c) => c > 0)).toHaveLength(6)
  })
})
