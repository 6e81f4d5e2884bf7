// Baseline comparison (Aerosensor protocol: baseline repeats bracket the configuration runs):
// the baseline's drift is a straight line in time through the baseline runs, every run is
// corrected by it, and each configuration's ΔCdA is the mean of its runs minus the drift line at
// their times. Intervals: the same bootstrap replicates as the runs' intervals (so shared Crr and
// wind uncertainty carry through), widened by the scatter between repeats when there are any.
import { steadySpeed } from '../physics/martin.ts'
import type { AeroComparison, AeroConfigurationComparison } from './types.ts'
import { quantile } from './random.ts'

export interface CompareRun {
  configuration: string
  /** Mid-time of the run, s. */
  t: number
  cda: number
  /** Bootstrap replicates of the run's CdA (same length for all runs; may be empty). */
  boot: Float64Array
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

interface Line {
  intercept: number
  slope: number
}

function driftLine(ts: number[], ys: number[], t0: number): Line {
  const k = ts.length
  if (k === 0) return { intercept: NaN, slope: 0 }
  let mt = 0
  let my = 0
  for (let j = 0; j < k; j++) {
    mt += ts[j]! - t0
    my += ys[j]!
  }
  mt /= k
  my /= k
  let sxx = 0
  let sxy = 0
  for (let j = 0; j < k; j++) {
    sxx += (ts[j]! - t0 - mt) ** 2
    sxy += (ts[j]! - t0 - mt) * (ys[j]! - my)
  }
  const slope = k >= 2 && sxx > 1 ? sxy / sxx : 0
  return { intercept: my - slope * mt, slope }
}

function variance(xs: number[]): number {
  if (xs.length < 2) return 0
  const m = xs.reduce((a, b) => a + b, 0) / xs.length
  return xs.reduce((a, b) => a + (b - m) ** 2, 0) / (xs.length - 1)
}

/** The comparison against the baseline configuration, or null without a usable baseline run. */
export function compareRuns(runs: CompareRun[], o: CompareOptions): AeroComparison | null {
  const ok = runs.map((r) => Number.isFinite(r.cda))
  const base = runs.map((r, j) => j).filter((j) => ok[j] && runs[j]!.configuration === o.baseline)
  if (base.length === 0) return null
  const t0 = runs[base[0]!]!.t
  const line = driftLine(
    base.map((j) => runs[j]!.t),
    base.map((j) => runs[j]!.cda),
    t0,
  )
  const at = (l: Line, t: number): number => l.intercept + l.slope * (t - t0)
  const corrected = runs.map((r) =>
    Number.isFinite(r.cda) ? r.cda - line.slope * (r.t - t0) : NaN,
  )
  const B = Math.min(...runs.filter((r, j) => ok[j]).map((r) => r.boot.length))
  // Bootstrap drift lines, one per replicate.
  const bootLines: Line[] = []
  for (let b = 0; b < B; b++) {
    bootLines.push(
      driftLine(
        base.map((j) => runs[j]!.t),
        base.map((j) => runs[j]!.boot[b]!),
        t0,
      ),
    )
  }
  const bootVar = (j: number): number => {
    const xs: number[] = []
    for (let b = 0; b < B; b++) if (Number.isFinite(runs[j]!.boot[b])) xs.push(runs[j]!.boot[b]!)
    return variance(xs)
  }
  // Scatter of the baseline repeats about the drift line beyond what the bootstrap explains.
  let baseExtra = 0
  if (base.length >= 3) {
    const res = base.map((j) => runs[j]!.cda - at(line, runs[j]!.t))
    const s2 = res.reduce((a, r) => a + r * r, 0) / (base.length - 2)
    const mb = base.reduce((a, j) => a + bootVar(j), 0) / base.length
    baseExtra = Math.max(0, s2 - mb) / base.length
  }
  const configs = [
    ...new Set(
      runs.filter((r, j) => ok[j] && r.configuration !== o.baseline).map((r) => r.configuration),
    ),
  ]
  const baselineCda = line.intercept
  const vBase = steadySpeed(o.referencePowerW, {
    rho: o.rho,
    cdaM2: baselineCda,
    crr: o.crr,
    massKg: o.massKg,
    grade: 0,
    drivetrainEfficiency: o.drivetrainEfficiency,
  })
  const comparisons: AeroConfigurationComparison[] = configs.map((configuration) => {
    const idx = runs
      .map((r, j) => j)
      .filter((j) => ok[j] && runs[j]!.configuration === configuration)
    const deltas = idx.map((j) => runs[j]!.cda - at(line, runs[j]!.t))
    const delta = deltas.reduce((a, b) => a + b, 0) / deltas.length
    const bootDelta = new Float64Array(B)
    for (let b = 0; b < B; b++) {
      let sum = 0
      for (const j of idx) sum += runs[j]!.boot[b]! - at(bootLines[b]!, runs[j]!.t)
      bootDelta[b] = sum / idx.length
    }
    let lo = B > 0 ? quantile(bootDelta, 0.025) : delta
    let hi = B > 0 ? quantile(bootDelta, 0.975) : delta
    let extra = baseExtra
    if (idx.length >= 2) {
      const mb = idx.reduce((a, j) => a + bootVar(j), 0) / idx.length
      extra += Math.max(0, variance(deltas) - mb) / idx.length
    }
    if (extra > 0) {
      const z2 = 1.96 * 1.96 * extra
      lo = delta - Math.sqrt((delta - lo) ** 2 + z2)
      hi = delta + Math.sqrt((hi - delta) ** 2 + z2)
    }
    const v = o.referenceSpeedMps
    const wattsSaved = (-0.5 * o.rho * delta * v * v * v) / o.drivetrainEfficiency
    const vCfg = steadySpeed(o.referencePowerW, {
      rho: o.rho,
      cdaM2: baselineCda + delta,
      crr: o.crr,
      massKg: o.massKg,
      grade: 0,
      drivetrainEfficiency: o.drivetrainEfficiency,
    })
    const secondsPer40km = 40000 / vBase - 40000 / vCfg
    const verdict: AeroConfigurationComparison['verdict'] =
      B > 0 && Number.isFinite(hi) && hi < 0
        ? 'faster'
        : B > 0 && lo > 0
          ? 'slower'
          : 'no_difference'
    return {
      configuration,
      runs: idx,
      cda: baselineCda + delta,
      deltaCda: delta,
      deltaCdaCi95: [lo, hi] as [number, number],
      deltaPercent: (100 * delta) / baselineCda,
      wattsSaved,
      secondsPer40km,
      verdict,
    }
  })
  return {
    baseline: o.baseline,
    baselineCda,
    driftPerHour: line.slope * 3600,
    driftLine: { t0, intercept: line.intercept, slopePerS: line.slope },
    correctedCda: corrected,
    referenceSpeedMps: o.referenceSpeedMps,
    referencePowerW: o.referencePowerW,
    configurations: comparisons,
  }
}
