// `veloptima simulate` and `optimize` with riding positions by speed and wind per stretch,
// spawned as the real command on the real Alpe d'Huez GPX (13.6 km, +1141 m; a real-world file,
// scripts/test-data.ts: skipped, naming it, when absent).
import { expect, it } from 'vitest'
import { dataFile } from '../../../scripts/test-data.ts'
import { describeWith } from '../../../scripts/test-data-vitest.ts'
import { veloptima, writeInput as write, scenarioRider } from './run-cli.ts'

const ALPE = 'courses/alpe-dhuez.gpx'

const rider = {
  ...scenarioRider,
  mass_kg: 70,
  max_power_w: 800,
  // aero above 25 km/h, on the hoods below (riders usually switch between 10 and 30 km/h)
  positions: [
    { name: 'aero', cda_m2: 0.25, min_speed_mps: 25 / 3.6, max_speed_mps: 25 },
    { name: 'hoods', cda_m2: 0.34, min_speed_mps: 0, max_speed_mps: 25 / 3.6 },
  ],
}
const scenario = {
  course: { file: dataFile(ALPE) ?? ALPE },
  rider,
  environment: {
    temperature_c: 15,
    wind_segments: [{ start_m: 0, end_m: 3000, wind_speed_mps: 4, wind_from_deg: 90 }],
  },
}

describeWith([ALPE], 'positions and wind per stretch on the command line', () => {
  it('simulate: a climb at 250 W is ridden on the hoods, and costs time against aero all along', () => {
    const r = veloptima(
      'simulate',
      write({ ...scenario, pacing: { type: 'constant', power_w: 250 } }),
    )
    expect(r.stderr).toBe('')
    const out = JSON.parse(r.stdout)
    expect(out.segment_position).toHaveLength(out.segments.length)
    // every segment slower than 25 km/h is on the hoods (index 1)
    out.segments.forEach((s: { speed_mps: number }, i: number) => {
      if (s.speed_mps < 25 / 3.6 - 0.05) expect(out.segment_position[i], `segment ${i}`).toBe(1)
    })
    const aero = veloptima(
      'simulate',
      write({
        ...scenario,
        rider: { ...rider, positions: undefined },
        pacing: { type: 'constant', power_w: 250 },
      }),
    )
    expect(JSON.parse(aero.stdout).time_s).toBeLessThan(out.time_s)
  })

  it('optimize: the plan sections name their position', () => {
    const r = veloptima(
      'optimize',
      write({ ...scenario, constraint: { type: 'w_prime_balance' }, max_targets: 6 }),
    )
    expect(r.stderr).toBe('')
    const out = JSON.parse(r.stdout)
    expect(out.status).toBe('optimal')
    expect(out.positions).toEqual(['aero', 'hoods'])
    expect(out.plan.map((s: { position: string }) => s.position)).toContain('hoods')
  })

  it('a bad stretch exits 2 naming the field and the value', () => {
    const r = veloptima(
      'simulate',
      write({
        ...scenario,
        environment: {
          temperature_c: 15,
          wind_segments: [{ start_m: 0, end_m: 3000, wind_speed_mps: 4, wind_from_deg: 400 }],
        },
        pacing: { type: 'constant', power_w: 250 },
      }),
    )
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/environment\.wind_segments\[0\]\.wind_from_deg: .*got 400/)
  })
})
