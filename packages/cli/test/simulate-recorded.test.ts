// `veloptima simulate` with `"pacing": {"type": "recorded"}`: a real-world ride replayed
// with its own power; the output compares predicted and recorded moving time per km.
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { dataFile } from '../../../scripts/test-data.ts'
import { itWith } from '../../../scripts/test-data-vitest.ts'
import { syntheticClimb } from '../../formats/test/fixtures/synthetic-climb.ts'
import { repo, writeInput } from './run-cli.ts'

/** The real command; its output lists every 10 m segment, so the buffer is larger than 1 MB. */
function veloptima(...args: string[]) {
  const r = spawnSync('node', ['packages/cli/bin/veloptima.mjs', ...args], {
    cwd: repo,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  return { code: r.status, stdout: r.stdout, stderr: r.stderr }
}

const scenario = (file: string) => ({
  course: { file },
  rider: { mass_kg: 76, bike_mass_kg: 8, cda_m2: 0.32, crr: 0.005, drivetrain_efficiency: 0.976 },
  environment: { temperature_c: 20 },
  pacing: { type: 'recorded' },
})

describe('veloptima simulate, pacing "recorded"', () => {
  const EDGE = 'rides/edge810-vector-power.fit'
  itWith(
    [EDGE],
    'replays the Edge 810 ride (41.3 km, 4,700 s on the device timer) to the end, per km',
    () => {
      const r = veloptima('simulate', writeInput(scenario(dataFile(EDGE)!)))
      expect(r.stderr).toBe('')
      expect(r.code).toBe(0)
      const out = JSON.parse(r.stdout)
      expect(out.status).toBe('ok')
      expect(out.distance_m).toBeGreaterThan(41_000)
      const replay = out.replay
      expect(replay.per_km.length).toBe(42)
      // moving + stationary = the ride's 4,700 s timer (the file records through its stops)
      expect(replay.recorded_moving_time_s + replay.stationary_time_s).toBeCloseTo(4699, 0)
      expect(Math.abs(replay.error_pct)).toBeLessThan(15)
      for (const km of replay.per_km) {
        expect(km.predicted_s).toBeGreaterThan(0)
        expect(km.recorded_s).toBeGreaterThan(0)
      }
    },
  )

  it('a route without power exits 2 naming the file', () => {
    const route = writeInput(syntheticClimb().gpx, 'gpx')
    const r = veloptima('simulate', writeInput(scenario(route)))
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(
      /pacing\.type: expected a course file that records power for "recorded", got ".*f\d+\.gpx" without power/,
    )
  })
})
