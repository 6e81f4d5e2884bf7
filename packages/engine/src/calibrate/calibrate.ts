// Calibrate from a ride: the rider's effective CdA and Crr (and a constant wind where the route
// allows) from a recorded ride with power, by the energy balance written as virtual elevation
// (Chung; the aero analysis' own fit, aero/ve.ts `fitVirtualElevation`, with the simulator's
// Martin terms so the values plug straight into a rider setup). Stops, missing power, GPS spikes,
// braking and tucked descents are left out before the fit (exclude.ts); stretches whose energy
// the first fit cannot explain (riding in a draft, gusts) are then rejected robustly from its
// residuals and the fit is repeated. Intervals: the fit's moving-block bootstrap for CdA and Crr,
// a block jackknife over the ride for the wind.
import { fitVirtualElevation } from '../aero/ve.ts'
import { prepareVe } from '../aero/series.ts'
import { median } from '../aero/random.ts'
import type {
  ActivitySamples,
  VeFitOptions,
  VeFitResult,
  VePiece,
  VeSeries,
} from '../aero/types.ts'
import { densityAt } from '../sim/model.ts'
import { EngineInputError, requireNumber } from '../sim/validate.ts'
import { binSeries } from './bins.ts'
import { energyProfile } from './drift.ts'
import type { EnergyProfile } from './drift.ts'
import type { BinnedSeries } from './bins.ts'
import { classifySamples, code } from './exclude.ts'
import type { CalibrationInput, ExclusionReason, RideCalibration } from './types.ts'
import { EXCLUSION_REASONS } from './types.ts'
import { applyRideWeather, validateRideWeather } from './weather.ts'
import type { WeatherUsed } from './weather.ts'

/** Crr held when the ride cannot separate it from CdA (a textbook road value, docs/engine/science.md §9.2). */
export const HELD_CRR = 0.005
/** Fitted values outside these ranges mean Crr and CdA were not separated (too steady a ride). */
const PLAUSIBLE_CRR: [number, number] = [0.0015, 0.02]
const PLAUSIBLE_CDA: [number, number] = [0.1, 0.8]
/** Window (s) over which the residual's drift rate is judged, and the robust z beyond which a
 * window is rejected as drafting (energy missing) or an outlier (energy in excess). */
export const OUTLIER_WINDOW_S = 60
export const OUTLIER_Z = 3.5
/**
 * Floor of the residual drift's robust scale (m/s of virtual elevation): on very clean data the
 * spread is tiny and any window would be an outlier. 0.01 m/s is ≈8 W for an 80 kg system, so a
 * window is rejected only beyond ≈28 W of unexplained power (a draft saves far more).
 */
export const MIN_OUTLIER_SCALE_MPS = 0.01
/** Bootstrap resamples of the CdA and Crr intervals unless the caller says. */
export const DEFAULT_RESAMPLES = 50
/** Samples are merged into bins of this many seconds for the fit (bins.ts). */
export const BIN_S = 10
/** Blocks of the jackknife for the wind's interval. */
const JACKKNIFE_BLOCKS = 6
/** Points of the chart series at most. */
const CHART_POINTS = 2000

function validate(samples: ActivitySamples, o: CalibrationInput): void {
  requireNumber('massKg', o.massKg, 20, 250)
  requireNumber('bikeMassKg', o.bikeMassKg, 0, 60)
  if (o.drivetrainEfficiency !== undefined)
    requireNumber('drivetrainEfficiency', o.drivetrainEfficiency, 0.5, 1)
  if (o.crr !== undefined) requireNumber('crr', o.crr, 0, 0.05)
  if (o.pieceS !== undefined) requireNumber('pieceS', o.pieceS, 10, 86_400)
  if (o.binS !== undefined) requireNumber('binS', o.binS, 0, 60)
  if (o.coastPowerW !== undefined) requireNumber('coastPowerW', o.coastPowerW, 0, 200)
  if (o.coastingDescentMps !== undefined)
    requireNumber('coastingDescentMps', o.coastingDescentMps, 3, 40)
  if (o.resamples !== undefined) requireNumber('resamples', o.resamples, 0, 2000)
  const n = samples.t.length
  if (n < 30) throw new EngineInputError('samples', `expected at least 30 samples, got ${n}`)
  if (samples.power.length !== n || samples.speed.length !== n)
    throw new EngineInputError('samples', 'expected power and speed for every sample')
  if (o.headingRad && o.headingRad.length !== n)
    throw new EngineInputError(
      'headingRad',
      `expected one heading per sample (${n}), got ${o.headingRad.length}`,
    )
}

/** Density per sample as the simulator computes it from the environment (sim/model.ts). */
function applyEnvironment(
  ve: VeSeries,
  samples: ActivitySamples,
  env: CalibrationInput['environment'],
): void {
  if (!env) return
  const alt = samples.altitude
  let startAlt = 0
  if (alt)
    for (let i = 0; i < alt.length; i++)
      if (Number.isFinite(alt[i])) {
        startAlt = alt[i]!
        break
      }
  for (let i = 0; i < ve.n; i++) {
    const a = alt && Number.isFinite(alt[i]) ? alt[i]! : startAlt
    ve.rho[i] = densityAt(env, a, startAlt)
  }
}

/** Sample indices where a new piece of at most `pieceS` seconds starts (own elevation offset). */
function pieceBreaks(t: Float64Array, pieceS: number): Set<number> {
  const breaks = new Set<number>()
  let start = 0
  for (let i = 1; i < t.length; i++) {
    if (t[i]! - t[start]! >= pieceS) {
      breaks.add(i)
      start = i
    }
  }
  return breaks
}

/** The pieces over the bins: a new one where a bin starts at a break. */
function binPieces(bins: BinnedSeries, breaks: Set<number>): VePiece[] {
  const pieces: VePiece[] = []
  let start = 0
  for (let k = 1; k <= bins.series.n; k++) {
    if (k === bins.series.n || breaks.has(bins.first[k]!)) {
      pieces.push({ start, end: k, group: 0 })
      start = k
    }
  }
  return pieces
}

function maskOf(marks: Uint8Array): Uint8Array {
  const mask = new Uint8Array(marks.length)
  for (let i = 0; i < marks.length; i++) mask[i] = marks[i] === 0 ? 1 : 0
  return mask
}

/**
 * Windows of about OUTLIER_WINDOW_S over the samples the fit used: the drift rate of the
 * residual (m/s of elevation the model cannot explain) and the window's samples.
 */
function residualWindows(
  t: Float64Array,
  res: Float64Array,
): { a: number; b: number; rate: number }[] {
  const out: { a: number; b: number; rate: number }[] = []
  const n = t.length
  let i = 0
  while (i < n) {
    if (!Number.isFinite(res[i])) {
      i++
      continue
    }
    // A contiguous run of used samples (the fit's own stretches: each has its own offset).
    let j = i
    while (j + 1 < n && Number.isFinite(res[j + 1])) j++
    let a = i
    while (a < j) {
      let b = a
      while (b < j && t[b + 1]! - t[a]! <= OUTLIER_WINDOW_S) b++
      if (b > a && t[b]! - t[a]! >= OUTLIER_WINDOW_S / 3) {
        out.push({ a, b, rate: (res[b]! - res[a]!) / (t[b]! - t[a]!) })
      }
      a = b + 1
    }
    i = j + 1
  }
  return out
}

/**
 * Marks the windows whose residual drift is a robust outlier (bins and their samples); returns
 * how many bins changed.
 */
function rejectOutliers(bins: BinnedSeries, fit: VeFitResult, marks: Uint8Array): number {
  const windows = residualWindows(bins.series.t, fit.residuals)
  if (windows.length < 10) return 0
  const rates = windows.map((w) => w.rate)
  const mid = median(rates)
  const scale = Math.max(
    MIN_OUTLIER_SCALE_MPS,
    1.4826 * median(rates.map((r) => Math.abs(r - mid))),
  )
  let changed = 0
  for (const w of windows) {
    const z = (w.rate - mid) / scale
    if (Math.abs(z) <= OUTLIER_Z) continue
    const c = code(z > 0 ? 'drafting' : 'outlier')
    for (let k = w.a; k <= w.b; k++) {
      if (bins.marks[k] !== 0) continue
      bins.marks[k] = c
      for (let i = bins.first[k]!; i <= bins.last[k]!; i++) marks[i] = c
      changed++
    }
  }
  return changed
}

const plausible = (fit: VeFitResult): boolean =>
  fit.crrFixed ||
  (fit.crr >= PLAUSIBLE_CRR[0] &&
    fit.crr <= PLAUSIBLE_CRR[1] &&
    fit.cda[0]! >= PLAUSIBLE_CDA[0] &&
    fit.cda[0]! <= PLAUSIBLE_CDA[1])

const nonNegative = ([lo, hi]: [number, number]): [number, number] => [Math.max(0, lo), hi]

/** Direction the wind blows FROM (degrees clockwise from north) of a vector it blows TOWARDS. */
export function windFromDeg(eastMps: number, northMps: number): number {
  const d = (Math.atan2(-eastMps, -northMps) * 180) / Math.PI
  return (d + 360) % 360
}

/**
 * Fits the rider's effective CdA and Crr (and a constant wind where the headings vary enough)
 * to a recorded ride with power. Deterministic (seeded bootstrap). Throws EngineInputError for
 * bad input ("field: expected X, got Y").
 */
export function calibrateRide(samples: ActivitySamples, input: CalibrationInput): RideCalibration {
  return fitRide(samples, input).calibration
}

/** `calibrateRide` and the ride's elevation as the fit's energy balance sees it (drift.ts). */
export function fitRide(
  samples: ActivitySamples,
  input: CalibrationInput,
): { calibration: RideCalibration; profile: EnergyProfile | null } {
  validate(samples, input)
  const warnings: string[] = []
  const massKg = input.massKg + input.bikeMassKg
  const ve = prepareVe(samples, {})
  applyEnvironment(ve, samples, input.environment)
  if (input.headingRad) ve.heading = input.headingRad
  let weather: WeatherUsed | null = null
  if (input.weather) {
    validateRideWeather(input.weather, samples)
    weather = applyRideWeather(ve, samples, input.weather)
  }
  const marks = classifySamples(samples, ve, {
    massKg,
    coastPowerW: input.coastPowerW ?? 20,
    coastingDescentMps: input.coastingDescentMps ?? 12,
    startS: input.startS ?? -Infinity,
    endS: input.endS ?? Infinity,
  })
  const breaks = pieceBreaks(ve.t, input.pieceS ?? 300)
  const bins = binSeries(ve, marks, input.binS ?? BIN_S, breaks)
  const pieces = binPieces(bins, breaks)
  const series = bins.series
  const base: VeFitOptions = {
    massKg,
    drivetrainEfficiency: input.drivetrainEfficiency ?? 0.976,
    fitWind: weather ? false : (input.fitWind ?? true),
    resamples: 0,
    seed: input.seed ?? 1,
  }
  if (input.crr !== undefined) base.crr = input.crr
  const note = (f: VeFitResult): VeFitResult => {
    for (const w of f.warnings) if (!warnings.includes(w)) warnings.push(w)
    return f
  }
  const fit = (mask: Uint8Array, resamples: number): VeFitResult => {
    const f = note(fitVirtualElevation(series, pieces, { ...base, mask, resamples }))
    if (plausible(f) || base.crr !== undefined) return f
    warnings.push(
      `Crr and CdA could not be separated on this ride (fitted ${f.crr.toFixed(4)} and ${f.cda[0]!.toFixed(3)} m²: too little change of speed): Crr held at ${HELD_CRR}`,
    )
    base.crr = HELD_CRR
    return note(fitVirtualElevation(series, pieces, { ...base, mask, resamples }))
  }
  let first = fit(maskOf(bins.marks), 0)
  if (!Number.isFinite(first.cda[0]))
    throw new EngineInputError(
      'samples',
      `expected a ride with enough moving samples with power to fit, got ${first.samplesUsed} (${first.warnings.join('; ')})`,
    )
  // Robust rejection of the stretches the first fit cannot explain, then the final fit.
  // Crr held by the first fit (its own fallback or ours) stays held: no refit of the same ridge.
  if (first.crrFixed && base.crr === undefined) base.crr = first.crr
  if (rejectOutliers(bins, first, marks) > 0) first = fit(maskOf(bins.marks), 0)
  rejectOutliers(bins, first, marks)
  const final = fit(maskOf(bins.marks), input.resamples ?? DEFAULT_RESAMPLES)

  // Samples the filters kept but the fit could not use (stretches too short to fit).
  let samplesUsed = 0
  for (let k = 0; k < series.n; k++) {
    const usedBin = Number.isFinite(final.residuals[k])
    for (let i = bins.first[k]!; i <= bins.last[k]!; i++) {
      if (usedBin && marks[i] === 0) samplesUsed++
      else if (marks[i] === 0) marks[i] = code('short_stretch')
    }
  }
  const excluded = Object.fromEntries(EXCLUSION_REASONS.map((r) => [r, 0])) as Record<
    ExclusionReason,
    number
  >
  for (let i = 0; i < ve.n; i++) if (marks[i]! > 0) excluded[EXCLUSION_REASONS[marks[i]! - 1]!]++

  const wind = final.windFitted ? windEstimate(series, pieces, base, bins.marks, final) : null
  if (!final.windFitted && !weather && (input.fitWind ?? true)) {
    warnings.push('no wind fitted: the headings do not vary enough to separate wind from CdA')
  }
  let rho = 0
  let used = 0
  for (let k = 0; k < series.n; k++) {
    if (Number.isFinite(final.residuals[k])) {
      rho += series.rho[k]! * series.dt[k]!
      used += series.dt[k]!
    }
  }
  const profile = samples.distance
    ? energyProfile(bins, pieces, final.residuals, samples.distance)
    : null
  const calibration: RideCalibration = {
    // A drag area or rolling coefficient below 0 is impossible: intervals start at 0 at most.
    cdaM2: { value: final.cda[0]!, ci95: nonNegative(final.cdaCi95[0]!) },
    crr: { value: final.crr, ci95: nonNegative(final.crrCi95) },
    crrFixed: final.crrFixed,
    wind,
    samplesUsed,
    excluded,
    rmseM: final.rmseM,
    chart: chartOf(series, final),
    airDensity: used > 0 ? rho / used : NaN,
    weather,
    warnings,
  }
  return { calibration, profile }
}

/**
 * The fitted wind with a 95 % interval of its speed from a delete-one-block jackknife over the
 * ride (the fit's bootstrap does not carry the wind).
 */
function windEstimate(
  ve: VeSeries,
  pieces: VePiece[],
  base: VeFitOptions,
  marks: Uint8Array,
  final: VeFitResult,
): NonNullable<RideCalibration['wind']> {
  const speed = Math.hypot(final.windE, final.windN)
  const t0 = ve.t[0]!
  const span = ve.t[ve.n - 1]! - t0
  const values: number[] = []
  for (let k = 0; k < JACKKNIFE_BLOCKS; k++) {
    const lo = t0 + (span * k) / JACKKNIFE_BLOCKS
    const hi = t0 + (span * (k + 1)) / JACKKNIFE_BLOCKS
    const mask = maskOf(marks)
    for (let i = 0; i < ve.n; i++) if (ve.t[i]! >= lo && ve.t[i]! < hi) mask[i] = 0
    const f = fitVirtualElevation(ve, pieces, { ...base, mask, resamples: 0 })
    if (f.windFitted && Number.isFinite(f.windE)) values.push(Math.hypot(f.windE, f.windN))
  }
  let half = NaN
  if (values.length >= 3) {
    const g = values.length
    const mean = values.reduce((a, b) => a + b, 0) / g
    const variance = ((g - 1) / g) * values.reduce((a, v) => a + (v - mean) ** 2, 0)
    half = 1.96 * Math.sqrt(variance)
  }
  return {
    speedMps: { value: speed, ci95: [Math.max(0, speed - half), speed + half] },
    fromDeg: windFromDeg(final.windE, final.windN),
    eastMps: final.windE,
    northMps: final.windN,
  }
}

/** Measured and virtual elevation and the residual, thinned to at most CHART_POINTS points. */
function chartOf(ve: VeSeries, fit: VeFitResult): RideCalibration['chart'] {
  const stride = Math.max(1, Math.ceil(ve.n / CHART_POINTS))
  const chart: RideCalibration['chart'] = { t: [], elevationM: [], virtualM: [], residualM: [] }
  const r3 = (x: number) => Math.round(x * 1000) / 1000
  for (let i = 0; i < ve.n; i += stride) {
    const h = ve.elevation ? ve.elevation[i]! : 0
    const r = fit.residuals[i]!
    chart.t.push(r3(ve.t[i]!))
    chart.elevationM.push(r3(h))
    chart.virtualM.push(Number.isFinite(r) ? r3(h - r) : NaN)
    chart.residualM.push(Number.isFinite(r) ? r3(r) : NaN)
  }
  return chart
}
