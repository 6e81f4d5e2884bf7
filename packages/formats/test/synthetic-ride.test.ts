// Every activity reader on a self-made ride with known drag (test/fixtures/synthetic-ride.ts: the
// engine's forward simulation, CdA 0.28 m², Crr 0.005, 80 kg, ρ 1.2, noise), written as FIT, TCX,
// GPX and CSV: each reads back the samples that went in (in SI units), and the aero fit on what was
// read finds the truth — the CdA and Crr the ride was simulated with — within its noise.
import { analyzeAero } from '@veloptima/engine'
import { describe, expect, it } from 'vitest'
import { readActivity } from '../src/index.ts'
import {
  knownDragRide,
  RIDE_START,
  RIDE_TRUTH,
  rideCsv,
  rideFit,
  rideGpx,
  rideTcx,
} from './fixtures/synthetic-ride.ts'

const ride = knownDragRide()
const n = ride.t.length
const text = (s: string) => new TextEncoder().encode(s)
const rideLaps = new Set(ride.lap).size
const files: [string, Uint8Array, string, number][] = [
  // [name, bytes, format read, laps]
  ['ride.fit', rideFit(ride), 'fit', rideLaps],
  ['ride.tcx', text(rideTcx(ride)), 'tcx', rideLaps],
  ['ride.gpx', text(rideGpx(ride)), 'gpx', 0],
  ['ride.csv', text(rideCsv(ride)), 'csv', rideLaps],
]

const mean = (a: ArrayLike<number>) => {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i]!
  return s / a.length
}

describe('a ride with known drag, in every format', () => {
  for (const [name, bytes, format, lapCount] of files) {
    it(`${name}: the samples that went in, in SI units, and the laps`, () => {
      const a = readActivity(bytes, name)
      expect(a.format).toBe(format)
      const s = a.samples
      expect(s.t.length).toBe(n)
      expect(s.t[n - 1]).toBeCloseTo(ride.t[n - 1]!, 1)
      if (format !== 'csv') expect(a.startEpochS).toBe(RIDE_START.getTime() / 1000)
      expect(a.laps.length).toBe(lapCount)
      // Power is written rounded to the watt in FIT, TCX and GPX; speed to 1 mm/s or finer.
      expect(Math.abs(mean(s.power) - mean(ride.power))).toBeLessThan(0.5)
      expect(Math.abs(mean(s.speed) - mean(ride.speed))).toBeLessThan(0.01)
      expect(Math.abs(mean(s.altitude!) - mean(ride.altitude!))).toBeLessThan(0.01)
      expect(s.lat![100]).toBeCloseTo(ride.lat![100]!, 6)
      expect(s.lon![100]).toBeCloseTo(ride.lon![100]!, 6)
    })

    it(`${name}: the aero fit on what was read finds CdA ${RIDE_TRUTH.cda} m² and Crr ${RIDE_TRUTH.crr}`, () => {
      const a = readActivity(bytes, name)
      const fit = analyzeAero(a.samples, {
        massKg: RIDE_TRUTH.massKg,
        airDensity: RIDE_TRUTH.rho,
      })
      expect(fit.runs.length).toBeGreaterThan(0)
      expect(Math.abs(fit.crr - RIDE_TRUTH.crr)).toBeLessThan(0.0008)
      let used = 0
      let cda = 0
      for (const r of fit.runs) {
        cda += r.cda * r.samplesUsed
        used += r.samplesUsed
      }
      expect(Math.abs(cda / used - RIDE_TRUTH.cda)).toBeLessThan(0.01)
    })
  }
})
