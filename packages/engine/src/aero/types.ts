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

/** A stretch of usable samples [start, end) fitted with its own elevation offset, m. */
export interface VeSegment {
  start: number
  end: number
  offsetM: number
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

/** Per-sample quantities the VE trace and fit need, computed once per file (`prepareVe`). */
export interface VeSeries {
  n: number
  t: Float64Array
  /** Time step of each sample (t[i] − t[i−1]; 0 for the first), s. */
  dt: Float64Array
  speed: Float64Array
  power: Float64Array
  /** Air density per sample, kg/m³. */
  rho: Float64Array
  /** Measured elevation (or null: flat track assumed). */
  elevation: Float64Array | null
  /** Heading, rad clockwise from north (NaN without GPS). */
  heading: Float64Array
  /** Air speed for the aero term when measured (already calibrated), else null. */
  airspeed: Float64Array | null
  /** 1 = usable sample (finite power/speed, moving). */
  valid: Uint8Array
  /** Velodrome model (`prepareVe` option `track`), or absent/null: the rider moves as the wheel. */
  track?: VeTrack | null
}

/**
 * Velodrome geometry (defaults: a 250 m track, bends of radius 22 m, centre of mass 0.95 m above
 * the tyres). The lap is two straights and two semicircular bends of `bendRadiusM`; the position
 * on the lap is the wheel distance from the start of the file modulo `lapLengthM`, the first
 * sample at the start of a straight.
 */
export interface TrackGeometry {
  lapLengthM?: number
  bendRadiusM?: number
  comHeightM?: number
}

/**
 * Per-sample velodrome terms: in a bend of radius R the rider leans by φ (tan φ = v²/(g·R)), so
 * the centre of mass (height h) runs on radius R − h·sin φ at comSpeed = v·(R − h·sin φ)/R (air
 * drag and translational kinetic energy act there), sits at height h·cos φ (potential energy),
 * and the tyres carry m·g/cos φ (rolling resistance × normalFactor).
 */
export interface VeTrack {
  geometry: Required<TrackGeometry>
  comSpeed: Float64Array
  /** Height of the centre of mass above the track surface, m. */
  comHeight: Float64Array
  normalFactor: Float64Array
}

/**
 * The known Martin terms the VE model carries besides CdA and Crr (defaults: Martin 1998 values,
 * so the fitted CdA is the rider's CdA as the simulator uses it, spoke drag excluded). Set
 * `spokeDragAreaM2: 0, bearings: false, wheelInertiaKgM2: 0` for Chung's plain formula.
 */
export interface VeModelOptions {
  /** Spoke/wheel-rotation drag area added to CdA in the aero term, m² (default 0.0044). */
  spokeDragAreaM2?: number
  /** Wheel-bearing friction P_WB = v·(91 + 8.7·v)·10⁻³ W (default true). */
  bearings?: boolean
  /** Moment of inertia of both wheels for the kinetic-energy term, kg·m² (default 0.14; radius 0.311 m). */
  wheelInertiaKgM2?: number
}

/** Parameters of one VE trace (the sliders). */
export interface VeParams extends VeModelOptions {
  cda: number
  crr: number
  massKg: number
  drivetrainEfficiency: number
  /** Constant wind vector the air moves TOWARDS, east and north components, m/s (default 0). */
  windE?: number
  windN?: number
  /** Elevation of the first sample of the trace, m (default 0). */
  offsetM?: number
}

/** A contiguous stretch of samples [start, end) fitted with its own elevation offset. */
export interface VePiece {
  start: number
  end: number
  /** Which CdA this piece belongs to (index into the fitted CdA list). */
  group: number
  /** Which rolling resistance (tyre or surface) it rolls on: index of `VeFitOptions.crrGroups`; default 0. */
  crrGroup?: number
}

export interface VeFitOptions extends VeModelOptions {
  massKg: number
  drivetrainEfficiency: number
  /** Number of CdA groups (pieces carry a group index); default 1. */
  groups?: number
  /** Fixed Crr; fitted when absent. */
  crr?: number
  /** Fit a constant wind vector (needs headings; ignored when headings barely vary). */
  fitWind?: boolean
  /**
   * Number of rolling resistances (tyres or surfaces; default 1). With Crr fitted, group k > 0
   * gets its own Crr, fitted as Crr + shift k; with Crr held, `crrShifts` gives the shifts.
   */
  crrGroups?: number
  crrShifts?: number[]
  /** Known constant wind (the air moves TOWARDS east/north, m/s) used when wind is not fitted. */
  windE?: number
  windN?: number
  /**
   * A stated wind (the air moves TOWARDS east/north, m/s): where only the wind along one axis can
   * be fitted (an out-and-back), its component across that axis is held at this one's.
   */
  statedWindE?: number
  statedWindN?: number
  /**
   * With a fixed Crr: bootstrap replicates of it from an earlier fit (e.g. the session's Crr fitted
   * with one CdA per configuration); replicate b of this fit uses crrReplicates[b] (interval
   * 'bootstrap' only).
   */
  crrReplicates?: Float64Array
  /** With a fixed Crr: its standard error from an earlier fit, carried into the CdA intervals. */
  crrSe?: number
  /**
   * With Crr and wind held: an earlier fit's session-block replicates (`VeFitResult.blocks`, same
   * pieces), so block k of this fit's jackknife holds Crr and wind at that fit's block-k values.
   */
  sessionBlocks?: Array<{ crr: number; windE: number; windN: number }>
  /**
   * How the 95 % intervals are made: 'jackknife' (default: delete-a-block jackknife over
   * contiguous blocks of ≈ blockS seconds, Student t) or 'bootstrap' (moving blocks of the
   * innovations, `resamples` replicates, seeded).
   */
  interval?: 'jackknife' | 'bootstrap'
  /** Per-sample mask: 1 = use the sample in the fit (stops, braking, outliers = 0). */
  mask?: Uint8Array
  /** Huber threshold on residuals in robust units (default 1.345; Infinity = plain least squares). */
  huberK?: number
  /**
   * Generalised least squares with AR(1) elevation errors, the coefficient estimated from the
   * residuals (default true; false = ordinary least squares).
   */
  gls?: boolean
  /**
   * 0 = no intervals. Bootstrap: the number of replicates (default 200). Block length, s: the
   * jackknife's blocks (default 120) or the bootstrap's moving blocks (default 30).
   */
  resamples?: number
  blockS?: number
  seed?: number
}

export interface VeFitResult {
  /** CdA per group, m², and its 95 % interval. */
  cda: number[]
  cdaCi95: Array<[number, number]>
  crr: number
  crrCi95: [number, number]
  crrFixed: boolean
  /**
   * Per rolling-resistance group (`crrGroups`): its Crr minus group 0's (0 for group 0), and the
   * 95 % interval of that difference ([NaN, NaN] without one).
   */
  crrShift: number[]
  crrShiftCi95: Array<[number, number]>
  /** Per rolling-resistance group after the first, the 95 % interval of its own Crr. */
  crrGroupCi95: Array<[number, number]>
  windE: number
  windN: number
  windFitted: boolean
  /**
   * The axis (east, north unit vector) the wind was fitted along when only the wind along the
   * road can be seen (an out-and-back), else null. Across it, the wind is the stated one's or none.
   */
  windAxis: [number, number] | null
  /** Elevation offset per piece (VE starts at 0 at each piece's first sample), m. */
  offsets: number[]
  /** The usable stretches fitted, each with its own offset, and the piece it belongs to. */
  segments: Array<VeSegment & { piece: number }>
  /** Measured − virtual elevation per sample (NaN where not used). */
  residuals: Float64Array
  /** AR(1) coefficient of the elevation errors used by the GLS fit (0 = ordinary least squares). */
  phi: number
  rmseM: number
  /** RMSE per piece, m. */
  pieceRmseM: number[]
  samplesUsed: number
  iterations: number
  /** Standard errors and degrees of freedom of the intervals (CdA per group, Crr; jackknife). */
  cdaSe: number[]
  /**
   * Delete-a-block jackknife replicates over the whole session's blocks (jackknife intervals
   * only): every group's CdA, Crr and wind with block k left out — or, with `sessionBlocks`,
   * all the data refitted with that fit's block-k Crr and wind (the shared parameters' share of
   * a derived quantity's variance: (G − 1)/G·Σ(xₖ − x̄)²).
   */
  blocks: Array<{ cda: Float64Array; crr: number; windE: number; windN: number }>
  /** CdA standard errors without the fixed Crr's uncertainty (for differences between groups, where it cancels). */
  cdaSeOwn: number[]
  cdaDof: number[]
  crrSe: number
  crrDof: number
  /** Bootstrap replicates (interval 'bootstrap' only; else empty), for derived intervals. */
  bootstrapCda: Float64Array[]
  bootstrapCrr: Float64Array
  /** What the fit could not do (e.g. Crr not identifiable: held at 0.004). */
  warnings: string[]
}
