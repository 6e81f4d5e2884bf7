// `veloptima durability`: rides with a known durability written as FIT by Garmin's SDK (the
// engine's synthetic rider) give that durability back inside the printed interval; the long real
// rides give a value in the physical range or the reason they cannot.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { dataFile } from '../../../../scripts/test-data.ts'
import { itWith } from '../../../../scripts/test-data-vitest.ts'
import { syntheticDurabilityRide } from '../../../engine/src/durability/synthetic.ts'
import { aeroSensorFit } from '../../../formats/src/activity/fixtures.ts'
import { inputDir, jsonOf, veloptima, writeInput } from '../../test/run-cli.ts'
import { perSecondPower } from './durability.ts'

/** A synthetic ride as a FIT file of 1-Hz records, one power value each. */
function rideFile(d: number, seed: number): string {
  const power = syntheticDurabilityRide({ d, seed, gapShare: 0 })
  const fit = aeroSensorFit({
    n: power.length,
    t0: new Date(Date.UTC(2024, 5, 1, 7)),
    speed: () => 9,
    power: (i) => Math.round(power[i]!),
    fields: [],
  })
  const file = join(inputDir, `durability-${d}-${seed}.fit`)
  writeFileSync(file, fit)
  return file
}

type Printed = {
  fraction_per_1000_kj: number | null
  ci95: [number, number] | null
  reason: string | null
  efforts_used: number
}

describe('veloptima durability', () => {
  it('prints per duration the fraction lost per 1,000 kJ with its interval, and both combined', () => {
    const d = 0.08
    const out = jsonOf(veloptima('durability', rideFile(d, 1), rideFile(d, 2)))
    expect(out.rides).toHaveLength(2)
    expect(out.rides[0].work_kj).toBeGreaterThan(3000)
    for (const x of out.durations as Printed[]) {
      expect(x.reason).toBeNull()
      expect(x.ci95![0]).toBeLessThanOrEqual(d)
      expect(x.ci95![1]).toBeGreaterThanOrEqual(d)
      expect(x.efforts_used).toBe(8)
    }
    expect(out.durations.map((x: { duration_s: number }) => x.duration_s)).toEqual([300, 1200])
    expect(out.combined.ci95[0]).toBeLessThanOrEqual(d)
    expect(out.combined.ci95[1]).toBeGreaterThanOrEqual(d)
  }, 60_000)

  it('refuses no file, a missing file and a file without power, naming it', () => {
    expect(veloptima('durability').stderr).toMatch(/expected one or more ride files/)
    const missing = veloptima('durability', 'no-such-ride.fit')
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/no-such-ride\.fit: cannot read the file/)
    const noPower = writeInput('time,speed\n0,5\n1,5\n', 'csv')
    const r = veloptima('durability', noPower)
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/power/)
  })

  it('turns samples into seconds: a short interval takes the later power, a pause is a gap', () => {
    const p = perSecondPower([0, 1, 3, 20, 20.5], [100, 200, 300, 400, 5000])
    expect(p.slice(0, 4)).toEqual([100, 200, 300, 300])
    expect(p.slice(4, 20).every((v) => Number.isNaN(v))).toBe(true)
    // 5,000 W is a spike: the second keeps only the plausible reading.
    expect(p[20]).toBe(400)
  })

  // Long real rides: a value in the physical range with its interval, or the reason.
  for (const [file, note] of [
    ['rides/ironman-multisport-2019.fit', 'Ironman bike leg, 179 km paced steadily'],
    ['rides/elemnt-devfields.fit', 'ELEMNT ride, 6.5 h'],
  ] as const) {
    itWith(
      [file],
      `${note}: a durability in range or why not`,
      () => {
        const out = jsonOf(veloptima('durability', dataFile(file)!))
        expect(out.rides[0].work_kj).toBeGreaterThan(1000)
        for (const x of out.durations as Printed[]) {
          if (x.fraction_per_1000_kj === null) expect(x.reason).toMatch(/\S/)
          else expect(x.ci95![0]).toBeLessThanOrEqual(x.ci95![1])
        }
        if (out.combined) {
          expect(out.combined.fraction_per_1000_kj).toBeGreaterThanOrEqual(0)
          expect(out.combined.fraction_per_1000_kj).toBeLessThanOrEqual(0.3)
        } else expect(out.combined_reason).toMatch(/5-min: .*; 20-min: /)
      },
      60_000,
    )
  }
})
