// Baseline comparison (Aerosensor protocol: baseline repeats bracket the configuration runs):
// the baseline's drift is a straight line in time through the baseline runs (least squares, one
// slope, a level per clock: files of different days are never put on one time line), and a run is
// corrected by it only between two baseline runs of its clock — the line is never extrapolated
// past them; elsewhere the run is compared with its clock's baseline mean and the comparison says
// so. Each configuration's ΔCdA is the mean of its runs minus the baseline at their times. ΔCdA is a linear combination Σ aᵣ·CdAᵣ of the runs' CdA, so its
// variance is Σ aᵣ²·SEᵣ² (the runs' own errors) + (Σ aᵣ·sharedᵣ)² (the session Crr they share,
// which cancels only between runs at the same speed), widened by the scatter between repeats
// beyond what the runs' own intervals explain; interval ΔCdA ± t(ν)·SD, Welch–Satterthwaite ν.
import { steadySpeed } from '../physics/martin.ts'
import {
  CDA_RANGE,
  DELTA_CDA_MAX,
  inRange,
  SECONDS_PER_40KM_MAX,
  WATTS_SAVED_MAX,
} from './sound.ts'
import type { AeroComparison, AeroConfigurationComparison, AeroWithheld } from './types.ts'
import { tQuantile975 } from './ve.ts'

export interface CompareRun {
  configuration: string
  /** Mid-time of the run, s. */
  t: number
  cda: number
  /** Standard error of the run's CdA and its degrees of freedom (NaN/0 without an interval). */
  se: number
  dof: number
  /**
   * The run's CdA change for a one-SE change of a parameter all runs share (the session's Crr):
   * ∂CdA/∂Crr·SE(Crr), signed. It cancels in ΔCdA only where the runs' speeds match.
   */
  sharedSe?: number
  /** The run's clock (`RunSpec.clock`); default 0. */
  clock?: number
}

/**
 * The session's joint VE fit: one CdA per configuration (repeats share it, with one Crr and wind)
 * and the same per session block of the delete-a-block jackknife (≥ 3 replicates).
 */
export interface JointFit {
  cda: Map<string, number>
  replicates: Array<Map<string, number>>
  /**
   * Whether the interval may come from the repeats' scatter (the runs share the fit's other
   * parameters); else the jackknife over the session's blocks.
   */
  runScatter: boolean
}

export interface CompareOptions {
  baseline: string
  rho: number
  massKg: number
  crr: number
  drivetrainEfficiency: number
  referenceSpeedMps: number
  referencePowerW: number
}

function variance(xs: number[]): number {
  if (xs.length < 2) return 0
  const m = xs.reduce((a, b) => a + b, 0) / xs.length
  return xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1)
}

/** The baseline runs of one clock: their indices in the baseline list, mean time and span. */
interface ClockGroup {
  ks: number[]
  tMean: number
  first: number
  last: number
}

/** The baseline's drift line through the baseline runs, and its value at any run. */
interface DriftModel {
  /** Indices (in `runs`) of the baseline runs with a CdA. */
  base: number[]
  clocks: Map<number, ClockGroup>
  /** Each baseline run's time from its clock's mean baseline time. */
  dt: number[]
  sxx: number
  /** Whether a slope is estimated (baseline runs spread in time on one clock). */
  sloped: boolean
  slope: number
  /** The baseline's CdA: the drift line at the first baseline run, else the baseline runs' mean. */
  baseMean: number
  t0: number
  clockOf(j: number): number
  /** Whether the drift line applies at run j: between two baseline runs of its clock. */
  bracketed(j: number): boolean
  /**
   * Weight of baseline run k in the baseline's value at run j: the drift line where it applies,
   * else the mean of the baseline runs of j's clock, else (no baseline on its clock) of all.
   */
  hat(k: number, j: number): number
  lineAt(j: number): number
}

/**
 * The comparison against the baseline configuration, or null without a usable baseline run.
 * `replicates` (optional): the runs' CdA refitted with each jackknife replicate of the shared
 * Crr and wind (one array per block, indexed like `runs`); their spread of ΔCdA replaces the
 * shared-Crr term, added to the runs' own errors. Every number outside its physical range
 * (`sound.ts`) is NaN and listed in `withheld` with the reason.
 */
export function compareRuns(
  runs: CompareRun[],
  o: CompareOptions,
  replicates?: Float64Array[],
  joint?: JointFit,
): AeroComparison | null {
  const ok = runs.map((r) => Number.isFinite(r.cda))
  const d = driftModel(runs, ok, o.baseline)
  if (!d) return null
  const { sloped, slope, clocks, clockOf } = d
  const corrected = runs.map((r, j) =>
    !Number.isFinite(r.cda)
      ? NaN
      : d.bracketed(j)
        ? r.cda - slope * (r.t - clocks.get(clockOf(j))!.first)
        : r.cda,
  )
  let driftNote: string | null = null
  if (!sloped) {
    driftNote =
      'no drift estimated: fewer than two baseline runs on one clock (each run is compared with the baseline mean)'
  }
  const scatter = baselineScatter(runs, d)
  const vBase = steadySpeed(o.referencePowerW, {
    rho: o.rho,
    cdaM2: d.baseMean,
    crr: o.crr,
    massKg: o.massKg,
    grade: 0,
    drivetrainEfficiency: o.drivetrainEfficiency,
  })
  const configs = [
    ...new Set(
      runs.filter((r, j) => ok[j] && r.configuration !== o.baseline).map((r) => r.configuration),
    ),
  ]
  const configurations = configs.map((configuration) => {
    const idx = runs
      .map((_, j) => j)
      .filter((j) => ok[j] && runs[j]!.configuration === configuration)
    return compareConfiguration(configuration, idx, runs, d, scatter, o, vBase, replicates, joint)
  })
  return {
    baseline: o.baseline,
    baselineCda: d.baseMean,
    driftPerHour: sloped ? slope * 3600 : NaN,
    driftLine: {
      t0: d.t0,
      intercept: d.baseMean,
      slopePerS: slope,
    },
    driftNote,
    correctedCda: corrected,
    referenceSpeedMps: o.referenceSpeedMps,
    referencePowerW: o.referencePowerW,
    configurations,
  }
}

/** The drift line through the baseline runs (one slope, a level per clock); null without any. */
function driftModel(runs: CompareRun[], ok: boolean[], baseline: string): DriftModel | null {
  const base = runs.map((_, j) => j).filter((j) => ok[j] && runs[j]!.configuration === baseline)
  if (base.length === 0) return null
  const nb = base.length
  const clockOf = (j: number) => runs[j]!.clock ?? 0
  // The baseline runs of each clock: their count, mean time and span.
  const clocks = new Map<number, ClockGroup>()
  base.forEach((j, k) => {
    const c = clockOf(j)
    const g = clocks.get(c) ?? { ks: [], tMean: 0, first: Infinity, last: -Infinity }
    g.ks.push(k)
    g.first = Math.min(g.first, runs[j]!.t)
    g.last = Math.max(g.last, runs[j]!.t)
    clocks.set(c, g)
  })
  for (const g of clocks.values())
    g.tMean = g.ks.reduce((a, k) => a + runs[base[k]!]!.t, 0) / g.ks.length
  const dt = base.map((j) => runs[j]!.t - clocks.get(clockOf(j))!.tMean)
  const sxx = dt.reduce((a, d) => a + d * d, 0)
  const sloped = sxx > 1
  const slope = sloped ? base.reduce((a, j, k) => a + (dt[k]! * runs[j]!.cda) / sxx, 0) : 0
  const bracketed = (j: number): boolean => {
    const g = clocks.get(clockOf(j))
    return sloped && g !== undefined && runs[j]!.t >= g.first && runs[j]!.t <= g.last
  }
  const hat = (k: number, j: number): number => {
    const c = clockOf(j)
    const g = clocks.get(c)
    if (!g) return 1 / nb
    const own = clockOf(base[k]!) === c ? 1 / g.ks.length : 0
    return bracketed(j) ? own + (dt[k]! * (runs[j]!.t - g.tMean)) / sxx : own
  }
  const lineAt = (j: number): number => base.reduce((a, b, k) => a + hat(k, j) * runs[b]!.cda, 0)
  const firstClock = clocks.get(clockOf(base[0]!))!
  const t0 = runs[base[0]!]!.t
  const baseMean = sloped
    ? firstClock.ks.reduce((a, k) => a + runs[base[k]!]!.cda, 0) / firstClock.ks.length +
      slope * (t0 - firstClock.tMean)
    : base.reduce((a, j) => a + runs[j]!.cda, 0) / nb
  return { base, clocks, dt, sxx, sloped, slope, baseMean, t0, clockOf, bracketed, hat, lineAt }
}

/** Scatter of the baseline repeats about the drift line beyond what their intervals explain. */
interface BaselineScatter {
  /** Its variance's share in the baseline's value (per baseline run). */
  baseExtra: number
  baseDof: number
}

function baselineScatter(runs: CompareRun[], d: DriftModel): BaselineScatter {
  const { base, clocks, clockOf, dt, sxx, sloped } = d
  const nb = base.length
  let baseExtra = 0
  const baseDof = nb - clocks.size - (sloped ? 1 : 0)
  if (baseDof >= 1) {
    const s2 =
      base.reduce((a, j) => {
        const g = clocks.get(clockOf(j))!
        const line = base.reduce(
          (acc, b, k) =>
            acc +
            ((clockOf(b) === clockOf(j) ? 1 / g.ks.length : 0) +
              (sloped ? (dt[k]! * (runs[j]!.t - g.tMean)) / sxx : 0)) *
              runs[b]!.cda,
          0,
        )
        return a + (runs[j]!.cda - line) ** 2
      }, 0) / baseDof
    const mb =
      base.reduce((a, j) => a + (Number.isFinite(runs[j]!.se) ? runs[j]!.se ** 2 : 0), 0) / nb
    baseExtra = Math.max(0, s2 - mb) / nb
  }
  return { baseExtra, baseDof }
}

/** One configuration (runs `idx`) against the baseline: ΔCdA, its interval, W and s saved. */
function compareConfiguration(
  configuration: string,
  idx: number[],
  runs: CompareRun[],
  d: DriftModel,
  scatter: BaselineScatter,
  o: CompareOptions,
  vBase: number,
  replicates: Float64Array[] | undefined,
  joint: JointFit | undefined,
): AeroConfigurationComparison {
  const nc = idx.length
  const notes: string[] = []
  const outside = idx.filter((j) => d.sloped && !d.bracketed(j))
  const foreign = idx.filter((j) => !d.clocks.has(d.clockOf(j)))
  if (foreign.length > 0) {
    notes.push(
      `${foreign.length} of its ${nc} run${nc === 1 ? '' : 's'} on another day or file clock than every baseline run: ` +
        'compared with the mean of all baseline runs, no drift correction',
    )
  }
  if (outside.length > foreign.length) {
    notes.push(
      `drift not corrected for ${outside.length - foreign.length} of its ${nc} run${nc === 1 ? '' : 's'}: ` +
        'not between two baseline runs of their clock (the drift is never extrapolated); ' +
        'ride a baseline run after them',
    )
  }
  const fromJoint = joint ? jointDelta(configuration, idx, runs, d, o.baseline, joint) : null
  const { delta, hw } = fromJoint ?? deltaInterval(idx, runs, d, scatter, replicates)
  const ref = o.referenceSpeedMps
  const vCfg = steadySpeed(o.referencePowerW, {
    rho: o.rho,
    cdaM2: d.baseMean + delta,
    crr: o.crr,
    massKg: o.massKg,
    grade: 0,
    drivetrainEfficiency: o.drivetrainEfficiency,
  })
  const k: AeroConfigurationComparison = {
    configuration,
    runs: idx,
    cda: d.baseMean + delta,
    deltaCda: delta,
    deltaCdaCi95: [delta - hw, delta + hw],
    deltaPercent: (100 * delta) / d.baseMean,
    wattsSaved: (-0.5 * o.rho * delta * ref * ref * ref) / o.drivetrainEfficiency,
    secondsPer40km: 40000 / vBase - 40000 / vCfg,
    verdict: 'no_difference',
    basis: fromJoint ? 'session_fit' : 'runs',
    ...(fromJoint ? { interval: fromJoint.interval } : {}),
    withheld: [],
    notes,
  }
  const sound = soundConfiguration(k, hw)
  if (foreign.length === nc && sound.verdict !== 'withheld') {
    // Every run of it on a day without a baseline run: the day's conditions (air, road,
    // position on the bike) are not separated from the configuration's.
    sound.verdict = 'withheld'
    sound.withheld.push({
      field: 'verdict',
      reason:
        'no verdict: every run of it is on another day or file clock than the baseline runs, so the ' +
        "day's conditions are not separated from the configuration; ride baseline runs around it on the same day",
    })
  }
  return sound
}

/**
 * ΔCdA from the session's joint fit: the configuration's CdA minus the baseline's, less the
 * baseline's drift between the two (the per-run rule: the drift line only for runs between two
 * baseline runs, never extrapolated), and its 95 % half-width: the jackknife over the session's
 * blocks (Student t, blocks − 1 degrees of freedom) plus the drift slope's own uncertainty.
 * Null (the per-run comparison is used) when the fit has no such configuration or replicates, or
 * the runs are on more than one clock (the joint fit would pool days).
 */
function jointDelta(
  configuration: string,
  idx: number[],
  runs: CompareRun[],
  d: DriftModel,
  baseline: string,
  joint: JointFit,
): { delta: number; hw: number; interval: 'repeats' | 'session_jackknife' } | null {
  const jc = joint.cda.get(configuration)
  const jb = joint.cda.get(baseline)
  const reps = joint.replicates
  if (jc === undefined || jb === undefined || reps.length < 3 || d.clocks.size !== 1) return null
  if (!Number.isFinite(jc) || !Number.isFinite(jb)) return null
  if (idx.some((j) => !d.clocks.has(d.clockOf(j)))) return null
  const g = [...d.clocks.values()][0]!
  // Mean time offset (from the baseline runs' mean time) of the runs the drift line corrects.
  const lever =
    idx.reduce((a, j) => a + (d.bracketed(j) ? runs[j]!.t - g.tMean : 0), 0) / idx.length
  const drift = d.slope * lever
  const ds: number[] = []
  for (const r of reps) {
    const c = r.get(configuration)
    const b = r.get(baseline)
    if (c !== undefined && b !== undefined && Number.isFinite(c - b)) ds.push(c - b - drift)
  }
  if (ds.length < 3) return null
  const slopeVar = d.sloped ? driftSlopeVariance(runs, d) : 0
  const between = driftCorrectedScatter(runs, d, g)
  let hw: number
  const repeats = joint.runScatter && between.dof >= MIN_SCATTER_DOF
  if (repeats) {
    const nb = d.base.length
    const v = between.s2 * (1 / idx.length + 1 / nb) + lever * lever * slopeVar
    hw = tQuantile975(between.dof) * Math.sqrt(v)
  } else {
    const mean = ds.reduce((a, b) => a + b, 0) / ds.length
    const jk = ((ds.length - 1) / ds.length) * ds.reduce((a, b) => a + (b - mean) ** 2, 0)
    hw = tQuantile975(ds.length - 1) * Math.sqrt(jk + lever * lever * slopeVar)
  }
  return { delta: jc - jb - drift, hw, interval: repeats ? 'repeats' : 'session_jackknife' }
}

/**
 * Degrees of freedom of the runs' scatter from which the session fit's interval is made; with
 * fewer, the delete-a-block jackknife over the session is used instead.
 */
const MIN_SCATTER_DOF = 3

/**
 * The repeats' scatter: each run's CdA (drift-corrected where the line applies) about its
 * configuration's mean, pooled over the configurations of the one clock, with its degrees of
 * freedom (runs − configurations − the drift slope). The replicate runs measure the session's
 * whole run-to-run noise (wind gusts, position, elevation error); on synthetic sessions the
 * interval it gives covers the truth at the nominal rate, where the block jackknife of the joint
 * fit is about 1.5× too wide (docs/engine/aero.md, "Intervals").
 */
function driftCorrectedScatter(
  runs: CompareRun[],
  d: DriftModel,
  g: ClockGroup,
): { s2: number; dof: number } {
  const byConfig = new Map<string, number[]>()
  runs.forEach((r, j) => {
    if (!Number.isFinite(r.cda) || d.clockOf(j) !== d.clockOf(d.base[0]!)) return
    const x = d.bracketed(j) ? r.cda - d.slope * (r.t - g.tMean) : r.cda
    const list = byConfig.get(r.configuration) ?? []
    list.push(x)
    byConfig.set(r.configuration, list)
  })
  let ss = 0
  let n = 0
  for (const xs of byConfig.values()) {
    const m = xs.reduce((a, b) => a + b, 0) / xs.length
    ss += xs.reduce((a, b) => a + (b - m) ** 2, 0)
    n += xs.length
  }
  const dof = n - byConfig.size - (d.sloped ? 1 : 0)
  return { s2: dof > 0 ? ss / dof : NaN, dof }
}

/**
 * The variance of the drift slope: the baseline runs' scatter about the line over Σ(t − t̄)²,
 * the scatter from the residuals when there are more than two baseline runs, else from the
 * runs' own standard errors (NaN when neither exists: no interval).
 */
function driftSlopeVariance(runs: CompareRun[], d: DriftModel): number {
  const { base, sxx } = d
  const dof = base.length - d.clocks.size - 1
  let s2: number
  if (dof >= 1) {
    s2 = base.reduce((a, j) => a + (runs[j]!.cda - d.lineAt(j)) ** 2, 0) / dof
  } else {
    s2 = base.reduce((a, j) => a + runs[j]!.se ** 2, 0) / base.length
  }
  return s2 / sxx
}

/** ΔCdA of the runs `idx` (mean of each minus the baseline at its time) and its 95 % half-width. */
function deltaInterval(
  idx: number[],
  runs: CompareRun[],
  d: DriftModel,
  scatter: BaselineScatter,
  replicates: Float64Array[] | undefined,
): { delta: number; hw: number } {
  const { base, hat } = d
  const nc = idx.length
  const deltas = idx.map((j) => runs[j]!.cda - d.lineAt(j))
  const delta = deltas.reduce((a, b) => a + b, 0) / nc
  // Coefficients of Δ = Σ aᵣ·CdAᵣ.
  const terms: Array<{ v: number; dof: number }> = []
  for (const j of idx) terms.push({ v: (runs[j]!.se / nc) ** 2, dof: runs[j]!.dof })
  const aBase = base.map((_, k) => idx.reduce((acc, r) => acc + hat(k, r), 0) / nc)
  base.forEach((j, k) => terms.push({ v: (aBase[k]! * runs[j]!.se) ** 2, dof: runs[j]!.dof }))
  let v = terms.reduce((a, x) => a + x.v, 0)
  const reps = replicates && replicates.length >= 3 ? replicates : null
  let jkVar = NaN
  if (reps) {
    // Δ for each replicate, with its own baseline through the replicate's baseline runs.
    const ds: number[] = []
    for (const rep of reps) {
      let sum = 0
      for (const j of idx) sum += rep[j]! - base.reduce((a, b, k) => a + hat(k, j) * rep[b]!, 0)
      ds.push(sum / nc)
    }
    const mean = ds.reduce((a, b) => a + b, 0) / ds.length
    jkVar = ((ds.length - 1) / ds.length) * ds.reduce((a, b) => a + (b - mean) ** 2, 0)
  }
  // The shared parameter moves every run's CdA together: Σ aᵣ·sharedᵣ.
  let shared = 0
  for (const j of idx) shared += (runs[j]!.sharedSe ?? 0) / nc
  base.forEach((j, k) => {
    shared -= aBase[k]! * (runs[j]!.sharedSe ?? 0)
  })
  const welch = terms.reduce((a, x) => a + (x.dof > 0 ? (x.v * x.v) / x.dof : Infinity), 0)
  let dof = welch > 0 ? (v * v) / welch : Infinity
  // The shared parameters: from their replicates when given, else the Crr sensitivity.
  const sharedVar = Number.isFinite(jkVar) ? jkVar : shared * shared
  if (Number.isFinite(jkVar) && jkVar > v) dof = Math.min(dof, reps!.length - 1)
  v += sharedVar
  let extra = scatter.baseExtra
  if (nc >= 2) {
    const mb = idx.reduce((a, j) => a + runs[j]!.se ** 2, 0) / nc
    extra += Math.max(0, variance(deltas) - mb) / nc
  }
  // When the scatter between repeats dominates, its few degrees of freedom govern the interval.
  if (extra > v) dof = Math.min(dof, Math.max(1, nc >= 2 ? nc - 1 : Math.max(1, scatter.baseDof)))
  v += extra
  const hw = tQuantile975(Number.isFinite(dof) ? dof : 1000) * Math.sqrt(v)
  return { delta, hw }
}

/**
 * The configuration's figures as reported: each outside its physical range withheld (NaN, with
 * the reason), the verdict only from an interval that can be given.
 */
function soundConfiguration(k: AeroConfigurationComparison, hw: number) {
  const w: AeroWithheld[] = k.withheld
  const drop = (field: string, reason: string) => w.push({ field, reason })
  if (!inRange(k.cda, CDA_RANGE) || !inRange(Math.abs(k.deltaCda), [0, DELTA_CDA_MAX])) {
    const reason = `outside the physical range of a rider on a bike (CdA ${CDA_RANGE[0]}–${CDA_RANGE[1]} m², |ΔCdA| ≤ ${DELTA_CDA_MAX.toFixed(1)} m²)`
    for (const f of ['cda', 'delta_cda', 'delta_cda_ci95', 'watts_saved', 'seconds_per_40km'])
      drop(f, `${f} withheld: ${reason}`)
    k.cda = NaN
    k.deltaCda = NaN
    k.deltaPercent = NaN
    k.deltaCdaCi95 = [NaN, NaN]
    k.wattsSaved = NaN
    k.secondsPer40km = NaN
    k.verdict = 'withheld'
    return k
  }
  const [lo, hi] = k.deltaCdaCi95
  if (!Number.isFinite(hw) || hw <= 1e-9) {
    drop(
      'delta_cda_ci95',
      'no 95 % interval of ΔCdA: too few runs with an interval to estimate the scatter; ride more repeats',
    )
  } else if (lo < -DELTA_CDA_MAX || hi > DELTA_CDA_MAX) {
    drop(
      'delta_cda_ci95',
      `95 % interval of ΔCdA withheld: wider than the physical range ±${DELTA_CDA_MAX.toFixed(1)} m², so the runs do not determine it`,
    )
  }
  if (w.length > 0) {
    k.deltaCdaCi95 = [NaN, NaN]
    k.verdict = 'withheld'
  } else k.verdict = hi < 0 ? 'faster' : lo > 0 ? 'slower' : 'no_difference'
  if (!inRange(Math.abs(k.wattsSaved), [0, WATTS_SAVED_MAX])) {
    drop('watts_saved', `W saved withheld: beyond ±${WATTS_SAVED_MAX} W`)
    k.wattsSaved = NaN
  }
  if (!inRange(Math.abs(k.secondsPer40km), [0, SECONDS_PER_40KM_MAX])) {
    drop('seconds_per_40km', `s per 40 km withheld: beyond ±${SECONDS_PER_40KM_MAX} s`)
    k.secondsPer40km = NaN
  }
  return k
}
