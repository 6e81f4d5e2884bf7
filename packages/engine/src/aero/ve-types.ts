// The virtual-elevation model's and fit's types (ve-model.ts, ve.ts): the per-sample series, the
// velodrome's geometry, the model's parameters, the pieces a fit takes and what it gives back.
// SI units throughout; types.ts re-exports them with the analysis' boundary types.

/** A stretch of usable samples [start, end) fitted with its own elevation offset, m. */
export interface VeSegment {
  start: number
  end: number
  offsetM: number
}

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
