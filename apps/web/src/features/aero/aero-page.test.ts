// The session page's own arithmetic: the add-run dialog's clock and lap numbering (the job
// numbers a file's laps after the earlier files' laps), and the VE trace the sliders draw.
import { describe, expect, it } from 'vitest'
import type { AeroSourceFile } from '@veloptima/contracts'
import { lapOptions, parseClock } from './add-run-dialog.tsx'
import { veParamsOf, veSeriesOf, veTrace, type RunParamsJson, type RunSeriesJson } from './ve.ts'
import { stillAirParams } from './ve-fixtures.ts'

const file = (name: string, laps: number) => ({ name, laps }) as AeroSourceFile

describe('add-run dialog', () => {
  it('reads m:ss, h:mm:ss and seconds; refuses the rest', () => {
    expect(parseClock('2:30')).toBe(150)
    expect(parseClock('1:02:03')).toBe(3723)
    expect(parseClock('95.5')).toBe(95.5)
    expect(parseClock('1:-2')).toBeNaN()
    expect(parseClock('')).toBeNaN()
  })

  it('numbers laps across files as the analysis merges them (a file without laps counts one)', () => {
    const options = lapOptions([file('a.fit', 2), file('b.tcx', 0), file('c.fit', 3)])
    expect(options.map((o) => o.value)).toEqual([0, 1, 3, 4, 5])
    expect(options[2]!.label).toBe('c.fit · lap 1')
  })
})

describe('VE trace of the sliders', () => {
  // A made-up run: 600 s at 1 Hz on a road that climbs and falls 5 m, steady 10 m/s.
  const n = 600
  const series: RunSeriesJson = {
    t: Array.from({ length: n }, (_, i) => i),
    dt: Array.from({ length: n }, (_, i) => (i === 0 ? 0 : 1)),
    speed: Array.from({ length: n }, () => 10),
    power: Array.from({ length: n }, (_, i) => 220 + 60 * Math.sin(i / 50)),
    rho: Array.from({ length: n }, () => 1.2),
    elevation: Array.from({ length: n }, (_, i) => 100 + 5 * Math.sin(i / 80)),
    heading: Array.from({ length: n }, () => 0),
    valid: Array.from({ length: n }, () => 1),
  }
  const params: RunParamsJson = stillAirParams(100)
  const s = veSeriesOf(series)

  it('sits on the measured elevation on average (the per-leg offsets of the fit)', () => {
    const ve = veTrace(s, veParamsOf(params, 0.3, 0.004))
    const mean = ve.reduce((a, v, i) => a + (series.elevation![i]! - v), 0) / n
    expect(Math.abs(mean)).toBeLessThan(1e-9)
  })

  it('falls further behind with more drag: a larger CdA or Crr ends lower relative to its start', () => {
    const drop = (cda: number, crr: number) => {
      const ve = veTrace(s, veParamsOf(params, cda, crr))
      return ve[n - 1]! - ve[0]!
    }
    expect(drop(0.35, 0.004)).toBeLessThan(drop(0.3, 0.004))
    expect(drop(0.3, 0.006)).toBeLessThan(drop(0.3, 0.004))
  })

  it('writes into the buffer it is given (no allocation per slider step)', () => {
    const out = new Float64Array(n)
    expect(veTrace(s, veParamsOf(params, 0.3, 0.004), out)).toBe(out)
  })
})
