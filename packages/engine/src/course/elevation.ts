// The elevation of a course being built: missing values filled (or the file rejected), spikes
// removed, a recorded loop's barometric drift closed, and the profile resampled into equal
// segments (smoothed; a recording's corrected altitudes held inside the range its sensor read).
import { groundDistance } from './geo.ts'
import { CourseError } from './build-types.ts'
import type { BuildCourseOptions, RawPoints } from './build-types.ts'
import type { KeptPoints } from './points.ts'
import { fillGaps, interpolator, median5, movingAverage } from './profile.ts'

const finite = Number.isFinite
/** A recording whose first and last positions are this close (m) is a loop. */
const LOOP_CLOSE_M = 200

/** The kept points' elevation after filling and spike removal. */
export interface CleanElevation {
  /** Elevation at each kept point (m). */
  z: Float64Array
  /** Points whose elevation was filled by interpolation. */
  missing: number
  /** Points replaced as spikes. */
  spikes: number
}

/** Rejects a file without (enough) elevation, fills gaps by interpolation in distance, removes spikes. */
export function cleanElevation(
  x: Float64Array,
  ele: number[],
  opts: BuildCourseOptions,
): CleanElevation {
  const m = x.length
  let missing = 0
  for (let i = 0; i < m; i++) if (!finite(ele[i]!)) missing++
  if (missing === m) {
    throw new CourseError('no_elevation', `expected elevation data, got none in ${m} points`)
  }
  const maxMissing = opts.maxMissingElevation ?? 0.5
  if (missing > maxMissing * m) {
    throw new CourseError(
      'too_much_missing_elevation',
      `expected elevation in at least ${Math.round((1 - maxMissing) * 100)} % of the points, got ${m - missing} of ${m}`,
    )
  }
  const z = new Float64Array(m)
  fillGaps(x, ele, z)
  // Spikes: far from the median of the 5-point neighbourhood → replaced by interpolation.
  const spikeM = opts.spikeThresholdM ?? 25
  let spikes = 0
  if (m >= 5) {
    const bad: number[] = []
    for (let i = 0; i < m; i++) {
      const a = Math.max(0, Math.min(m - 5, i - 2))
      const med = median5(z[a]!, z[a + 1]!, z[a + 2]!, z[a + 3]!, z[a + 4]!)
      if (Math.abs(z[i]! - med) > spikeM) bad.push(i)
    }
    if (bad.length > 0 && bad.length < m / 2) {
      const e2 = Array.from(z) as number[]
      for (const i of bad) e2[i] = NaN
      fillGaps(x, e2, z)
      spikes = bad.length
    }
  }
  return { z, missing, spikes }
}

/** A recorded ride: dense timestamped points (~1 s apart), elevation from a barometer or GPS. */
export function isRecordedRide(raw: RawPoints, length: number, m: number): boolean {
  const n0 = raw.lat.length
  let timed = 0
  if (raw.time) for (let i = 0; i < n0; i++) if (finite(raw.time[i]!)) timed++
  return length / (m - 1) < 20 && timed >= 0.5 * n0
}

/**
 * Barometric drift on a loop: a recording that ends where it started (in position) ends at the
 * altitude it started at. What the stops did not explain is weather drift, removed from `z` in
 * proportion to the moving time (pressure changes with time, not with distance). Returns the
 * difference removed, null when not a recorded loop.
 */
export function closeLoop(z: Float64Array, kept: KeptPoints, usePos: boolean): number | null {
  const { lat, lon, clock, moving } = kept
  const m = z.length
  if (!(usePos && moving > 0)) return null
  const gap = groundDistance(lat[0]!, lon[0]!, lat[m - 1]!, lon[m - 1]!)
  if (gap > LOOP_CLOSE_M) return null
  const loopClosureM = z[m - 1]! - z[0]!
  for (let i = 0; i < m; i++) z[i] = z[i]! - (loopClosureM * clock[i]!) / moving
  return loopClosureM
}

/** The altitude profile at the segment boundaries. */
export interface ResampledProfile {
  nSeg: number
  /** Distance at each boundary (m), nSeg + 1 values ending at the length. */
  start: Float64Array
  /** Altitude at each boundary (m). */
  alt: Float64Array
  /** Largest distance (m) by which an altitude was brought back into the file's range. */
  clampedM: number
}

/** Resamples the altitude into equal segments, smooths it, and clamps a recording's to its range. */
export function resampleProfile(
  raw: RawPoints,
  x: Float64Array,
  z: Float64Array,
  recorded: boolean,
  opts: BuildCourseOptions,
): ResampledProfile {
  const length = x[x.length - 1]!
  const target = opts.segmentLengthM ?? 10
  const nSeg = Math.max(1, Math.round(length / target))
  const seg = length / nSeg
  const altAt = interpolator(x, z)
  const alt = new Float64Array(nSeg + 1)
  const start = new Float64Array(nSeg + 1)
  for (let k = 0; k <= nSeg; k++) {
    start[k] = k === nSeg ? length : k * seg
    alt[k] = altAt(start[k]!)
  }
  // A recorded ride carries GPS/barometric noise that would add false climbing: smooth over a
  // wider window than for planned routes.
  const smooth = opts.smoothingM ?? (recorded ? 100 : 25)
  const half = Math.floor(smooth / seg)
  if (half >= 1) movingAverage(alt, half)
  // A recording's corrected altitudes stay within what its sensor measured: drift removal that
  // would go beyond (e.g. the loop closure) is held at the file's lowest/highest value.
  let clampedM = 0
  if (recorded) {
    let lo = Infinity
    let hi = -Infinity
    for (let i = 0; i < raw.lat.length; i++) {
      const e = raw.ele[i]!
      if (!finite(e)) continue
      if (e < lo) lo = e
      if (e > hi) hi = e
    }
    for (let k = 0; k <= nSeg; k++) {
      const a = alt[k]!
      const c = a < lo ? lo : a > hi ? hi : a
      clampedM = Math.max(clampedM, Math.abs(c - a))
      alt[k] = c
    }
  }
  return { nSeg, start, alt, clampedM }
}
