// The VE chart's left-out samples (ve.ts `leftOutOf`): the bands it shades and the seconds the
// line under it gives per reason, on a made-up run and on the engine's analysis of a synthetic
// out-and-back field test whose rider brakes only at the turns (synthetic-ride.ts).
import { describe, expect, it } from 'vitest'
import { analyzeAero } from '@veloptima/engine'
import { syntheticSession } from '../../../../../packages/engine/src/aero/synthetic-ride.ts'
import { leftOutOf, type RunSeriesJson } from './ve.ts'

/** A 1 Hz run of `excluded.length` points (a gap of `gapS` before point `gapAt`, if any). */
function run(excluded: number[] | undefined, gap?: { at: number; s: number }): RunSeriesJson {
  const n = excluded?.length ?? 10
  const t: number[] = []
  for (let i = 0; i < n; i++) t.push(i + (gap && i >= gap.at ? gap.s - 1 : 0))
  const zeros = t.map(() => 0)
  return {
    t,
    dt: t.map((x, i) => (i === 0 ? 0 : x - t[i - 1]!)),
    speed: zeros,
    power: zeros,
    rho: zeros,
    elevation: null,
    heading: zeros,
    valid: zeros,
    ...(excluded ? { excluded } : {}),
  }
}

describe('leftOutOf: the samples the fit left out, by reason', () => {
  it('a block without reasons is unknown: nothing drawn', () => {
    expect(leftOutOf(run(undefined))).toBeNull()
    // Reasons that do not match the points are not drawn either.
    expect(leftOutOf({ ...run([0, 2, 0]), excluded: [0, 2] })).toBeNull()
  })

  it('a stretch per reason, from the point before it to its last point; seconds are its dt', () => {
    //                           0  1  2  3  4  5  6  7  8  9
    const l = leftOutOf(run([0, 0, 2, 2, 0, 1, 1, 0, 3, 0]))!
    expect(l.bands).toEqual([
      { from: 1, to: 3, reason: 'braking' },
      { from: 4, to: 6, reason: 'stop' },
      { from: 7, to: 8, reason: 'freewheel' },
    ])
    expect(l.seconds).toEqual({ braking: 2, stop: 2, freewheel: 1 })
    // Nothing left out: no band, no second.
    expect(leftOutOf(run([0, 0, 0]))).toEqual({
      bands: [],
      seconds: { braking: 0, stop: 0, freewheel: 0 },
    })
  })

  it('a gap in the recording counts its time; a first point left out has no time before it', () => {
    // 40 s without samples before point 5 (t = 4 → 44), which the fit leaves out as a stop.
    const l = leftOutOf(run([1, 0, 0, 0, 0, 1, 0, 0], { at: 5, s: 40 }))!
    expect(l.bands).toEqual([
      { from: 0, to: 0, reason: 'stop' },
      { from: 4, to: 44, reason: 'stop' },
    ])
    expect(l.seconds.stop).toBe(40)
  })

  it("the engine's field test: braking at each turn of the run, as long as the run counts", () => {
    const { ride, runs } = syntheticSession(5, -0.005)
    const a = analyzeAero(ride.samples, { massKg: 80, airDensity: 1.2, runs, baseline: 'B' })
    const r = a.runs[1]!
    const ve = a.veSeries
    const i0 = ve.t.findIndex((x) => x >= r.startT)
    const i1 = ve.t.findIndex((x) => x > r.endT)
    // The block as the job stores it at full rate (apps/api jobs/aero/run-series.ts).
    const json: RunSeriesJson = {
      ...run(Array.from(a.veExcluded.subarray(i0, i1))),
      t: Array.from(ve.t.subarray(i0, i1), (x) => x - ve.t[i0]!),
      dt: Array.from(ve.dt.subarray(i0, i1), (x, j) => (j === 0 ? 0 : x)),
    }
    const l = leftOutOf(json)!
    // The ride is at 1 Hz: one second per braking sample the run counts but its first (the run
    // starts at a turn, still braking: no time of the run before it); no stop.
    expect(r.excludedSamples.braking).toBeGreaterThan(0)
    const first = json.excluded![0] === 2 ? 1 : 0
    expect(l.seconds.braking).toBeCloseTo(r.excludedSamples.braking - first, 6)
    expect(l.seconds.stop).toBe(0)
    // One band at each turn of the run (a leg's end; the run ends braking into the next one),
    // ending within 3 s after it (or at the run's end).
    const end = json.t[json.t.length - 1]!
    const turns = ride.lapStarts
      .filter((s) => s >= i0 && s < i1 + 12)
      .map((s) => ve.t[s]! - ve.t[i0]!)
    expect(turns.length).toBeGreaterThan(1)
    expect(l.bands.map((b) => b.reason)).toEqual(turns.map(() => 'braking'))
    l.bands.forEach((b, k) => {
      expect(b.to).toBeGreaterThanOrEqual(Math.min(turns[k]!, end))
      expect(b.to).toBeLessThanOrEqual(turns[k]! + 3)
      expect(b.to - b.from).toBeLessThan(15)
    })
  })
})
