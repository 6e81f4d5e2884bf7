// Runs of a field test: from the recorded laps, from out-and-back legs (heading reversals where
// the track retraces itself, turnarounds trimmed), or from repeated loops (crossings of a gate
// through the start point, perpendicular to the direction of travel). Without GPS: laps, else
// the whole file.
import type { ActivitySamples, RunSpec, SkippedLap } from './types.ts'
import { headingSeries, localPositions, MIN_MOVING_SPEED_MPS } from './series.ts'

/** Laps shorter than this much moving time are not runs (s). */
const MIN_RUN_MOVING_S = 45
/** Track distance trimmed on each side of a turnaround (m). */
const TURN_TRIM_M = 60
/** Half-width of the loop gate (m) and the largest heading difference at a crossing (rad). */
const GATE_HALF_WIDTH_M = 30
const GATE_MAX_HEADING = Math.PI / 3
/** A loop is at least this long (m). */
const MIN_LOOP_M = 250

function movingSeconds(s: ActivitySamples, a: number, b: number): number {
  let sum = 0
  for (let i = Math.max(1, a); i <= b; i++) {
    if (s.speed[i]! >= MIN_MOVING_SPEED_MPS) sum += s.t[i]! - s.t[i - 1]!
  }
  return sum
}

/**
 * A lap below this share of the efforts' pedalling power (the laps' 75th percentile) and below
 * this share of their median speed is a recovery: easy and slow (a protocol that rides some
 * efforts slowly to separate Crr from CdA keeps them: slow, but not easy for their speed).
 */
const RECOVERY_POWER_SHARE = 0.4
const RECOVERY_SPEED_SHARE = 0.7
/** A lap shorter than this share of the kept laps' median moving time is a turnaround or link. */
const TURNAROUND_TIME_SHARE = 0.25

/** A lap pedalled for less than this share of its moving samples is a coast-down. */
const MIN_PEDALLED_SHARE = 0.25

/** A lap: its mean power over the moving samples, and over the pedalled ones (power > 0). */
type Lap = RunSpec & {
  meanPower: number
  pedalled: number
  pedalledShare: number
  meanSpeed: number
  moving: number
}

function lapsOf(s: ActivitySamples): Lap[] {
  const n = s.t.length
  const laps: Lap[] = []
  let a = 0
  for (let i = 1; i <= n; i++) {
    if (i === n || s.lap[i] !== s.lap[a]) {
      const moving = movingSeconds(s, a, i - 1)
      if (moving >= MIN_RUN_MOVING_S) {
        const lap = s.lap[a]!
        let sum = 0
        let sv = 0
        let cnt = 0
        let on = 0
        for (let k = a; k < i; k++) {
          if (s.speed[k]! >= MIN_MOVING_SPEED_MPS && Number.isFinite(s.power[k])) {
            sum += s.power[k]!
            sv += s.speed[k]!
            cnt++
            if (s.power[k]! > 0) on++
          }
        }
        laps.push({
          lap,
          startT: s.t[a]!,
          endT: s.t[i - 1]!,
          source: 'lap',
          label: `lap ${lap + 1}`,
          meanPower: cnt > 0 ? sum / cnt : 0,
          pedalled: on > 0 ? sum / on : 0,
          pedalledShare: cnt > 0 ? on / cnt : 0,
          meanSpeed: cnt > 0 ? sv / cnt : 0,
          moving,
        })
      }
      a = i
    }
  }
  return laps
}

const quantileOf = (xs: number[], q: number): number => {
  const v = [...xs].sort((x, y) => x - y)
  if (v.length === 0) return NaN
  const h = (v.length - 1) * q
  const lo = Math.floor(h)
  return v[lo]! + (h - lo) * ((v[Math.min(v.length - 1, lo + 1)] ?? v[lo]!) - v[lo]!)
}

/**
 * Recorded laps with at least 45 s of moving time. With three or more, the laps are sorted into
 * test laps and the rest: a lap pedalled for under a quarter of its moving time is a coast-down;
 * one whose pedalling averages under 40 % of the efforts' (the 75th percentile of the laps'
 * pedalling power: the efforts are the harder laps, whichever are longer; freewheeling inside an
 * effort lap does not make it easy) at under 70 % of their speed is a recovery, warm-up or
 * cool-down; of the laps left, one
 * shorter than a quarter of their median moving time is a turnaround or link. Those are skipped,
 * each with the reason.
 */
function lapRuns(s: ActivitySamples): { runs: RunSpec[]; skipped: SkippedLap[]; laps: number } {
  const laps = lapsOf(s)
  const strip = (l: Lap): RunSpec => {
    const {
      meanPower: _,
      pedalled: __,
      pedalledShare: ___,
      meanSpeed: ____,
      moving: _____,
      ...r
    } = l
    return r
  }
  if (laps.length < 3) return { runs: laps.map(strip), skipped: [], laps: laps.length }
  const effort = quantileOf(
    laps.map((l) => l.pedalled),
    0.75,
  )
  const pace = quantileOf(
    laps.filter((l) => l.pedalled >= RECOVERY_POWER_SHARE * effort).map((l) => l.meanSpeed),
    0.5,
  )
  const skipped: SkippedLap[] = []
  const skip = (l: Lap, kind: SkippedLap['kind'], reason: string) =>
    skipped.push({
      lap: l.lap!,
      startT: l.startT!,
      endT: l.endT!,
      kind,
      meanPowerW: l.meanPower,
      movingS: l.moving,
      reason,
    })
  const hard = laps.filter((l) => {
    if (l.pedalledShare < MIN_PEDALLED_SHARE) {
      skip(
        l,
        'recovery',
        `coasting: pedalled for ${Math.round(100 * l.pedalledShare)} % of the lap (under ${Math.round(100 * MIN_PEDALLED_SHARE)} %)`,
      )
      return false
    }
    if (l.pedalled >= RECOVERY_POWER_SHARE * effort || l.meanSpeed >= RECOVERY_SPEED_SHARE * pace)
      return true
    skip(
      l,
      'recovery',
      `recovery: ${Math.round(l.pedalled)} W pedalling at ${(3.6 * l.meanSpeed).toFixed(1)} km/h, under ` +
        `${Math.round(100 * RECOVERY_POWER_SHARE)} % of the efforts' ${Math.round(effort)} W and ` +
        `${Math.round(100 * RECOVERY_SPEED_SHARE)} % of their ${(3.6 * pace).toFixed(1)} km/h`,
    )
    return false
  })
  const typical = quantileOf(
    hard.map((l) => l.moving),
    0.5,
  )
  const runs = hard.filter((l) => {
    if (l.moving >= TURNAROUND_TIME_SHARE * typical) return true
    skip(
      l,
      'turnaround',
      `turnaround or link: ${Math.round(l.moving)} s, under a quarter of the test laps' ${Math.round(typical)} s`,
    )
    return false
  })
  skipped.sort((x, y) => x.startT - y.startT)
  return { runs: runs.map(strip), skipped, laps: laps.length }
}

/** Cumulative track distance from positions (NaN fixes skipped), m. */
export function trackDistance(
  pos: { x: Float64Array; y: Float64Array },
  s: ActivitySamples,
): Float64Array {
  const n = s.t.length
  const d = new Float64Array(n)
  let lx = NaN
  let ly = NaN
  for (let i = 0; i < n; i++) {
    d[i] = i > 0 ? d[i - 1]! : 0
    const x = pos.x[i]!
    const y = pos.y[i]!
    if (!Number.isFinite(x)) continue
    if (Number.isFinite(lx)) d[i]! += Math.hypot(x - lx, y - ly)
    lx = x
    ly = y
  }
  return d
}

/** Index of the first sample at track distance ≥ target (binary search on a non-decreasing array). */
function atDistance(d: Float64Array, target: number): number {
  let lo = 0
  let hi = d.length - 1
  if (d[hi]! < target) return hi
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (d[mid]! < target) lo = mid + 1
    else hi = mid
  }
  return lo
}

function angleDiff(a: number, b: number): number {
  let d = Math.abs(a - b) % (2 * Math.PI)
  if (d > Math.PI) d = 2 * Math.PI - d
  return d
}

/**
 * Turnarounds: the heading 30 m before and 30 m after differs by more than 150°, and the track
 * point 100 m after lies within 20 m of the track of the 200 m before (it retraces the road).
 */
export function turnarounds(
  pos: { x: Float64Array; y: Float64Array },
  d: Float64Array,
  heading: Float64Array,
  s: ActivitySamples,
): number[] {
  const n = s.t.length
  const turns: number[] = []
  let i = 0
  while (i < n) {
    const here = d[i]!
    const before = atDistance(d, here - 30)
    const after = atDistance(d, here + 30)
    const hb = heading[before]!
    const ha = heading[after]!
    if (
      here >= 30 &&
      after > i &&
      Number.isFinite(hb) &&
      Number.isFinite(ha) &&
      angleDiff(hb, ha) > (150 * Math.PI) / 180
    ) {
      // The turn: the sample of the candidate stretch farthest along the approach direction.
      let best = i
      let bestA = -Infinity
      const ux = Math.sin(hb)
      const uy = Math.cos(hb)
      let j = i
      for (; j < n && d[j]! <= here + 60; j++) {
        const a = pos.x[j]! * ux + pos.y[j]! * uy
        if (Number.isFinite(a) && a > bestA) {
          bestA = a
          best = j
        }
      }
      // The track 100 m after the turn lies on the track of the 200 m before it.
      const b200 = atDistance(d, d[best]! - 200)
      const a100 = atDistance(d, d[best]! + 100)
      let gap = Infinity
      for (let k = b200; k < best; k++) {
        const g = Math.hypot(pos.x[a100]! - pos.x[k]!, pos.y[a100]! - pos.y[k]!)
        if (g < gap) gap = g
      }
      if (d[best]! - d[b200]! > 150 && d[a100]! - d[best]! > 90 && gap < 20) turns.push(best)
      i = Math.max(j, atDistance(d, d[best]! + 100))
      continue
    }
    i++
  }
  return turns
}

function outAndBackRuns(
  s: ActivitySamples,
  d: Float64Array,
  turns: number[],
  first: number,
  last: number,
): RunSpec[] {
  const bounds = [first, ...turns, last]
  const legs: Array<[number, number]> = []
  for (let k = 0; k + 1 < bounds.length; k++) {
    // Every leg loses the same distance at both ends (also the ride's start and end), so a
    // round trip starts and ends at the same place.
    const a = atDistance(d, d[bounds[k]!]! + TURN_TRIM_M)
    const b = atDistance(d, d[bounds[k + 1]!]! - TURN_TRIM_M)
    legs.push([a, Math.max(a, b)])
  }
  const runs: RunSpec[] = []
  for (let k = 0; k + 1 < legs.length; k += 2) {
    const out = legs[k]!
    const back = legs[k + 1]!
    if (movingSeconds(s, out[0], out[1]) + movingSeconds(s, back[0], back[1]) < MIN_RUN_MOVING_S)
      continue
    runs.push({
      startT: s.t[out[0]]!,
      endT: s.t[back[1]]!,
      pieces: [
        [s.t[out[0]]!, s.t[out[1]]!],
        [s.t[back[0]]!, s.t[back[1]]!],
      ],
      source: 'out_and_back',
      label: `out and back ${runs.length + 1}`,
    })
  }
  return runs
}

function loopRuns(
  s: ActivitySamples,
  pos: { x: Float64Array; y: Float64Array },
  d: Float64Array,
  heading: Float64Array,
  first: number,
  last: number,
): RunSpec[] {
  // The gate: 100 m after the first moving sample, perpendicular to the heading there.
  const g = atDistance(d, d[first]! + 100)
  const h0 = heading[g]!
  if (!Number.isFinite(h0) || !Number.isFinite(pos.x[g])) return []
  const ux = Math.sin(h0)
  const uy = Math.cos(h0)
  const x0 = pos.x[g]!
  const y0 = pos.y[g]!
  const crossings: Array<{ i: number; t: number }> = [{ i: g, t: s.t[g]! }]
  let prevA = NaN
  for (let i = g + 1; i <= last; i++) {
    const x = pos.x[i]! - x0
    const y = pos.y[i]! - y0
    const a = x * ux + y * uy
    if (prevA < 0 && a >= 0 && d[i]! - d[crossings[crossings.length - 1]!.i]! >= MIN_LOOP_M) {
      const lat = Math.abs(x * uy - y * ux)
      if (lat < GATE_HALF_WIDTH_M && angleDiff(heading[i]!, h0) < GATE_MAX_HEADING) {
        // Interpolated crossing time; the run starts at the nearer sample.
        const f = prevA / (prevA - a)
        const tc = s.t[i - 1]! + f * (s.t[i]! - s.t[i - 1]!)
        crossings.push({ i: f < 0.5 ? i - 1 : i, t: tc })
      }
    }
    if (Number.isFinite(a)) prevA = a
  }
  const runs: RunSpec[] = []
  for (let k = 0; k + 1 < crossings.length; k++) {
    const a = crossings[k]!.i
    const b = crossings[k + 1]!.i
    if (movingSeconds(s, a, b) < MIN_RUN_MOVING_S) continue
    runs.push({ startT: s.t[a]!, endT: s.t[b]!, source: 'loop', label: `loop ${runs.length + 1}` })
  }
  return runs
}

/**
 * Runs of a field test, in time order: recorded laps (three or more), else out-and-back legs
 * paired into round trips (turnarounds trimmed, `pieces` = the two legs), else repeated loops
 * by position, else two recorded laps, else the whole file.
 */
export function detectRuns(samples: ActivitySamples): RunSpec[] {
  return detectRunsAndSkipped(samples).runs
}

/** `detectRuns`, with the laps it did not take as runs (recoveries, turnarounds) and why. */
export function detectRunsAndSkipped(samples: ActivitySamples): {
  runs: RunSpec[]
  skipped: SkippedLap[]
} {
  // Three or more laps are the tester's own split (its efforts kept, the rest skipped); with
  // fewer, repeated out-and-backs or loops found by position are finer.
  const fromLaps = lapRuns(samples)
  if (fromLaps.laps >= 3 && fromLaps.runs.length > 0) return fromLaps
  return { runs: runsByPosition(samples, fromLaps.runs), skipped: [] }
}

/** Out-and-backs or loops found by position, else the laps (if two), else the whole file. */
function runsByPosition(samples: ActivitySamples, laps: RunSpec[]): RunSpec[] {
  const s = samples
  const n = s.t.length
  if (n < 2) return []
  let first = 0
  while (first < n - 1 && !(s.speed[first]! >= MIN_MOVING_SPEED_MPS)) first++
  let last = n - 1
  while (last > first && !(s.speed[last]! >= MIN_MOVING_SPEED_MPS)) last--
  const whole: RunSpec[] = [
    { startT: s.t[first]!, endT: s.t[last]!, source: 'whole', label: 'whole file' },
  ]
  const pos = localPositions(s)
  if (!pos) return whole
  const d = trackDistance(pos, s)
  if (d[last]! - d[first]! < 2 * MIN_LOOP_M) return whole
  const heading = headingSeries(pos, n)
  const turns = turnarounds(pos, d, heading, s).filter((i) => i > first && i < last)
  if (turns.length > 0) {
    const runs = outAndBackRuns(s, d, turns, first, last)
    if (runs.length >= Math.max(1, laps.length)) return runs
  }
  const loops = loopRuns(s, pos, d, heading, first, last)
  if (loops.length >= Math.max(1, laps.length)) return loops
  return whole
}
