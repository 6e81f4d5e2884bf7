// The three real-world rides with power (scripts/test-data.ts; skipped with the reason when
// absent) replayed with their own recorded power at 10 m resolution: a plain per-segment plan stalls (the Ironman leg at 82 448 m;
// Edge 810 did at 0 m before its elevation was cleaned), the replay completes, the recording's time is conserved (moving + stationary = the
// samples' span) and agrees with the device's own timer, and the per-km comparison covers the ride.
import { replayRecorded, simulate } from '@veloptima/engine'
import type { Rider } from '@veloptima/engine'
import { describe, expect, it } from 'vitest'
import { importCourse, recordedRide } from '../src/index.ts'
import { needs } from '../../../scripts/test-data.ts'
import { itWith } from '../../../scripts/test-data-vitest.ts'
import { syntheticClimb } from './fixtures/synthetic-climb.ts'

const file = (p: string) => needs(p).read(p)
// Textbook parameters (CdA 0.32, Crr 0.005, 84 kg).
const rider: Rider = {
  massKg: 76,
  bikeMassKg: 8,
  cdaM2: 0.32,
  crr: 0.005,
  drivetrainEfficiency: 0.976,
}
const environment = { temperatureC: 20 }

describe('replaying the real rides with their recorded power', () => {
  // [file, the session's total_timer_time (s) as recorded by the device, tolerance on it]
  const table: [string, number, number][] = [
    ['rides/edge810-vector-power.fit', 4700.05, 0.02],
    ['rides/elemnt-devfields.fit', 13471, 0.1], // its timer counts crawling under auto-pause too
    ['rides/ironman-multisport-2019.fit', 24139.747, 0.01],
  ]
  for (const [path, timer, tol] of table) {
    itWith(
      [path],
      `${path}: completes, time conserved, moving time within ${tol * 100} % of the device timer (${timer} s)`,
      () => {
        const imported = importCourse(file(path), path)
        const recorded = recordedRide(imported)
        expect(recorded).not.toBeNull()
        const { course, track, pointDistanceM } = imported
        const rep = replayRecorded({ course, recorded: recorded!, rider, environment })
        expect(rep.simulation.status).toBe('ok')
        expect(rep.simulation.segments.count).toBe(course.n)
        // Time conservation over the samples placed on the course (a plain scan of the file).
        let first = NaN
        let last = NaN
        for (let i = 0; i < track.time.length; i++) {
          if (!Number.isFinite(pointDistanceM[i]!) || !Number.isFinite(track.time[i]!)) continue
          if (Number.isNaN(first)) first = track.time[i]!
          last = track.time[i]!
        }
        expect(rep.recordedMovingTimeS + rep.stationaryTimeS).toBeCloseTo(last - first, 6)
        expect(Math.abs(rep.recordedMovingTimeS / timer - 1)).toBeLessThan(tol)
        // The prediction is a physical one, not the recording copied: pinned segments are few.
        expect(rep.pinnedDistanceM / course.start[course.n]!).toBeLessThan(0.01)
        expect(Math.abs(rep.errorPct)).toBeLessThan(15)
        // Per km: the whole ride, sums equal to the totals.
        expect(rep.perKm.length).toBe(Math.ceil(course.start[course.n]! / 1000))
        const predicted = rep.perKm.reduce((a, k) => a + k.predictedS, 0)
        const rec = rep.perKm.reduce((a, k) => a + k.recordedS, 0)
        expect(predicted).toBeCloseTo(rep.predictedMovingTimeS, 3)
        // No kilometre is lost to a crawl: each within a factor 2 of the recording (the Ironman's
        // km 107 took 401 s for 169 s ridden when 1 W from a standstill was ridden as a crawl).
        for (const k of rep.perKm) {
          expect(k.predictedS, `km at ${k.startM} m`).toBeLessThan(2 * k.recordedS)
          expect(k.predictedS, `km at ${k.startM} m`).toBeGreaterThan(0.5 * k.recordedS)
        }
        expect(rec).toBeCloseTo(rep.recordedMovingTimeS, 3)
      },
    )
  }

  itWith(
    ['rides/ironman-multisport-2019.fit'],
    'the same power as a plain per-segment plan stalls on the Ironman leg at 82 448 m (the bug this fixes)',
    () => {
      const path = 'rides/ironman-multisport-2019.fit'
      const imported = importCourse(file(path), path)
      const recorded = recordedRide(imported)!
      const plain = simulate({
        course: imported.course,
        rider,
        environment,
        pacing: { type: 'plan', powerW: recorded.powerW },
      })
      expect(plain.status).toBe('stalled')
      expect(Math.abs(plain.stalledAtM! - 82448)).toBeLessThan(50)
    },
  )

  itWith(
    ['rides/edge810-vector-power.fit'],
    'Edge 810 at 5 m, 10 m and 50 m segments: the replay completes and agrees within 1 %',
    () => {
      const path = 'rides/edge810-vector-power.fit'
      const bytes = file(path)
      const times = [5, 10, 50].map((segmentLengthM) => {
        const imported = importCourse(bytes, path, { segmentLengthM })
        const rep = replayRecorded({
          course: imported.course,
          recorded: recordedRide(imported)!,
          rider,
          environment,
        })
        expect(rep.simulation.status).toBe('ok')
        expect(rep.recordedMovingTimeS).toBeCloseTo(4650, -1)
        return rep.predictedMovingTimeS
      })
      expect(Math.abs(times[0]! / times[1]! - 1)).toBeLessThan(0.01)
      expect(Math.abs(times[2]! / times[1]! - 1)).toBeLessThan(0.01)
    },
  )

  it('a planned route (no power) has no recording to replay', () => {
    const gpx = new TextEncoder().encode(syntheticClimb().gpx)
    expect(recordedRide(importCourse(gpx, 'synthetic-climb.gpx'))).toBeNull()
  })
})
