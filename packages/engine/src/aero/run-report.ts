// One run as the analysis reports it: its samples counted (used, stopped, braking, freewheeling),
// means, VE residual, yaw, the flags a rider should see, and its CdA and Crr with their intervals
// by the run's method.
import type {
  AeroMethod,
  AeroRun,
  AeroRunFlag,
  ActivitySamples,
  VeFitResult,
  VeSeries,
} from './types.ts'
import type { ResolvedRun } from './analyze-runs.ts'
import type { DirectRunResult } from './direct.ts'
import { soundRun } from './sound.ts'

/** What every run's report takes of the analysis. */
export interface RunReportContext {
  samples: ActivitySamples
  series: VeSeries
  /** 0 where a sample is braking; 0 where the fit leaves a sample out (braking or freewheeling). */
  braked: Uint8Array
  mask: Uint8Array
  session: VeFitResult
  fit: VeFitResult
  firstPiece: number[]
  /** The direct method's results per run and its calibration factor, null for virtual elevation. */
  direct: { results: DirectRunResult[]; cal: number } | null
  crr: number
  /** Each run's rolling-resistance group (tyres), index into the session fit's Crr shifts. */
  tyreOf: number[]
  /** The given Crr, if any. */
  inputCrr: number | undefined
  crrHeld: string | null
  pos: { x: Float64Array; y: Float64Array } | null
}

/** Sums over a run's samples. */
interface RunTally {
  n: number
  nValid: number
  sv: number
  sp: number
  sr: number
  ss: number
  nRes: number
  braking: number
  freewheel: number
  yawSum: number
  yawN: number
}

function tally(x: RunReportContext, r: ResolvedRun): RunTally {
  const { samples, series, braked, mask, fit, session } = x
  const windE = fit.windE
  const windN = fit.windN
  const t: RunTally = {
    n: 0,
    nValid: 0,
    sv: 0,
    sp: 0,
    sr: 0,
    ss: 0,
    nRes: 0,
    braking: 0,
    freewheel: 0,
    yawSum: 0,
    yawN: 0,
  }
  for (const [a, b] of r.pieces) {
    for (let i = a; i < b; i++) {
      t.n++
      if (series.valid[i] !== 1) continue
      t.nValid++
      t.sv += series.speed[i]!
      t.sp += series.power[i]!
      t.sr += series.rho[i]!
      if (braked[i] === 0) t.braking++
      else if (mask[i] === 0) t.freewheel++
      const res = fit.residuals[i]!
      if (Number.isFinite(res)) {
        t.ss += res * res
        t.nRes++
      }
      if (samples.yaw && Number.isFinite(samples.yaw[i])) {
        t.yawSum += Math.abs(samples.yaw[i]!)
        t.yawN++
      } else if (session.windFitted && Number.isFinite(series.heading[i])) {
        const h = series.heading[i]!
        const ax = series.speed[i]! - (windE * Math.sin(h) + windN * Math.cos(h))
        const lat = windE * Math.cos(h) - windN * Math.sin(h)
        t.yawSum += Math.abs(Math.atan2(lat, ax))
        t.yawN++
      }
    }
  }
  return t
}

/**
 * Braking, stops and freewheeling are left out sample by sample (the mask): a run is flagged
 * only when they take much of it.
 */
function runFlags(
  x: RunReportContext,
  r: ResolvedRun,
  t: RunTally,
  o: { method: AeroMethod; cda: number; rmse: number; samplesUsed: number },
): AeroRunFlag[] {
  const { pos, series } = x
  const { n, nValid, braking, freewheel } = t
  const flags: AeroRunFlag[] = []
  if (braking >= 0.25 * Math.max(1, nValid)) flags.push('braking')
  if (n > 0 && nValid - braking - freewheel < 0.5 * n) flags.push('too_little_left')
  if (
    pos &&
    r.pieces.length > 0 &&
    (r.source === 'loop' || r.source === 'lap' || r.source === 'out_and_back')
  ) {
    const a = r.pieces[0]![0]
    const b = r.pieces[r.pieces.length - 1]![1] - 1
    const gap = Math.hypot(pos.x[b]! - pos.x[a]!, pos.y[b]! - pos.y[a]!)
    if (gap > 50) flags.push('non_closing_loop')
  }
  if (t.yawN > 0 && t.yawSum / t.yawN > (10 * Math.PI) / 180) flags.push('high_yaw')
  if (o.samplesUsed < 60) flags.push('few_samples')
  if (!series.elevation && o.method === 've') flags.push('no_elevation')
  if (o.method === 've' && Number.isFinite(o.rmse) && o.rmse > 2.5) flags.push('poor_fit')
  if (n > 0 && nValid < 0.9 * n) flags.push('speed_gaps')
  if (Number.isFinite(o.cda) && (o.cda < 0.1 || o.cda > 0.8)) flags.push('implausible_cda')
  return flags
}

/**
 * Run k's Crr and its interval: the session's, or its tyres' (the session's Crr plus the fitted
 * shift of its rolling-resistance group, with that group's own interval).
 */
function runCrr(x: RunReportContext, k: number): { crr: number; crrCi95: [number, number] } {
  const { session, crr } = x
  if (x.inputCrr !== undefined || session.crrFixed) return { crr, crrCi95: [crr, crr] }
  const g = x.tyreOf[k] ?? 0
  if (g === 0) return { crr, crrCi95: session.crrCi95 }
  return { crr: crr + (session.crrShift[g] ?? 0), crrCi95: session.crrGroupCi95[g]! }
}

/** Run k's report: its figures by its method, flags, and every unsound figure withheld. */
export function reportRun(x: RunReportContext, r: ResolvedRun, k: number): AeroRun {
  const { fit, session, firstPiece } = x
  const t = tally(x, r)
  const { n, nValid } = t
  const rmse = t.nRes > 0 ? Math.sqrt(t.ss / t.nRes) : NaN
  const d = x.direct ? x.direct.results[k]! : null
  const method: AeroMethod = d ? 'direct' : 've'
  const cda = d ? d.cda : fit.cda[k]!
  const cdaCi95: [number, number] = d ? d.cdaCi95 : fit.cdaCi95[k]!
  const samplesUsed = d ? d.samplesUsed : t.nRes
  const flags = runFlags(x, r, t, { method, cda, rmse, samplesUsed })
  const run: AeroRun = {
    index: k,
    label: r.label,
    configuration: r.configuration,
    source: r.source,
    startT: r.startT,
    endT: r.endT,
    method,
    cda,
    cdaCi95,
    ...runCrr(x, k),
    veRmseM: rmse,
    elevationOffsetM: fit.offsets[firstPiece[k]!] ?? NaN,
    veSegments: fit.segments
      .filter((g) => g.piece >= firstPiece[k]! && g.piece < firstPiece[k]! + r.pieces.length)
      .map(({ start, end, offsetM }) => ({ start, end, offsetM })),
    meanSpeedMps: nValid > 0 ? t.sv / nValid : NaN,
    meanPowerW: nValid > 0 ? t.sp / nValid : NaN,
    airDensity: nValid > 0 ? t.sr / nValid : NaN,
    samplesUsed,
    excludedSamples: { stop: n - nValid, braking: t.braking, freewheel: t.freewheel },
    flags,
    withheld: [],
  }
  if (session.windFitted) {
    const windE = fit.windE
    const windN = fit.windN
    run.windMps = Math.hypot(windE, windN)
    run.windFromDeg = ((Math.atan2(-windE, -windN) * 180) / Math.PI + 360) % 360
    run.windE = windE
    run.windN = windN
  }
  if (x.direct) run.calibrationFactor = x.direct.cal
  // direct runs take the VE Crr: its interval is the VE fit's (or none when held)
  return soundRun(run, x.crrHeld)
}
