// The rideable plan on a real climb is never slower than the best constant power.
// Fixture: on Alpe d'Huez the plan averaged into 2–20 sections came out up to 6 s slower than a
// steady power (seen in the results page as "time saved −2 s"); the steady power is then the plan.
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { optimizePacing, type Rider } from '@veloptima/engine'
import { describe, expect, it } from 'vitest'
import { importCourse } from '../src/index.ts'

const data = resolve(import.meta.dirname, '../../../../shared/data/courses')

describe("the rideable plan on Alpe d'Huez", () => {
  const { course } = importCourse(readFileSync(resolve(data, 'alpe-dhuez.gpx')), 'alpe')
  for (const cpW of [260, 300]) {
    it(`CP ${cpW} W: at every number of targets, never slower than the best constant power`, () => {
      const rider: Rider = {
        massKg: 72,
        bikeMassKg: 8,
        cdaM2: 0.32,
        crr: 0.004,
        drivetrainEfficiency: 0.976,
        cpW,
        wPrimeJ: 20000,
        maxPowerW: 2 * cpW,
      }
      for (const maxTargets of [2, 4, 8, 20]) {
        const r = optimizePacing({
          course,
          rider,
          environment: { airDensityKgM3: 1.2 },
          pacing: { constraint: { type: 'w_prime_balance' }, maxTargets },
        })
        expect(r.status).toBe('optimal')
        expect(r.plan!.targets.length).toBeLessThanOrEqual(maxTargets)
        expect(r.plan!.timeS).toBeLessThanOrEqual(r.baseline!.timeS + 1e-9)
      }
    })
  }
})
