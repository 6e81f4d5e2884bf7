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
import {
  baselineScatter,
  driftCorrectedScatter,
  driftModel,
  driftSlopeVariance,
  type BaselineScatter,
  type CompareRun,
  type DriftModel,
} from './compare-drift.ts'

export type { CompareRun } from './compare-drift.ts'

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
