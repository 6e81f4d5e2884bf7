// Calibration of a rider's effective CdA and Crr (and a constant wind) from a recorded ride with
// power: what the caller gives (CalibrationInput) and what it gets back (RideCalibration).
import type { Environment } from '../sim/model.ts'
import type { RideWeather, WeatherUsed } from './weather.ts'

/** Why a sample was left out of the fit (each excluded sample has exactly one reason). */
export type ExclusionReason =
  /** Outside the [startS, endS) range the caller asked for. */
  | 'outside_range'
  /** Slower than the moving speed, or after a gap in the recording. */
  | 'stopped'
  /** Power missing, negative or a glitch (> 3,000 W). */
  | 'no_power'
  /** Speed or elevation jumps no bicycle makes (GPS or sensor spikes). */
  | 'gps_spike'
  /** Power ≈ 0 while slowing faster than air and rolling resistance can explain. */
  | 'braking'
  /** Power ≈ 0 above the coasting speed (a tucked descent: another position, often braked). */
  | 'coasting_descent'
  /** A stretch needing much less power than the rest of the ride explains (riding in a draft). */
  | 'drafting'
  /** A stretch needing much more power than the rest explains (a gust, a power spike). */
  | 'outlier'
  /** Kept by the filters but in a stretch too short to fit (under 5 samples between exclusions). */
  | 'short_stretch'

export const EXCLUSION_REASONS: readonly ExclusionReason[] = [
  'outside_range',
  'stopped',
  'no_power',
  'gps_spike',
  'braking',
  'coasting_descent',
  'drafting',
  'outlier',
  'short_stretch',
]

export interface CalibrationInput {
  /** Rider with kit, kg. */
  massKg: number
  /** Bike, bottles and tools, kg. */
  bikeMassKg: number
  /** Drivetrain efficiency 0..1 (default 0.976; 1 for a hub power meter). */
  drivetrainEfficiency?: number
  /**
   * Air as in `simulate`: a constant density, or temperature (+ station pressure at
   * `pressureAltitudeM`, humidity) carried to each sample's altitude; ISA when neither. A wind in
   * the environment is ignored: the calibration fits its own.
   */
  environment?: Environment
  /** Fix Crr instead of fitting it. */
  crr?: number
  /** Fit a constant wind where the headings vary enough (default true; ignored with `weather`). */
  fitWind?: boolean
  /**
   * The historical weather of the ride's place and hours: its air gives each sample's density and
   * its wind is used as known (no constant wind is fitted). Needs samples with a distance.
   */
  weather?: RideWeather
  /** Only samples with startS ≤ t < endS (seconds on the samples' clock) are fitted. */
  startS?: number
  endS?: number
  /** Heading of travel per sample (rad clockwise from north) when the samples have no GPS. */
  headingRad?: Float64Array
  /** Longest stretch fitted with one elevation offset, s (default 300: barometric drift). */
  pieceS?: number
  /** Consecutive kept samples are merged into bins of at most this many seconds (default 10). */
  binS?: number
  /** Power (W) at or below which the rider counts as not pedalling (default 20). */
  coastPowerW?: number
  /** Coasting faster than this (m/s) is a tucked descent and left out (default 12, 43 km/h). */
  coastingDescentMps?: number
  /** Bootstrap resamples for the CdA and Crr intervals (default 50; 0 = none), and the seed. */
  resamples?: number
  seed?: number
}

/** Fitted value with its 95 % interval. */
export interface Estimate {
  value: number
  ci95: [number, number]
}

export interface RideCalibration {
  /** Drag area, m², as the simulator's rider CdA (spoke drag 0.0044 m² modelled apart). */
  cdaM2: Estimate
  crr: Estimate
  /** True when Crr was given or could not be separated from CdA (then held, see warnings). */
  crrFixed: boolean
  /** Constant wind when the route allows it (headings spread enough), else null. */
  wind: { speedMps: Estimate; fromDeg: number; eastMps: number; northMps: number } | null
  samplesUsed: number
  /** Samples left out, by reason (every reason listed, 0 when none). */
  excluded: Record<ExclusionReason, number>
  /** RMSE of the virtual elevation against the measured one over the samples used, m. */
  rmseM: number
  /** For a chart: time (s), measured elevation, the calibrated virtual elevation (each stretch
   * aligned to the measured one) and the residual, at most ~2,000 points; NaN where unused. */
  chart: { t: number[]; elevationM: number[]; virtualM: number[]; residualM: number[] }
  /** Air density used, mean over the samples used, kg/m³ (with `weather`: the effective
   * density, the known wind's share of the drag folded in). */
  airDensity: number
  /** The historical weather used (mean over the ride), or null when none was given. */
  weather: WeatherUsed | null
  warnings: string[]
}
