// The aero analysis of one field-test file: runs (given or detected), CdA and Crr per run with
// 95 % intervals by virtual elevation or the direct method, and the baseline comparison.
import { MARTIN } from '../physics/constants.ts'
import { EngineInputError } from '../sim/validate.ts'
import type {
  ActivitySamples,
  AeroAnalysis,
  AeroAnalysisInput,
  AeroMethod,
  AeroRun,
  AeroRunFlag,
  AeroWindow,
  VePiece,
} from './types.ts'
import { airToGroundRatio, hasChannel } from './analyze-channels.ts'
import { brakingMask, FREEWHEEL_SETTLE_S, freewheelMask, MIN_FREEWHEEL_S } from './analyze-masks.ts'
import { resolveRun } from './analyze-runs.ts'
import { planAnswer } from './plan.ts'
import { soundRun } from './sound.ts'
import { compareRuns, type CompareRun } from './compare.ts'
import { directCda, type DirectRunResult } from './direct.ts'
import { detectRuns } from './runs.ts'
import { densitySeries, localPositions, positionAveragedElevation, prepareVe } from './series.ts'
import { FALLBACK_CRR, fitVirtualElevation } from './ve.ts'
import { validateAeroInput, validateSamples } from './validate.ts'

/** Default aero calibration factor of an Aerosensor-style probe (cal = 1/(1 − Cp)). */
export const DEFAULT_CALIBRATION_FACTOR = 1.4
export const DEFAULT_REFERENCE_SPEED_MPS = 40 / 3.6
export const DEFAULT_REFERENCE_POWER_W = 300
/** A fitted Crr whose 95 % half-width exceeds this is not believed (held at FALLBACK_CRR). */
const MAX_CRR_HALF_WIDTH = 0.002
/**
 * Mean air speed / mean ground speed over the runs inside which an air-speed column counts as
 * already calibrated (a raw probe with cal 1.3–1.5 reads 0.82–0.88; wind on a course ridden both
 * ways raises the time average by a few %).
 */
const CALIBRATED_RATIO: [number, number] = [0.95, 1.08]

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
  const seed = input.seed ?? 1
  let cal = input.calibrationFactor ?? DEFAULT_CALIBRATION_FACTOR
  const fw = MARTIN.spokeDragAreaM2

  const specs = input.runs ?? detectRuns(samples)
  const runs = specs
    .map((r, k) => resolveRun(samples, r, k))
    .sort((a, b) => a.startT - b.startT || a.endT - b.endT)
  if (runs.length === 0)
    throw new EngineInputError('runs', 'expected at least one run, got none (no moving samples)')

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
  const densityOptions = { airDensity: input.airDensity, environment: input.environment }
  if (densitySeries(samples, densityOptions).source === 'default') {
    warnings.push(
      'no air density, environment, temperature/pressure or altitude: ISA sea level 1.225 kg/m³ used',
    )
  }
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
  const veModel = series.track ? 'track' : 'road'
  if (series.track) {
    const g = series.track.geometry
    warnings.push(
      `velodrome model: ${g.lapLengthM} m lap, bends of radius ${g.bendRadiusM} m, centre of mass ` +
        `${g.comHeightM} m (air drag at the centre of mass's speed, rolling under the lean's load)`,
    )
  } else if (!series.elevation)
    warnings.push('no elevation in the file: a flat track is assumed (velodrome)')
  const braked = brakingMask(series)
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

  // Virtual elevation in two stages. 1: one CdA per configuration (repeats share it), with the
  // session's Crr and wind; 2: one CdA per run with that Crr and wind, each bootstrap replicate
  // using the matching replicate of stage 1's Crr so the runs' intervals carry its uncertainty.
  const configs = [...new Set(runs.map((r) => r.configuration))]
  const piecesBy = (group: (k: number) => number): { pieces: VePiece[]; first: number[] } => {
    const pieces: VePiece[] = []
    const first: number[] = []
    runs.forEach((r, k) => {
      first.push(pieces.length)
      for (const [a, b] of r.pieces) pieces.push({ start: a, end: b, group: group(k) })
    })
    return { pieces, first }
  }
  const common = { massKg, drivetrainEfficiency: eta, mask, resamples, seed }
  const intervals = resamples > 0
  const sessionPieces = piecesBy((k) => configs.indexOf(runs[k]!.configuration)).pieces
  const sessionFit = (crr: number | undefined) =>
    fitVirtualElevation(series, sessionPieces, {
      ...common,
      groups: configs.length,
      crr,
      fitWind: input.fitWind ?? true,
    })
  let session = sessionFit(input.crr)
  /** Why the runs' Crr has no interval (null: fitted, with its interval). */
  let crrHeld: string | null = input.crr !== undefined ? `Crr ${input.crr} given, not fitted` : null
  // A Crr the data barely determine (runs all at one speed) would only widen every run's
  // interval: it is held at the textbook value instead, with a warning.
  const crrHalf = 0.5 * (session.crrCi95[1] - session.crrCi95[0])
  if (!session.crrFixed && crrHalf > MAX_CRR_HALF_WIDTH) {
    warnings.push(
      `virtual elevation: Crr ${session.crr.toFixed(4)} ± ${crrHalf.toFixed(4)} is not determined by the runs ` +
        `(too little speed variation): held at ${FALLBACK_CRR}; give crr for absolute CdA`,
    )
    session = sessionFit(FALLBACK_CRR)
    crrHeld = `held at ${FALLBACK_CRR}: the runs do not determine it (too little speed variation)`
  }
  if (crrHeld === null && session.crrFixed)
    crrHeld = `held at ${FALLBACK_CRR}: the runs do not determine it`
  for (const w of session.warnings) warnings.push(`virtual elevation: ${w}`)
  const { pieces, first: firstPiece } = piecesBy((k) => k)
  const fit = fitVirtualElevation(series, pieces, {
    ...common,
    groups: runs.length,
    crr: Number.isFinite(session.crr) ? session.crr : FALLBACK_CRR,
    crrSe: session.crrFixed ? undefined : session.crrSe,
    sessionBlocks: session.blocks,
    fitWind: false,
    windE: session.windE,
    windN: session.windN,
  })
  const crr = input.crr ?? (Number.isFinite(session.crr) ? session.crr : FALLBACK_CRR)

  // Direct method where air speed exists.
  let direct: DirectRunResult[] | null = null
  if (method === 'direct') {
    if (input.calibrationFactor === undefined) {
      // No calibration from the device or the input: a raw probe reads the air speed / √cal
      // (≈ 0.85 of the ground speed in still air with the default 1.400); a column that already
      // matches the ground speed over the runs was calibrated by the device or its app, and
      // multiplying it by 1.400 again would shrink the CdA by 1.4.
      const ratio = airToGroundRatio(samples, runs)
      if (ratio >= CALIBRATED_RATIO[0] && ratio <= CALIBRATED_RATIO[1]) {
        cal = 1
        warnings.push(
          `direct method: the air speed averages ${ratio.toFixed(3)} × the ground speed: the column ` +
            `is taken as already calibrated (factor 1.000, not the default ${DEFAULT_CALIBRATION_FACTOR.toFixed(3)}); ` +
            'give calibrationFactor to override',
        )
      } else {
        warnings.push(
          `direct method: no calibration factor for the sensor: the default ` +
            `${DEFAULT_CALIBRATION_FACTOR.toFixed(3)} is used (air speed ${ratio.toFixed(3)} × the ground speed)`,
        )
      }
    }
    const airSeries = prepareVe(samples, {
      ...densityOptions,
      useAirspeed: true,
      calibrationFactor: cal,
    })
    direct = runs.map((r) =>
      directCda(airSeries, r.pieces, { massKg, drivetrainEfficiency: eta, crr, intervals }),
    )
    if (input.crr === undefined && !session.crrFixed && series.elevation) {
      warnings.push(`direct method: Crr ${crr.toFixed(4)} from the virtual-elevation fit`)
    } else if (input.crr === undefined) {
      warnings.push(
        `direct method: Crr ${crr.toFixed(4)} (not fitted; give crr for better accuracy)`,
      )
    }
  }

  const baseline = input.baseline ?? runs[0]!.configuration
  let fittedCalibrationFactor: number | null = null
  if (direct) {
    let num = 0
    let den = 0
    runs.forEach((r, k) => {
      const ve = fit.cda[k]!
      if (r.configuration === baseline && Number.isFinite(ve) && direct![k]!.den > 0) {
        num += direct![k]!.num
        den += (ve + fw) * direct![k]!.den
      }
    })
    if (den > 0 && num > 0) fittedCalibrationFactor = (cal * num) / den
  }

  const pos = localPositions(samples)
  const windE = fit.windE
  const windN = fit.windN
  const out: AeroRun[] = runs.map((r, k) => {
    let n = 0
    let nValid = 0
    let sv = 0
    let sp = 0
    let sr = 0
    let ss = 0
    let nRes = 0
    let braking = 0
    let freewheel = 0
    let yawSum = 0
    let yawN = 0
    for (const [a, b] of r.pieces) {
      for (let i = a; i < b; i++) {
        n++
        if (series.valid[i] !== 1) continue
        nValid++
        sv += series.speed[i]!
        sp += series.power[i]!
        sr += series.rho[i]!
        if (braked[i] === 0) braking++
        else if (mask[i] === 0) freewheel++
        const res = fit.residuals[i]!
        if (Number.isFinite(res)) {
          ss += res * res
          nRes++
        }
        if (samples.yaw && Number.isFinite(samples.yaw[i])) {
          yawSum += Math.abs(samples.yaw[i]!)
          yawN++
        } else if (session.windFitted && Number.isFinite(series.heading[i])) {
          const h = series.heading[i]!
          const ax = series.speed[i]! - (windE * Math.sin(h) + windN * Math.cos(h))
          const lat = windE * Math.cos(h) - windN * Math.sin(h)
          yawSum += Math.abs(Math.atan2(lat, ax))
          yawN++
        }
      }
    }
    const rmse = nRes > 0 ? Math.sqrt(ss / nRes) : NaN
    const d = direct ? direct[k]! : null
    const runMethod: AeroMethod = d ? 'direct' : 've'
    const cda = d ? d.cda : fit.cda[k]!
    const cdaCi95: [number, number] = d ? d.cdaCi95 : fit.cdaCi95[k]!
    const samplesUsed = d ? d.samplesUsed : nRes
    const flags: AeroRunFlag[] = []
    // Braking, stops and freewheeling are left out sample by sample (the mask): a run is flagged
    // only when they take much of it.
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
    if (yawN > 0 && yawSum / yawN > (10 * Math.PI) / 180) flags.push('high_yaw')
    if (samplesUsed < 60) flags.push('few_samples')
    if (!series.elevation && runMethod === 've') flags.push('no_elevation')
    if (runMethod === 've' && Number.isFinite(rmse) && rmse > 2.5) flags.push('poor_fit')
    if (n > 0 && nValid < 0.9 * n) flags.push('speed_gaps')
    if (Number.isFinite(cda) && (cda < 0.1 || cda > 0.8)) flags.push('implausible_cda')
    const run: AeroRun = {
      index: k,
      label: r.label,
      configuration: r.configuration,
      source: r.source,
      startT: r.startT,
      endT: r.endT,
      method: runMethod,
      cda,
      cdaCi95,
      crr,
      crrCi95: input.crr !== undefined || session.crrFixed ? [crr, crr] : session.crrCi95,
      veRmseM: rmse,
      elevationOffsetM: fit.offsets[firstPiece[k]!] ?? NaN,
      veSegments: fit.segments
        .filter((g) => g.piece >= firstPiece[k]! && g.piece < firstPiece[k]! + r.pieces.length)
        .map(({ start, end, offsetM }) => ({ start, end, offsetM })),
      meanSpeedMps: nValid > 0 ? sv / nValid : NaN,
      meanPowerW: nValid > 0 ? sp / nValid : NaN,
      airDensity: nValid > 0 ? sr / nValid : NaN,
      samplesUsed,
      excludedSamples: { stop: n - nValid, braking, freewheel },
      flags,
      withheld: [],
    }
    if (session.windFitted) {
      run.windMps = Math.hypot(windE, windN)
      run.windFromDeg = ((Math.atan2(-windE, -windN) * 180) / Math.PI + 360) % 360
      run.windE = windE
      run.windN = windN
    }
    if (d) run.calibrationFactor = cal
    // direct runs take the VE Crr: its interval is the VE fit's (or none when held)
    return soundRun(run, crrHeld)
  })

  const windows: AeroWindow[] = []
  if (direct) {
    direct.forEach((d, k) => {
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
  }

  const compareInput: CompareRun[] = out.map((r, k) => ({
    configuration: r.configuration,
    t: 0.5 * (r.startT + r.endT),
    clock: runs[k]!.spec.clock ?? 0,
    cda: r.cda,
    se: direct ? direct[k]!.se : (fit.cdaSeOwn[k] ?? NaN),
    dof: direct ? direct[k]!.dof : (fit.cdaDof[k] ?? 0),
    sharedSe: direct
      ? 0
      : -Math.sqrt(Math.max(0, (fit.cdaSe[k] ?? 0) ** 2 - (fit.cdaSeOwn[k] ?? 0) ** 2)),
  }))
  const rhoMean =
    out.reduce((a, r) => a + (Number.isFinite(r.airDensity) ? r.airDensity : 0), 0) /
    Math.max(1, out.filter((r) => Number.isFinite(r.airDensity)).length)
  // Session replicates of every run's CdA (VE runs only), for ΔCdA's interval.
  const replicates = direct || fit.blocks.length < 3 ? undefined : fit.blocks.map((b) => b.cda)
  const comparison = compareRuns(
    compareInput,
    {
      baseline,
      rho: rhoMean > 0 ? rhoMean : 1.225,
      massKg,
      crr,
      drivetrainEfficiency: eta,
      referenceSpeedMps: input.referenceSpeedMps ?? DEFAULT_REFERENCE_SPEED_MPS,
      referencePowerW: input.referencePowerW ?? DEFAULT_REFERENCE_POWER_W,
    },
    replicates,
  )
  if (!comparison)
    warnings.push(`no run of the baseline configuration "${baseline}" has a CdA: no comparison`)
  const plan = planAnswer(comparison, out, {
    ...(input.resolveCda !== undefined ? { delta: input.resolveCda } : {}),
  })
  return {
    runs: out,
    windows,
    comparison,
    plan,
    fittedCalibrationFactor,
    crr,
    veModel,
    veSeries: series,
    veResiduals: fit.residuals,
    warnings,
  }
}
