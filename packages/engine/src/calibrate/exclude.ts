// Which samples of a recorded ride the calibration fits, and why the others are left out: stops,
// missing power, GPS spikes, braking (power ≈ 0 while slowing faster than the air and the tyres
// can explain) and tucked descents. Drafting and other outliers are found afterwards from the
// fit's residuals (calibrate.ts). Each sample gets one reason, the first that applies.
import { G0 } from '../physics/constants.ts'
import { MAX_SAMPLE_GAP_S, MIN_MOVING_SPEED_MPS } from '../aero/series.ts'
import type { ActivitySamples, VeSeries } from '../aero/types.ts'
import { EXCLUSION_REASONS, type ExclusionReason } from './types.ts'

/** Acceleration no bicycle reaches (|a|, m/s²): a speed jump is a sensor or GPS spike. */
export const SPIKE_ACCELERATION_MPS2 = 6
/** Vertical speed no road ridden by bicycle allows (m/s): an elevation jump is a spike. */
export const SPIKE_CLIMB_RATE_MPS = 4
/** Samples marked on each side of a spike (s): the recording settles after one. */
export const SPIKE_MARGIN_S = 3
/**
 * Coasting deceleration bound: a coasting rider slows at most by g·(grade + Crr) plus the air
 * drag of an upright rider; we take generous values (CdA 0.5 m², Crr 0.01) and a 0.3 m/s² margin,
 * so only real braking exceeds it.
 */
const COAST_CDA_M2 = 0.5
const COAST_CRR = 0.01
const BRAKING_MARGIN_MPS2 = 0.3
/** Samples marked after braking ends (s): the speed settles. */
const BRAKING_MARGIN_S = 2

export interface ExclusionOptions {
  massKg: number
  coastPowerW: number
  coastingDescentMps: number
  startS: number
  endS: number
}

/** Code per sample: 0 = used, else 1 + the index of the reason in `EXCLUSION_REASONS`. */
export const code = (r: ExclusionReason): number => EXCLUSION_REASONS.indexOf(r) + 1

/** Marks samples [i − before, i + after] (by time) with `c` where nothing is marked yet. */
function dilate(
  t: Float64Array,
  marks: Uint8Array,
  hits: Uint8Array,
  c: number,
  margin: number,
): void {
  const n = t.length
  for (let i = 0; i < n; i++) {
    if (hits[i] !== 1) continue
    for (let j = i; j >= 0 && t[i]! - t[j]! <= margin; j--) if (marks[j] === 0) marks[j] = c
    for (let j = i + 1; j < n && t[j]! - t[i]! <= margin; j++) if (marks[j] === 0) marks[j] = c
  }
}

/**
 * The exclusion code of every sample before the fit (see EXCLUSION_REASONS), from the samples and
 * the prepared series (its `valid` flags, density and elevation).
 */
export function classifySamples(s: ActivitySamples, ve: VeSeries, o: ExclusionOptions): Uint8Array {
  const n = ve.n
  const marks = new Uint8Array(n)
  const { t, speed, power, dt } = ve
  // Range, stops and missing power: the samples prepareVe already refuses, with their reason.
  for (let i = 0; i < n; i++) {
    if (!(t[i]! >= o.startS && t[i]! < o.endS)) marks[i] = code('outside_range')
    else if (ve.valid[i] === 1) continue
    else {
      const v = speed[i]!
      const p = power[i]!
      const gap = i > 0 && !(dt[i]! > 0 && dt[i]! <= MAX_SAMPLE_GAP_S)
      if (!(v >= MIN_MOVING_SPEED_MPS) || gap) marks[i] = code('stopped')
      else if (!(Number.isFinite(p) && p >= 0 && p < 3000)) marks[i] = code('no_power')
      else marks[i] = code('gps_spike') // a moving sample refused for its speed (≥ 40 m/s)
    }
  }
  // Spikes: acceleration or climb rate beyond what a bicycle does.
  const hits = new Uint8Array(n)
  const h = ve.elevation
  for (let i = 1; i < n; i++) {
    const d = dt[i]!
    if (!(d > 0) || d > MAX_SAMPLE_GAP_S) continue
    const a = (speed[i]! - speed[i - 1]!) / d
    const climb = h ? (h[i]! - h[i - 1]!) / d : 0
    if (Math.abs(a) > SPIKE_ACCELERATION_MPS2 || Math.abs(climb) > SPIKE_CLIMB_RATE_MPS) hits[i] = 1
  }
  dilate(t, marks, hits, code('gps_spike'), SPIKE_MARGIN_S)

  // Braking and tucked descents: power ≈ 0 while moving.
  hits.fill(0)
  const m = o.massKg
  for (let i = 1; i < n - 1; i++) {
    if (marks[i] !== 0 || !(power[i]! <= o.coastPowerW)) continue
    const v = speed[i]!
    if (v > o.coastingDescentMps) {
      marks[i] = code('coasting_descent')
      continue
    }
    // Deceleration over the neighbours and the grade over about ±5 s of road.
    const span = t[i + 1]! - t[i - 1]!
    if (!(span > 0) || span > 2 * MAX_SAMPLE_GAP_S) continue
    const a = (speed[i + 1]! - speed[i - 1]!) / span
    let grade = 0
    if (h) {
      const lo = Math.max(0, i - 5)
      const hi = Math.min(n - 1, i + 5)
      let run = 0
      for (let j = lo + 1; j <= hi; j++) run += speed[j]! * dt[j]!
      if (run > 5 && Number.isFinite(h[hi]) && Number.isFinite(h[lo]))
        grade = (h[hi]! - h[lo]!) / run
    }
    const coast =
      -G0 * (grade + COAST_CRR) -
      (ve.rho[i]! * COAST_CDA_M2 * v * v) / (2 * m) -
      BRAKING_MARGIN_MPS2
    if (a < coast) hits[i] = 1
  }
  dilate(t, marks, hits, code('braking'), BRAKING_MARGIN_S)
  return marks
}
