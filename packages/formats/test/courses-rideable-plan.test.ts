// The rideable plan on a real climb is never slower than the best constant power.
// Fixture: on Alpe d'Huez the plan averaged into 2–20 sections came out up to 6 s slower than a
// steady power (seen in the results page as "time saved −2 s"); the steady power is then the plan.
import { optimizePacing, type Rider } from '@veloptima/engine'
import { describe, expect, it } from 'vitest'
import { importCourse } from '../src/index.ts'
import { needs } from '../../../scripts/test-data.ts'
import { describeWith, itWith } from '../../../scripts/test-data-vitest.ts'
import { cpRider } from '../../engine/test/fixtures.ts'
import { expectPlanRidesAsReported } from '../../engine/test/plan-checks.ts'

const readCourse = (f: string): Uint8Array => needs(`courses/${f}`).read(`courses/${f}`)

describeWith(['courses/alpe-dhuez.gpx'], "the rideable plan on Alpe d'Huez", () => {
  let alpe: ReturnType<typeof importCourse> | undefined
  for (const cpW of [260, 300]) {
    it(`CP ${cpW} W: at every number of targets, never slower than the best constant power`, () => {
      alpe ??= importCourse(readCourse('alpe-dhuez.gpx'), 'alpe')
      const { course } = alpe
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

// The setting on the real climbs and the peer courses: CP 300 W,
// W′ 20 kJ, 75 + 8 kg, CdA 0.25, Crr 0.004, η 0.976, max 600 W, ρ 1.2; the default plan of at
// most 12 targets over sections of at least 200 m. The share of the per-segment optimum's gain
// (the bound: the faster of the two runs' optima, default and fine control segments) that the
// plan keeps, measured with `optimizePacing` itself (docs/decisions/0002-pacing-optimizer.md; the reduced problems
// polished to convergence, the joint cut of sections and powers by the W′ DP, the winner polished
// on the fine course):
//   tt-beton-classic 100 % (13.9 s), galibier-briancon 96 % (20.0 of 20.9 s),
//   mont-ventoux-bedoin 77 % (11.9 of 15.6 s), alpe-dhuez 81 % (5.83 of 7.19 s),
//   crank-the-kanc 100 % (18.1 s).
// The target is ≥ 80 % on the peer courses (TT Beton, Alpe d'Huez, Crank the Kanc, Galibier) and
// ≥ 70 % on the climbs. The floors below guard what is reached, a little under it (the plans move
// by a few tenths of a second with any change of the optimizer), except Alpe d'Huez, held at 80 %.
describe('the rideable 12-target plan keeps most of the per-segment optimum’s gain', () => {
  const rider: Rider = { ...cpRider, maxPowerW: 600 }
  const floors: [string, number][] = [
    ['tt-beton-classic.gpx', 0.97],
    ['galibier-briancon.gpx', 0.93],
    ['mont-ventoux-bedoin.gpx', 0.74],
    ['alpe-dhuez.gpx', 0.8],
    ['crank-the-kanc.gpx', 0.97],
  ]
  for (const [file, floor] of floors) {
    itWith(
      [`courses/${file}`],
      `${file}: keeps ≥ ${100 * floor} % of the bound's gain, with at most 12 targets over sections ≥ 200 m, feasible as ridden`,
      () => {
        const { course } = importCourse(readCourse(file), file)
        const environment = { airDensityKgM3: 1.2 }
        const r = optimizePacing({
          course,
          rider,
          environment,
          pacing: { constraint: { type: 'w_prime_balance' } },
        })
        const plan = r.plan!
        const boundGain = r.baseline!.timeS - r.timeS
        const planGain = r.baseline!.timeS - plan.timeS
        expect(boundGain).toBeGreaterThan(5)
        expect(planGain / boundGain).toBeGreaterThanOrEqual(floor)
        expect(plan.targets.length).toBeLessThanOrEqual(12)
        for (const s of plan.sections) expect(s.endM - s.startM).toBeGreaterThanOrEqual(200 - 1e-6)
        expectPlanRidesAsReported(plan, { course, rider, environment })
      },
    )
  }
})
