// The real-world courses (scripts/test-data.ts; skipped with the reason when absent) and the
// self-made climb (test/fixtures/synthetic-climb.ts), imported and simulated end to end: a 3.1 W/kg rider finishes each one,
// the energy balances, and the dynamic model (kinetic energy, corners) stays close to the
// quasi-steady one on these long climbs (the rider's inertia matters little there).
import { simulate } from '@veloptima/engine'
import type { Rider } from '@veloptima/engine'
import { describe, expect } from 'vitest'
import { importCourse } from '../src/index.ts'
import { needs } from '../../../scripts/test-data.ts'
import { itWith } from '../../../scripts/test-data-vitest.ts'
import { syntheticClimb } from './fixtures/synthetic-climb.ts'

const bytesOf = (f: string): Uint8Array =>
  f === 'synthetic-climb.gpx'
    ? new TextEncoder().encode(syntheticClimb().gpx)
    : needs(`courses/${f}`).read(`courses/${f}`)
const rider: Rider = {
  massKg: 72,
  bikeMassKg: 8,
  cdaM2: 0.3,
  crr: 0.004,
  drivetrainEfficiency: 0.976,
  cpW: 280,
  wPrimeJ: 20000,
}

describe('simulating the shared courses at 250 W', () => {
  for (const f of [
    'synthetic-climb.gpx',
    'alpe-dhuez.gpx',
    'mont-ventoux-bedoin.gpx',
    'galibier-briancon.gpx',
    'crank-the-kanc.gpx',
    'tt-beton-classic.gpx',
    'stuttgart-recorded-missing-ele.gpx',
  ]) {
    const files = f === 'synthetic-climb.gpx' ? [] : [`courses/${f}`]
    itWith(files, `${f}: finishes, energy balances, quasi-steady within 3 %`, () => {
      const { course } = importCourse(bytesOf(f), f)
      const base = {
        course,
        rider,
        environment: { temperatureC: 20 },
        pacing: { type: 'constant' as const, powerW: 250 },
      }
      const r = simulate(base)
      expect(r.status).toBe('ok')
      expect(r.averagePowerW).toBeLessThanOrEqual(250 + 1e-9)
      expect(r.minWPrimeBalanceJ).toBe(20000) // never above CP
      const e = r.energy
      const sinks = e.aeroJ + e.rollingJ + e.bearingJ + e.potentialJ + e.kineticJ + e.brakingJ
      expect(Math.abs(e.crankJ * 0.976 - sinks) / e.crankJ).toBeLessThan(1e-3)
      const q = simulate({ ...base, options: { kineticEnergy: false, cornering: false } })
      expect(q.status).toBe('ok')
      expect(Math.abs(r.timeS / q.timeS - 1)).toBeLessThan(0.03)
    })
  }

  itWith(
    ['courses/alpe-dhuez.gpx'],
    "l'Alpe d'Huez at 3.1 W/kg takes about an hour (65–70 min; 13.6 km, +1141 m)",
    () => {
      const { course } = importCourse(bytesOf('alpe-dhuez.gpx'), 'alpe')
      const r = simulate({
        course,
        rider,
        environment: { temperatureC: 20 },
        pacing: { type: 'constant', powerW: 250 },
      })
      // Energy floor: lifting 80 kg by 1141 m at 250 W × 0.976 alone takes 61.2 min.
      const liftOnly = (80 * 9.80665 * 1141) / (250 * 0.976) / 60
      expect(r.timeS / 60).toBeGreaterThan(liftOnly)
      expect(r.timeS / 60).toBeGreaterThan(63)
      expect(r.timeS / 60).toBeLessThan(72)
    },
  )
})
