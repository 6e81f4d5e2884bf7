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
//   tt-beton-classic 100 % (14.0 s), galibier-briancon 96 % (20.1 of 20.9 s),
//   mont-ventoux-bedoin 77 % (12.1 of 15.6 s), alpe-dhuez 84 % (6.01 of 7.19 s),
//   crank-the-kanc 100 % (18.4 s).
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

// With the rule "coast descents steeper than −0.5 % and the run-in to braking points"
// (sim/rules.ts) the riders of docs/engine/pacing.md's "other riders" paragraph keep ≥ 80 % of the
// bound's gain on the hairpin climbs (without it 54–66 %; 81–100 % measured): the dips into
// hairpins, which no 200 m section can follow, are coasted by the rule, and the bound is the
// per-segment optimum under the same rule. With −3 % the shares are 68–93 %.
describe('with the coast rule, the rideable plan keeps ≥ 80 % on the hairpin climbs', () => {
  const base = { crr: 0.004, drivetrainEfficiency: 0.976 }
  const riders: [string, Rider][] = [
    [
      '72 kg, CP 280 W',
      {
        ...base,
        massKg: 72,
        bikeMassKg: 7.8,
        cdaM2: 0.32,
        cpW: 280,
        wPrimeJ: 20000,
        maxPowerW: 650,
      },
    ],
    [
      '60 kg, CP 250 W',
      { ...base, massKg: 60, bikeMassKg: 7, cdaM2: 0.3, cpW: 250, wPrimeJ: 15000, maxPowerW: 700 },
    ],
    [
      '90 kg, CP 320 W',
      {
        ...base,
        massKg: 90,
        bikeMassKg: 9,
        cdaM2: 0.35,
        crr: 0.005,
        cpW: 320,
        wPrimeJ: 25000,
        maxPowerW: 900,
      },
    ],
  ]
  const options = { rules: { coast: { descentGrade: -0.005, beforeBraking: true } } }
  for (const file of ['alpe-dhuez.gpx', 'mont-ventoux-bedoin.gpx']) {
    itWith([`courses/${file}`], `${file}: every rider keeps ≥ 80 %, coasting where told`, () => {
      const { course } = importCourse(readCourse(file), file)
      const environment = { airDensityKgM3: 1.2 }
      for (const [, rider] of riders) {
        const r = optimizePacing({
          course,
          rider,
          environment,
          options,
          pacing: { constraint: { type: 'w_prime_balance' } },
        })
        const boundGain = r.baseline!.timeS - r.timeS
        expect(boundGain).toBeGreaterThan(5)
        expect((r.baseline!.timeS - r.plan!.timeS) / boundGain).toBeGreaterThanOrEqual(0.8)
        expect(r.plan!.targets.length).toBeLessThanOrEqual(12)
        expectPlanRidesAsReported(r.plan!, { course, rider, environment, options })
      }
    })
  }
})
