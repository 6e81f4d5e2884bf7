// Baseline comparison (Aerosensor protocol: baseline repeats bracket the configuration runs):
// the baseline's drift is a straight line in time through the baseline runs (least squares),
// every run is corrected by it, and each configuration's ΔCdA is the mean of its runs minus the
// drift line at their times. ΔCdA is a linear combination Σ aᵣ·CdAᵣ of the runs' CdA, so its
// variance is Σ aᵣ²·SEᵣ² (the runs' own errors) + (Σ aᵣ·sharedᵣ)² (the session Crr they share,
// which cancels only between runs at the same speed), widened by the scatter between repeats
// beyond what the runs' own intervals explain; interval ΔCdA ± t(ν)·SD, Welch–Satterthwaite ν.
import { steadySpeed } from '../physics/martin.ts'
import type { AeroComparison, AeroConfigurationComparison } from './types.ts'
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
 * shared-Crr term, added to the runs' own errors.
 */
export function compareRuns(
  runs: CompareRun[],
  o: CompareOptions,
  replicates?: Float64Array[],
): AeroComparison | null {
  const ok = runs.map((r) => Number.isFinite(r.cda))
  const base = runs.map((_, j) => j).filter((j) => ok[j] && runs[j]!.configuration === o.baseline)
  if (base.length === 0) return null
  const t0 = runs[base[0]!]!.t
  const nb = base.length
  const tb = base.map((j) => runs[j]!.t - t0)
  const tMean = tb.reduce((a, b) => a + b, 0) / nb
  const sxx = tb.reduce((a, t) => a + (t - tMean) ** 2, 0)
  const sloped = nb >= 2 && sxx > 1
  /** Weight of baseline run k in the drift line's value at time t (least-squares hat). */
  const hat = (k: number, t: number): number =>
    1 / nb + (sloped ? ((tb[k]! - tMean) * (t - t0 - tMean)) / sxx : 0)
  const lineAt = (t: number): number => base.reduce((a, j, k) => a + hat(k, t) * runs[j]!.cda, 0)
  const slope = sloped
    ? base.reduce((a, j, k) => a + ((tb[k]! - tMean) * runs[j]!.cda) / sxx, 0)
    : 0
  const intercept = lineAt(t0)
  const corrected = runs.map((r) => (Number.isFinite(r.cda) ? r.cda - slope * (r.t - t0) : NaN))

  // Scatter of the baseline repeats about the drift line beyond what their intervals explain.
  let baseExtra = 0
  if (nb >= 3) {
    const s2 = base.reduce((a, j) => a + (runs[j]!.cda - lineAt(runs[j]!.t)) ** 2, 0) / (nb - 2)
    const mb =
      base.reduce((a, j) => a + (Number.isFinite(runs[j]!.se) ? runs[j]!.se ** 2 : 0), 0) / nb
    baseExtra = Math.max(0, s2 - mb) / nb
  }
  const vBase = steadySpeed(o.referencePowerW, {
    rho: o.rho,
    cdaM2: intercept,
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
  const configurations: AeroConfigurationComparison[] = configs.map((configuration) => {
    const idx = runs
      .map((_, j) => j)
      .filter((j) => ok[j] && runs[j]!.configuration === configuration)
    const nc = idx.length
    const deltas = idx.map((j) => runs[j]!.cda - lineAt(runs[j]!.t))
    const delta = deltas.reduce((a, b) => a + b, 0) / nc
    // Coefficients of Δ = Σ aᵣ·CdAᵣ.
    const terms: Array<{ v: number; dof: number }> = []
    for (const j of idx) terms.push({ v: (runs[j]!.se / nc) ** 2, dof: runs[j]!.dof })
    base.forEach((j, k) => {
      const a = idx.reduce((acc, r) => acc + hat(k, runs[r]!.t), 0) / nc
      terms.push({ v: (a * runs[j]!.se) ** 2, dof: runs[j]!.dof })
    })
    let v = terms.reduce((a, x) => a + x.v, 0)
    const reps = replicates && replicates.length >= 3 ? replicates : null
    let jkVar = NaN
    if (reps) {
      // Δ for each replicate, with its own drift line through the replicate's baseline runs.
      const ds: number[] = []
      for (const rep of reps) {
        const lineRep = (t: number): number => base.reduce((a, j, k) => a + hat(k, t) * rep[j]!, 0)
        let sum = 0
        for (const j of idx) sum += rep[j]! - lineRep(runs[j]!.t)
        ds.push(sum / nc)
      }
      const mean = ds.reduce((a, b) => a + b, 0) / ds.length
      jkVar = ((ds.length - 1) / ds.length) * ds.reduce((a, b) => a + (b - mean) ** 2, 0)
    }
    // The shared parameter moves every run's CdA together: Σ aᵣ·sharedᵣ.
    let shared = 0
    for (const j of idx) shared += (runs[j]!.sharedSe ?? 0) / nc
    base.forEach((j, k) => {
      const a = idx.reduce((acc, r) => acc + hat(k, runs[r]!.t), 0) / nc
      shared -= a * (runs[j]!.sharedSe ?? 0)
    })
    const welch = terms.reduce((a, x) => a + (x.dof > 0 ? (x.v * x.v) / x.dof : Infinity), 0)
    let dof = welch > 0 ? (v * v) / welch : Infinity
    // The shared parameters: from their replicates when given, else the Crr sensitivity.
    const sharedVar = Number.isFinite(jkVar) ? jkVar : shared * shared
    if (Number.isFinite(jkVar) && jkVar > v) dof = Math.min(dof, reps!.length - 1)
    v += sharedVar
    let extra = baseExtra
    if (nc >= 2) {
      const mb = idx.reduce((a, j) => a + runs[j]!.se ** 2, 0) / nc
      extra += Math.max(0, variance(deltas) - mb) / nc
    }
    // When the scatter between repeats dominates, its few degrees of freedom govern the interval.
    if (extra > v) dof = Math.min(dof, Math.max(1, nc >= 2 ? nc - 1 : nb - 2))
    v += extra
    const hw = tQuantile975(Number.isFinite(dof) ? dof : 1000) * Math.sqrt(v)
    const lo = delta - hw
    const hi = delta + hw
    const ref = o.referenceSpeedMps
    const wattsSaved = (-0.5 * o.rho * delta * ref * ref * ref) / o.drivetrainEfficiency
    const vCfg = steadySpeed(o.referencePowerW, {
      rho: o.rho,
      cdaM2: intercept + delta,
      crr: o.crr,
      massKg: o.massKg,
      grade: 0,
      drivetrainEfficiency: o.drivetrainEfficiency,
    })
    const verdict: AeroConfigurationComparison['verdict'] =
      Number.isFinite(hw) && hi < 0
        ? 'faster'
        : Number.isFinite(hw) && lo > 0
          ? 'slower'
          : 'no_difference'
    return {
      configuration,
      runs: idx,
      cda: intercept + delta,
      deltaCda: delta,
      deltaCdaCi95: [lo, hi] as [number, number],
      deltaPercent: (100 * delta) / intercept,
      wattsSaved,
      secondsPer40km: 40000 / vBase - 40000 / vCfg,
      verdict,
    }
  })
  return {
    baseline: o.baseline,
    baselineCda: intercept,
    driftPerHour: slope * 3600,
    driftLine: { t0, intercept, slopePerS: slope },
    correctedCda: corrected,
    referenceSpeedMps: o.referenceSpeedMps,
    referencePowerW: o.referencePowerW,
    configurations,
  }
}
