// The aero analysis' boundary types: what a reader hands the engine (ActivitySamples), what a
// caller asks for (AeroAnalysisInput) and what it gets back (AeroAnalysis). SI units throughout.
//
// Functions (aero/index.ts):
//   analyzeAero(samples: ActivitySamples, input: AeroAnalysisInput): AeroAnalysis
//   detectRuns(samples: ActivitySamples): RunSpec[]
//   prepareVe(samples, {rho?, environment?, calibrationFactor?, useAirspeed?}): VeSeries
//   virtualElevation(series: VeSeries, start: number, end: number, params: VeParams, out?): Float64Array
//   fitVirtualElevation(series: VeSeries, pieces: VePiece[], options: VeFitOptions): VeFitResult
import type { AeroPlan } from './plan.ts'
import type { TrackGeometry, VeSegment, VeSeries } from './ve-types.ts'

export type {
  TrackGeometry,
  VeFitOptions,
  VeFitResult,
  VeModelOptions,
  VeParams,
  VePiece,
  VeSegment,
  VeSeries,
  VeTrack,
} from './ve-types.ts'

/**
 * Time series of one recorded activity (a field test or a ride), one entry per sample.
 * Missing values are NaN; a whole channel the file lacks is null.
 */
export interface ActivitySamples {
  /** Seconds since the first sample, strictly increasing (not necessarily uniform). */
  t: Float64Array
  /** Epoch seconds of t = 0, or NaN when the file has no absolute time. */
  startEpochS: number
  /** Ground speed, m/s. */
  speed: Float64Array
  /** Crank (or hub) power, W. */
  power: Float64Array
  /** Altitude, m (barometric or GPS), or null. */
  altitude: Float64Array | null
  /** Cumulative distance, m, or null. */
  distance: Float64Array | null
  /** Lap index of each sample, 0-based (all 0 when the file has no laps). */
  lap: Int32Array
  /** Degrees WGS84, or null when the file has no GPS. */
  lat: Float64Array | null
  lon: Float64Array | null
  /** Air speed measured by a sensor (pitot or similar), m/s, uncalibrated, or null. */
  airspeed: Float64Array | null
  /** Yaw angle measured by a sensor, rad, or null. */
  yaw: Float64Array | null
  /** Air temperature, °C, or null. */
  temperature: Float64Array | null
  /** Barometric pressure, Pa, or null. */
  pressure: Float64Array | null
  /** Air density written by a sensor, kg/m³, or null. */
  airDensity: Float64Array | null
  /** Measured wind speed (iBike), m/s, or null. */
  windSpeed: Float64Array | null
}

/** The channels of ActivitySamples a file may lack (null then), in one order for every reader. */
export const OPTIONAL_SAMPLE_CHANNELS = [
  'altitude',
  'distance',
  'lat',
  'lon',
  'airspeed',
  'yaw',
  'temperature',
  'pressure',
  'airDensity',
  'windSpeed',
] as const satisfies readonly (keyof ActivitySamples)[]

/** How a run was found: a recorded lap, a repeated loop (by position), an out-and-back leg pair, a time range the user gave, or the whole file. */
export type RunSource = 'lap' | 'loop' | 'out_and_back' | 'time_range' | 'whole'

/** 've' = virtual elevation (Chung), 'direct' = force balance with measured air speed. */
export type AeroMethod = 've' | 'direct'

/**
 * One run to analyse. Give `lap` (0-based lap index) or `startT`/`endT` (seconds, same clock as
 * `ActivitySamples.t`). `detectRuns` always fills `startT`/`endT` and `source`; for out-and-back
 * runs `pieces` holds the legs with the turnarounds trimmed (each piece [startT, endT]).
 */
export interface RunSpec {
  lap?: number
  startT?: number
  endT?: number
  /** Parts of the run actually used (turnarounds trimmed); default the whole [startT, endT]. */
  pieces?: Array<[number, number]>
  /** Display label, e.g. "lap 3" or "run 2". */
  label?: string
  /** Configuration tested (position, helmet, wheels…); runs with the same text are repeats. */
  configuration?: string
  /**
   * The tyres (or surface) the run rolls on: with Crr fitted, runs on different tyres get a Crr
   * each (the first run's tyres are the reference); absent: one Crr for the session.
   */
  tyre?: string
  source?: RunSource
  /**
   * The clock the run is on: runs of files recorded on different days (or without a date) are
   * on different clocks, and the baseline's drift is never carried from one clock to another.
   */
  clock?: number
}

/** Air conditions measured once for the whole file. */
export interface AeroEnvironment {
  temperatureC: number
  /** Station pressure (not sea-level QNH), Pa. */
  pressurePa: number
  /** Relative humidity 0..1. */
  humidity?: number
}

export interface AeroAnalysisInput {
  /** System mass: rider + bike + kit, kg. */
  massKg: number
  /** Fixed rolling-resistance coefficient; fitted when absent. */
  crr?: number
  /** Drivetrain efficiency 0..1 (default 0.976; 1 for a hub power meter). */
  drivetrainEfficiency?: number
  /** Constant air density, kg/m³. Else `environment`, else the sample channels, else ISA from altitude. */
  airDensity?: number
  environment?: AeroEnvironment
  /** 'auto' (default): direct where air speed exists, VE otherwise. */
  method?: 'auto' | AeroMethod
  /** Runs to analyse; detected (`detectRuns`) when absent. */
  runs?: RunSpec[]
  /** Configuration label of the baseline runs (default: the first run's configuration). */
  baseline?: string
  /**
   * Direct method: the sensor's aero calibration factor applied to the measured dynamic pressure,
   * q = cal·½ρ·airspeed² (Aerosensor `cal = 1/(1−Cp)`, default 1.400).
   */
  calibrationFactor?: number
  /** Speed for "watts saved", m/s (default 40 km/h). */
  referenceSpeedMps?: number
  /** Power for "seconds per 40 km", W (default 300). */
  referencePowerW?: number
  /** Fit a constant wind vector where headings vary enough (default true). */
  fitWind?: boolean
  /**
   * The wind as stated (a forecast or a hand anemometer, at rider height): speed, m/s, and the
   * direction it blows FROM, degrees. On an out-and-back the fit sees only the wind along the
   * road; the crosswind, whose drag reads as rolling resistance, is taken from this.
   */
  statedWind?: { speedMps: number; fromDeg: number }
  /**
   * Velodrome model (`TrackGeometry`; true = the defaults, false = off). Default: on when the file
   * has neither GPS headings nor elevation (a flat closed track), off otherwise.
   */
  track?: TrackGeometry | boolean
  /**
   * 0 = no intervals (faster). Otherwise the 95 % intervals come from a delete-a-block jackknife
   * (deterministic; the count does not matter). Default 200.
   */
  resamples?: number
  /** ΔCdA the test planner is asked to resolve, m² (default 0.003). */
  resolveCda?: number
  /** Seed for the optional bootstrap (`fitVirtualElevation` interval 'bootstrap'); default 1. */
  seed?: number
}

export type AeroRunFlag =
  | 'braking'
  | 'non_closing_loop'
  | 'high_yaw'
  | 'few_samples'
  | 'no_elevation'
  | 'poor_fit'
  | 'speed_gaps'
  /** CdA outside 0.1–0.8 m²: the run cannot be a rider on a bike (coasting, wrong mass, bad data). */
  | 'implausible_cda'
  /** Less than half of the run's samples left once stops, braking and freewheeling are out. */
  | 'too_little_left'

export interface AeroRun {
  /** Position in `AeroAnalysis.runs` (time order). */
  index: number
  label: string
  configuration: string
  source: RunSource
  startT: number
  endT: number
  method: AeroMethod
  /** Drag area, m², as the simulator's rider CdA (the Martin spoke drag Fw 0.0044 m² is modelled separately). */
  cda: number
  cdaCi95: [number, number]
  crr: number
  /** Equal to [crr, crr] when Crr was given. */
  crrCi95: [number, number]
  /** RMSE of virtual vs measured elevation after the fit, m (NaN for direct runs without elevation). */
  veRmseM: number
  /** Elevation offset of the run's VE trace, m (VE + offset matches measured elevation). */
  elevationOffsetM: number
  /**
   * The stretches the VE fit used (sample indices [start, end) into the analysed samples), each
   * with its own fitted offset: the trace restarts there (a stop, braking or, on a velodrome,
   * freewheeling cuts it). Empty when nothing was fitted.
   */
  veSegments: VeSegment[]
  /** Fitted constant wind (speed, m/s, and the direction it blows FROM, degrees), when fitted. */
  windMps?: number
  windFromDeg?: number
  /** The same wind as the vector the air moves towards (east, north, m/s): `VeParams.windE/windN`. */
  windE?: number
  windN?: number
  /** Direct method: the calibration factor used. */
  calibrationFactor?: number
  /** Mean ground speed, m/s, and mean power, W, over the samples used. */
  meanSpeedMps: number
  meanPowerW: number
  /** Air density used (mean), kg/m³. */
  airDensity: number
  samplesUsed: number
  /**
   * Samples of the run left out of the fit, by reason: `stop` (too slow, a gap, no power or
   * speed), `braking` (deceleration above 0.6 m/s² under 20 W: more than drag and rolling give at test speeds),
   * `freewheel` (on a velodrome, off the line). The run is flagged only when too little remains.
   */
  excludedSamples: { stop: number; braking: number; freewheel: number }
  flags: AeroRunFlag[]
  /** Quantities not reported (NaN above), each with the reason (`sound.ts`). */
  withheld: AeroWithheld[]
}

/** A quantity the analysis does not report (outside its physical range, or no interval), and why. */
export interface AeroWithheld {
  /** `cda`, `cda_ci95`, `crr`, `crr_ci95`, `delta_cda`, `delta_cda_ci95`, `watts_saved`, `seconds_per_40km`, `drift`. */
  field: string
  reason: string
}

/** CdA of one window (direct method), stored as a `cdam` data block. */
export interface AeroWindow {
  runIndex: number
  startT: number
  endT: number
  cda: number
  meanSpeedMps: number
  meanAirSpeedMps: number
  meanPowerW: number
  /** Mean yaw, rad, when the sensor measured it. */
  meanYawRad?: number
}

export interface AeroConfigurationComparison {
  configuration: string
  runs: number[]
  /** Drift-corrected mean CdA of the configuration, m². */
  cda: number
  deltaCda: number
  deltaCdaCi95: [number, number]
  /** 100 · ΔCdA / baseline CdA, %. */
  deltaPercent: number
  /** Power saved at the reference speed (positive = this configuration is faster), W. */
  wattsSaved: number
  /** Time saved over 40 km at the reference power on flat ground (positive = faster), s. */
  secondsPer40km: number
  /** 'withheld': the interval of ΔCdA could not be given (`withheld` says why). */
  verdict: 'faster' | 'slower' | 'no_difference' | 'withheld'
  /**
   * What ΔCdA and its interval come from: 'session_fit', the runs of the session fitted together
   * (one CdA per configuration, one Crr and wind), or 'runs', each run's own CdA against the
   * baseline at its time.
   */
  basis: 'session_fit' | 'runs'
  /**
   * With the session fit, where its interval comes from: 'repeats', the runs' scatter about their
   * configuration's mean; 'session_jackknife', a delete-a-block jackknife over the session (too
   * few repeats, or runs on other tyres). Absent with `basis: 'runs'`.
   */
  interval?: 'repeats' | 'session_jackknife'
  /** Quantities not reported (NaN above), each with the reason. */
  withheld: AeroWithheld[]
  /** What the verdict rests on that the tester should know (drift not corrected, and why). */
  notes: string[]
}

export interface AeroComparison {
  baseline: string
  baselineCda: number
  /** CdA drift of the baseline in time, m² per hour (0 when fewer than two baseline runs). */
  driftPerHour: number
  /** The drift line: CdA_baseline(t) = intercept + driftPerHour·(t − t0)/3600 (t0 = first baseline mid-time). */
  driftLine: { t0: number; intercept: number; slopePerS: number }
  /** Why the drift is not corrected, or only for some runs (null: corrected for every run). */
  driftNote: string | null
  /** Drift-corrected CdA per run (same order as runs). */
  correctedCda: number[]
  referenceSpeedMps: number
  referencePowerW: number
  configurations: AeroConfigurationComparison[]
}

export interface AeroAnalysis {
  runs: AeroRun[]
  windows: AeroWindow[]
  comparison: AeroComparison | null
  /** The test planner's answer per configuration (`plan.ts`). */
  plan: AeroPlan
  /** Direct method: the calibration factor that makes the baseline runs agree with VE (or null). */
  fittedCalibrationFactor: number | null
  /** Crr shared by all VE runs (fitted or given); with runs on several tyres, the first tyres'. */
  crr: number
  /**
   * With runs on several tyres (`RunSpec.tyre`) and Crr fitted: each tyre's Crr with its 95 %
   * interval, and its difference from the first tyres' with that difference's interval (the
   * shared wind and crosswind cancel in it). Empty otherwise.
   */
  crrByTyre: Array<{
    tyre: string
    crr: number
    crrCi95: [number, number]
    deltaCrr: number
    deltaCrrCi95: [number, number]
  }>
  /** Motion model of the VE runs: 'road' (the rider moves as the wheel) or 'track' (velodrome lean). */
  veModel: 'road' | 'track'
  /** The samples the VE fit used (velodrome terms, elevation averaged by position if it was). */
  veSeries: VeSeries
  /** Measured (or flat) − fitted virtual elevation per sample, m (NaN where the fit used none). */
  veResiduals: Float64Array
  /**
   * Why each sample is left out of the fit (`VE_EXCLUDED`): 0 used, 1 stopped or in a gap,
   * 2 braking, 3 freewheeling off a velodrome's line.
   */
  veExcluded: Uint8Array
  /** Laps the run detection did not take as runs (recoveries, coast-downs, turnarounds), and why. */
  skippedLaps: SkippedLap[]
  warnings: string[]
}

/**
 * A lap that is not a test run: a recovery, warm-up, cool-down or coast-down between the efforts,
 * or a short link or turnaround. Left out of the runs; the tester can add it back as a run.
 */
export interface SkippedLap {
  lap: number
  startT: number
  endT: number
  kind: 'recovery' | 'turnaround'
  meanPowerW: number
  movingS: number
  reason: string
}

/** The codes of `AeroAnalysis.veExcluded`. */
export const VE_EXCLUDED = { used: 0, stop: 1, braking: 2, freewheel: 3 } as const
