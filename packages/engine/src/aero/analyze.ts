// The aero analysis of one field-test file: runs (given or detected), CdA and Crr per run with
// 95 % intervals by virtual elevation or the direct method, and the baseline comparison.
import { MARTIN } from '../physics/constants.ts'
import { EngineInputError } from '../sim/validate.ts'
import type {
  ActivitySamples,
  AeroAnalysis,
  AeroAnalysisInput,
  AeroComparison,
  AeroMethod,
  AeroRun,
  AeroWindow,
  VeFitResult,
  VeSeries,
} from './types.ts'
import { VE_EXCLUDED } from './types.ts'
import { hasChannel } from './analyze-channels.ts'
import { brakingMask, FREEWHEEL_SETTLE_S, freewheelMask, MIN_FREEWHEEL_S } from './analyze-masks.ts'
import { resolveRun, type ResolvedRun } from './analyze-runs.ts'
import { planAnswer } from './plan.ts'
import { compareRuns, type CompareRun, type JointFit } from './compare.ts'
import { directRuns, fittedCalibrationFactor, type DirectRuns } from './direct-runs.ts'
import { reportRun } from './run-report.ts'
import { detectRunsAndSkipped } from './runs.ts'
import {
  densitySeries,
  localPositions,
  positionAveragedElevation,
  prepareVe,
  type PrepareVeOptions,
} from './series.ts'
import { fitSession } from './ve-session.ts'
import { validateAeroInput, validateSamples } from './validate.ts'

export { DEFAULT_CALIBRATION_FACTOR } from './direct-runs.ts'
export const DEFAULT_REFERENCE_SPEED_MPS = 40 / 3.6
export const DEFAULT_REFERENCE_POWER_W = 300

/** Elevation by position: cell size (m) and the share of samples on ground ridden again. */
const ELEVATION_CELL_M = 20
const MIN_REVISITED = 0.5

/**
 * Analyses a field test: CdA and Crr per run with 95 % intervals, the method per run ('ve' or
 * 'direct'), CdA per window (direct method), and the drift-corrected comparison to the baseline.
 * Throws `EngineInputError` naming the field for bad input.
 */
export function analyzeAero(samples: ActivitySamples, input: AeroAnalysisInput): AeroAnalysis {
  validateSamples(samples)
  validateAeroInput(input)
  const warnings: string[] = []
  const massKg = input.massKg
  const eta = input.drivetrainEfficiency ?? MARTIN.drivetrainEfficiency
  const resamples = input.resamples ?? 200
  const detected = input.runs ? null : detectRunsAndSkipped(samples)
  const specs = input.runs ?? detected!.runs
  const runs = specs
    .map((r, k) => resolveRun(samples, r, k))
    .sort((a, b) => a.startT - b.startT || a.endT - b.endT)
  if (runs.length === 0)
    throw new EngineInputError('runs', 'expected at least one run, got none (no moving samples)')
  const method = methodOf(samples, input)
  const densityOptions = { airDensity: input.airDensity, environment: input.environment }
  if (densitySeries(samples, densityOptions).source === 'default') {
    warnings.push(
      'no air density, environment, temperature/pressure or altitude: ISA sea level 1.225 kg/m³ used',
    )
  }
  const { series, braked, mask } = veSeries(samples, input, densityOptions, warnings, eta)
  const common = { massKg, drivetrainEfficiency: eta, mask, resamples, seed: input.seed ?? 1 }
  const { session, configs, fit, firstPiece, crr, crrHeld, tyres, tyreOf } = fitSession(
    series,
    runs,
    common,
    input,
    warnings,
  )
  // Direct method where air speed exists.
  const direct =
    method === 'direct'
      ? directRuns(
          {
            samples,
            runs,
            input,
            densityOptions,
            massKg,
            eta,
            crr,
            intervals: resamples > 0,
            session,
            hasElevation: !!series.elevation,
          },
          warnings,
        )
      : null
  const baseline = input.baseline ?? runs[0]!.configuration
  const pos = localPositions(samples)
  const out = runs.map((r, k) =>
    reportRun(
      {
        samples,
        series,
        braked,
        mask,
        session,
        fit,
        firstPiece,
        direct,
        crr,
        tyreOf,
        inputCrr: input.crr,
        crrHeld,
        pos,
      },
      r,
      k,
    ),
  )
  const joint = direct ? undefined : jointFit(session, configs, tyres)
  const comparison = compareSession(out, runs, fit, direct, joint, {
    input,
    baseline,
    massKg,
    eta,
    crr,
  })
  if (!comparison)
    warnings.push(`no run of the baseline configuration "${baseline}" has a CdA: no comparison`)
  const plan = planAnswer(comparison, out, {
    ...(input.resolveCda !== undefined ? { delta: input.resolveCda } : {}),
  })
  return {
    runs: out,
    windows: direct ? directWindows(samples, direct) : [],
    comparison,
    plan,
    fittedCalibrationFactor: direct
      ? fittedCalibrationFactor(direct, runs, fit.cda, baseline)
      : null,
    crr,
    crrByTyre: crrByTyre(session, tyres, crr),
    veModel: series.track ? 'track' : 'road',
    veSeries: series,
    veResiduals: fit.residuals,
    veExcluded: excludedReasons(series, braked, mask),
    skippedLaps: detected?.skipped ?? [],
    warnings,
  }
}

/** Why each sample is left out of the fit (`VE_EXCLUDED`), in the order the runs count them. */
function excludedReasons(series: VeSeries, braked: Uint8Array, mask: Uint8Array): Uint8Array {
  const out = new Uint8Array(series.n)
  for (let i = 0; i < series.n; i++) {
    if (series.valid[i] !== 1) out[i] = VE_EXCLUDED.stop
    else if (braked[i] === 0) out[i] = VE_EXCLUDED.braking
    else if (mask[i] === 0) out[i] = VE_EXCLUDED.freewheel
  }
  return out
}

/** The method: 've' when asked or without air speed, else 'direct' (asked, or 'auto'). */
function methodOf(samples: ActivitySamples, input: AeroAnalysisInput): AeroMethod {
  const hasAir = hasChannel(samples.airspeed, 0.5)
  const method: AeroMethod =
    input.method === 've'
      ? 've'
      : input.method === 'direct' || (input.method ?? 'auto') === 'auto'
        ? hasAir
          ? 'direct'
          : 've'
        : 've'
  if (input.method === 'direct' && !hasAir) {
    throw new EngineInputError(
      'method',
      'expected an air-speed channel in the file for the direct method, got none',
    )
  }
  return method
}

/** The series the virtual elevation is fitted to, and the samples it leaves out. */
interface FittedSeries {
  series: VeSeries
  /** 0 where a sample is braking. */
  braked: Uint8Array
  /** 0 where the fit leaves a sample out (braking, or freewheeling on a velodrome). */
  mask: Uint8Array
}

function veSeries(
  samples: ActivitySamples,
  input: AeroAnalysisInput,
  densityOptions: PrepareVeOptions,
  warnings: string[],
  eta: number,
): FittedSeries {
  // A file with neither elevation nor GPS headings is a flat closed track: the velodrome model
  // (lean in the bends) unless the input says otherwise.
  const flat = prepareVe(samples, densityOptions)
  const noGps = !flat.heading.some((h) => Number.isFinite(h))
  const trackOption = input.track ?? (!flat.elevation && noGps)
  // The same road ridden again and again (out and back, loops): the altitude channel drifts and
  // lags between passes (the helmet tests: 6 m apart at one spot two minutes later), so each
  // sample takes the mean elevation of every pass through its spot.
  const averaged = flat.elevation ? positionAveragedElevation(samples, ELEVATION_CELL_M) : null
  const byPosition = averaged !== null && averaged.revisited >= MIN_REVISITED
  if (byPosition) {
    warnings.push(
      `elevation averaged by position over the passes (${ELEVATION_CELL_M} m cells, ` +
        `${Math.round(100 * averaged.revisited)} % of the samples on ground ridden again)`,
    )
  }
  const series =
    trackOption || byPosition
      ? prepareVe(samples, {
          ...densityOptions,
          track: trackOption,
          elevationCellM: byPosition ? ELEVATION_CELL_M : undefined,
        })
      : flat
  if (series.track) {
    const g = series.track.geometry
    warnings.push(
      `velodrome model: ${g.lapLengthM} m lap, bends of radius ${g.bendRadiusM} m, centre of mass ` +
        `${g.comHeightM} m (air drag at the centre of mass's speed, rolling under the lean's load)`,
    )
  } else if (!series.elevation)
    warnings.push('no elevation in the file: a flat track is assumed (velodrome)')
  const braked = brakingMask(series, input.massKg, eta)
  let mask = braked
  if (series.track) {
    const free = freewheelMask(series, braked)
    mask = free.mask
    if (free.dropped > 0) {
      warnings.push(
        `velodrome model: ${free.dropped} samples freewheeling (${MIN_FREEWHEEL_S} s or more, and the ` +
          `${FREEWHEEL_SETTLE_S} s after) ` +
          'left out of the fit: off the line, the height on the banking is not in the file',
      )
    }
  }
  return { series, braked, mask }
}

/** CdA per window of the direct method, on the file's clock. */
function directWindows(samples: ActivitySamples, direct: DirectRuns): AeroWindow[] {
  const fw = MARTIN.spokeDragAreaM2
  const windows: AeroWindow[] = []
  direct.results.forEach((d, k) => {
    for (const w of d.windows) {
      windows.push({
        runIndex: k,
        startT: samples.t[w.startIndex]!,
        endT: samples.t[w.endIndex - 1]!,
        cda: w.num / w.den - fw,
        meanSpeedMps: w.meanSpeedMps,
        meanAirSpeedMps: w.meanAirSpeedMps,
        meanPowerW: w.meanPowerW,
      })
    }
  })
  return windows
}

/** The runs against the baseline configuration, at the runs' mean air density. */
function compareSession(
  out: AeroRun[],
  runs: ResolvedRun[],
  fit: VeFitResult,
  direct: DirectRuns | null,
  joint: JointFit | undefined,
  o: { input: AeroAnalysisInput; baseline: string; massKg: number; eta: number; crr: number },
): AeroComparison | null {
  const d = direct ? direct.results : null
  const compareInput: CompareRun[] = out.map((r, k) => ({
    configuration: r.configuration,
    t: 0.5 * (r.startT + r.endT),
    clock: runs[k]!.spec.clock ?? 0,
    cda: r.cda,
    se: d ? d[k]!.se : (fit.cdaSeOwn[k] ?? NaN),
    dof: d ? d[k]!.dof : (fit.cdaDof[k] ?? 0),
    sharedSe: d
      ? 0
      : -Math.sqrt(Math.max(0, (fit.cdaSe[k] ?? 0) ** 2 - (fit.cdaSeOwn[k] ?? 0) ** 2)),
  }))
  const rhoMean =
    out.reduce((a, r) => a + (Number.isFinite(r.airDensity) ? r.airDensity : 0), 0) /
    Math.max(1, out.filter((r) => Number.isFinite(r.airDensity)).length)
  // Session replicates of every run's CdA (VE runs only), for ΔCdA's interval.
  const replicates = d || fit.blocks.length < 3 ? undefined : fit.blocks.map((b) => b.cda)
  return compareRuns(
    compareInput,
    {
      baseline: o.baseline,
      rho: rhoMean > 0 ? rhoMean : 1.225,
      massKg: o.massKg,
      crr: o.crr,
      drivetrainEfficiency: o.eta,
      referenceSpeedMps: o.input.referenceSpeedMps ?? DEFAULT_REFERENCE_SPEED_MPS,
      referencePowerW: o.input.referencePowerW ?? DEFAULT_REFERENCE_POWER_W,
    },
    replicates,
    joint,
  )
}

/** The session fit's CdA per configuration and its session-block replicates. */
function jointFit(session: VeFitResult, configs: string[], tyres: string[]): JointFit {
  const byConfig = (cda: ArrayLike<number>) => new Map(configs.map((c, g) => [c, cda[g]!]))
  return {
    cda: byConfig(session.cda),
    replicates: session.blocks.map((b) => byConfig(b.cda)),
    // Runs on other tyres share no Crr: the repeats' scatter, each run fitted at its tyres'
    // fitted Crr, would leave out how CdA and the Crr difference trade off.
    runScatter: tyres.length === 1 || session.crrFixed,
  }
}

/** Each tyre's Crr and its difference from the first tyres' (empty with one tyre or a held Crr). */
function crrByTyre(session: VeFitResult, tyres: string[], crr: number): AeroAnalysis['crrByTyre'] {
  if (tyres.length < 2 || session.crrFixed) return []
  return tyres.map((tyre, g) => ({
    tyre,
    crr: crr + (session.crrShift[g] ?? 0),
    crrCi95: g === 0 ? session.crrCi95 : session.crrGroupCi95[g]!,
    deltaCrr: session.crrShift[g] ?? 0,
    deltaCrrCi95: g === 0 ? [0, 0] : session.crrShiftCi95[g]!,
  }))
}
