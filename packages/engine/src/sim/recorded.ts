// A recorded ride cut into the course's segments (power and moving/stationary time per segment),
// and the comparison of a replay's predicted times with the recorded ones.
//
// Stops are not part of the model: the recording's stationary time (intervals slower than
// `stopSpeedMps`) is reported apart and never predicted. A segment where the recorded power
// cannot keep the modelled rider moving (a stall: braking to a stop, a push up a wall, a power
// dropout) is ridden at the recorded moving speed instead and counted in `pinned*`, so the
// moving-time prediction never stalls and says how much of it was taken from the recording.
import type { Course } from '../course/types.ts'

/** A recording's samples: cumulative distance along the course (m), time (s), power (W); NaN
 * marks a missing value. */
export interface RecordedSamples {
  distanceM: ArrayLike<number>
  timeS: ArrayLike<number>
  powerW: ArrayLike<number>
}

/** The recording cut into the course's segments. */
export interface RecordedSegments {
  /** Mean power while moving (W): moving work / moving time. */
  powerW: Float64Array
  /** Time spent moving over the segment (s). */
  movingTimeS: Float64Array
  /** Time spent stopped on the segment (s): intervals slower than the stop speed. */
  stationaryTimeS: Float64Array
}

export interface RecordedSegmentsOptions {
  /** An interval between two samples slower than this is a stop (m/s, default 0.5). */
  stopSpeedMps?: number
}

const finite = Number.isFinite
/** A power sample above this (W) is a glitch (e.g. 65535), counted as a dropout. */
const MAX_POWER_W = 3000

/**
 * Maps samples onto the course's segments by distance. Each interval between consecutive samples
 * is either a stop (slower than the stop speed: its time goes to the segment where it happens) or
 * moving (its time and work, power of the interval's end sample × duration as devices record
 * it, are spread over the segments it crosses in proportion to the distance covered in each).
 * A missing power counts as 0 W (a dropout, as most analysis tools do), as does a sample above
 * 3,000 W (a glitch).
 */
export function recordedSegments(
  course: Course,
  samples: RecordedSamples,
  opts: RecordedSegmentsOptions = {},
): RecordedSegments {
  const n = course.n
  const stop = opts.stopSpeedMps ?? 0.5
  const work = new Float64Array(n)
  const moving = new Float64Array(n)
  const stationary = new Float64Array(n)
  const start = course.start
  const total = start[n]!
  const segAt = (d: number): number => {
    let a = 0
    let b = n
    while (b - a > 1) {
      const c = (a + b) >> 1
      if (start[c]! <= d) a = c
      else b = c
    }
    return a
  }
  const m = Math.min(samples.distanceM.length, samples.timeS.length, samples.powerW.length)
  let prevD = NaN
  let prevT = NaN
  for (let j = 0; j < m; j++) {
    const d = samples.distanceM[j]!
    const t = samples.timeS[j]!
    if (!finite(d) || !finite(t)) continue
    if (finite(prevD) && t > prevT) {
      const dt = t - prevT
      const p = samples.powerW[j]!
      const pw = finite(p) && p > 0 && p <= MAX_POWER_W ? p : 0
      const d0 = Math.min(Math.max(Math.min(prevD, d), 0), total)
      const d1 = Math.min(Math.max(Math.max(prevD, d), 0), total)
      const dd = d1 - d0
      if (dd < stop * dt || dd <= 0) {
        stationary[segAt(0.5 * (d0 + d1))]! += dt
      } else {
        let k = segAt(d0)
        while (k < n && start[k]! < d1) {
          const share = (Math.min(d1, start[k + 1]!) - Math.max(d0, start[k]!)) / dd
          if (share > 0) {
            moving[k]! += share * dt
            work[k]! += share * dt * pw
          }
          k++
        }
      }
    }
    if (!finite(prevT) || t > prevT) {
      prevD = d
      prevT = t
    }
  }
  const powerW = new Float64Array(n)
  for (let i = 0; i < n; i++) powerW[i] = moving[i]! > 0 ? work[i]! / moving[i]! : 0
  return { powerW, movingTimeS: moving, stationaryTimeS: stationary }
}

/** Predicted and recorded moving time over one kilometre of the course. */
export interface ReplayKm {
  startM: number
  endM: number
  predictedS: number
  recordedS: number
  /** (predicted − recorded) / recorded × 100; null when nothing was recorded moving there. */
  errorPct: number | null
}

export interface ReplaySummary {
  /** Moving time the model predicts with the recorded power (s), pinned segments included. */
  predictedMovingTimeS: number
  /** Moving time of the recording (s). */
  recordedMovingTimeS: number
  /** Time the recording spent stopped (s): neither predicted nor part of the moving times. */
  stationaryTimeS: number
  /** (predicted − recorded) / recorded moving time × 100. */
  errorPct: number
  /** Segments where the recorded power could not keep the model moving (or the recording
   * stopped), ridden at the recorded speed: their count, length (m) and time (s). */
  pinnedSegments: number
  pinnedDistanceM: number
  pinnedTimeS: number
  /** Mean recorded power while moving (W). */
  averagePowerW: number
  perKm: ReplayKm[]
}

/** Per-kilometre comparison of two per-segment time series (last km may be shorter). */
export function perKmComparison(
  course: Course,
  predictedS: ArrayLike<number>,
  recordedS: ArrayLike<number>,
): ReplayKm[] {
  const out: ReplayKm[] = []
  const total = course.start[course.n]!
  const kms = Math.max(1, Math.ceil(total / 1000 - 1e-9))
  for (let k = 0; k < kms; k++) {
    out.push({
      startM: k * 1000,
      endM: Math.min(total, (k + 1) * 1000),
      predictedS: 0,
      recordedS: 0,
      errorPct: null,
    })
  }
  for (let i = 0; i < course.n; i++) {
    // A segment straddling a kilometre mark is split between the two by length.
    const a = course.start[i]!
    const b = course.start[i + 1]!
    let x = a
    while (x < b) {
      const k = Math.min(kms - 1, Math.floor(x / 1000))
      const end = Math.min(b, (k + 1) * 1000)
      const share = end > x ? (end - x) / (b - a) : 1
      out[k]!.predictedS += share * predictedS[i]!
      out[k]!.recordedS += share * recordedS[i]!
      if (end <= x) break
      x = end
    }
  }
  for (const km of out) {
    if (km.recordedS > 0) km.errorPct = ((km.predictedS - km.recordedS) / km.recordedS) * 100
  }
  return out
}

/** `segments.capped` of a segment ridden at the recorded speed (pacing 'recorded'). */
export const SEGMENT_PINNED = 2

/**
 * The comparison of a replay with its recording, from the simulated segments (`duration`,
 * `capped`; `count` of them ridden).
 */
export function replaySummary(
  course: Course,
  recorded: {
    powerW: ArrayLike<number>
    movingTimeS: ArrayLike<number>
    stationaryTimeS?: ArrayLike<number>
  },
  segments: { count: number; duration: Float64Array; capped: Uint8Array },
): ReplaySummary {
  let recordedMoving = 0
  let stationary = 0
  let work = 0
  let predicted = 0
  for (let i = 0; i < course.n; i++) {
    recordedMoving += recorded.movingTimeS[i]!
    if (recorded.stationaryTimeS) stationary += recorded.stationaryTimeS[i]!
    work += recorded.powerW[i]! * recorded.movingTimeS[i]!
  }
  let pinned = 0
  let pinnedM = 0
  let pinnedS = 0
  for (let i = 0; i < segments.count; i++) {
    predicted += segments.duration[i]!
    if (segments.capped[i] !== SEGMENT_PINNED) continue
    pinned++
    pinnedM += course.length[i]!
    pinnedS += segments.duration[i]!
  }
  return {
    predictedMovingTimeS: predicted,
    recordedMovingTimeS: recordedMoving,
    stationaryTimeS: stationary,
    errorPct: recordedMoving > 0 ? ((predicted - recordedMoving) / recordedMoving) * 100 : 0,
    pinnedSegments: pinned,
    pinnedDistanceM: pinnedM,
    pinnedTimeS: pinnedS,
    averagePowerW: recordedMoving > 0 ? work / recordedMoving : 0,
    perKm: perKmComparison(course, segments.duration, recorded.movingTimeS),
  }
}
