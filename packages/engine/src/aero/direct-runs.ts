// The direct method over a field test's runs: the air-speed column's calibration factor (given,
// the default, or 1 for a column the device already calibrated), CdA per run, and the
// calibration factor that would bring the baseline runs' direct CdA onto their VE CdA.
import { MARTIN } from '../physics/constants.ts'
import type { ActivitySamples, AeroAnalysisInput, VeFitResult } from './types.ts'
import { airToGroundRatio } from './analyze-channels.ts'
import type { ResolvedRun } from './analyze-runs.ts'
import { directCda, type DirectRunResult } from './direct.ts'
import { prepareVe, type PrepareVeOptions } from './series.ts'

/** Default aero calibration factor of an Aerosensor-style probe (cal = 1/(1 − Cp)). */
export const DEFAULT_CALIBRATION_FACTOR = 1.4
/**
 * Mean air speed / mean ground speed over the runs inside which an air-speed column counts as
 * already calibrated (a raw probe with cal 1.3–1.5 reads 0.82–0.88; wind on a course ridden both
 * ways raises the time average by a few %).
 */
const CALIBRATED_RATIO: [number, number] = [0.95, 1.08]

export interface DirectRuns {
  /** Per run, in the order of the runs. */
  results: DirectRunResult[]
  /** The calibration factor applied to the air speed. */
  cal: number
}

/** What the direct method takes of the analysis. */
export interface DirectContext {
  samples: ActivitySamples
  runs: ResolvedRun[]
  input: AeroAnalysisInput
  densityOptions: PrepareVeOptions
  massKg: number
  eta: number
  crr: number
  intervals: boolean
  /** The session's VE fit (whether its Crr was fitted), and whether the file has elevation. */
  session: VeFitResult
  hasElevation: boolean
}

export function directRuns(x: DirectContext, warnings: string[]): DirectRuns {
  const { samples, runs, input, crr } = x
  let cal = input.calibrationFactor ?? DEFAULT_CALIBRATION_FACTOR
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
    ...x.densityOptions,
    useAirspeed: true,
    calibrationFactor: cal,
  })
  const results = runs.map((r) =>
    directCda(airSeries, r.pieces, {
      massKg: x.massKg,
      drivetrainEfficiency: x.eta,
      crr,
      intervals: x.intervals,
    }),
  )
  if (input.crr === undefined && !x.session.crrFixed && x.hasElevation) {
    warnings.push(`direct method: Crr ${crr.toFixed(4)} from the virtual-elevation fit`)
  } else if (input.crr === undefined) {
    warnings.push(`direct method: Crr ${crr.toFixed(4)} (not fitted; give crr for better accuracy)`)
  }
  return { results, cal }
}

/**
 * The calibration factor that makes the baseline runs' direct CdA match their VE CdA (the
 * spoke drag area added back), null when they give none.
 */
export function fittedCalibrationFactor(
  direct: DirectRuns,
  runs: ResolvedRun[],
  veCda: number[],
  baseline: string,
): number | null {
  const fw = MARTIN.spokeDragAreaM2
  let num = 0
  let den = 0
  runs.forEach((r, k) => {
    const ve = veCda[k]!
    const d = direct.results[k]!
    if (r.configuration === baseline && Number.isFinite(ve) && d.den > 0) {
      num += d.num
      den += (ve + fw) * d.den
    }
  })
  return den > 0 && num > 0 ? (direct.cal * num) / den : null
}
