// The baseline's drift through a session (compare.ts): the runs as the comparison sees them, the
// drift line through the baseline runs (one slope, a level per clock; never extrapolated past
// them), the baseline repeats' scatter about it, the drift slope's variance, and the repeats'
// scatter about their configurations' means from which the session fit's interval is made.
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

/** The baseline runs of one clock: their indices in the baseline list, mean time and span. */
export interface ClockGroup {
  ks: number[]
  tMean: number
  first: number
  last: number
}

/** The baseline's drift line through the baseline runs, and its value at any run. */
export interface DriftModel {
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

/** The drift line through the baseline runs (one slope, a level per clock); null without any. */
export function driftModel(runs: CompareRun[], ok: boolean[], baseline: string): DriftModel | null {
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
export interface BaselineScatter {
  /** Its variance's share in the baseline's value (per baseline run). */
  baseExtra: number
  baseDof: number
}

export function baselineScatter(runs: CompareRun[], d: DriftModel): BaselineScatter {
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

/**
 * The repeats' scatter: each run's CdA (drift-corrected where the line applies) about its
 * configuration's mean, pooled over the configurations of the one clock, with its degrees of
 * freedom (runs − configurations − the drift slope). The replicate runs measure the session's
 * whole run-to-run noise (wind gusts, position, elevation error); on synthetic sessions the
 * interval it gives covers the truth at the nominal rate, where the block jackknife of the joint
 * fit is about 1.5× too wide (docs/engine/aero.md, "Intervals").
 */
export function driftCorrectedScatter(
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
export function driftSlopeVariance(runs: CompareRun[], d: DriftModel): number {
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
