// The test planner: how many bracketed runs of the baseline and of a configuration resolve a
// ΔCdA of a given size. Two-sample comparison of means with equal group sizes (docs/engine/aero.md,
// "Test planner"): n per configuration = 2·(z₀.₉₇₅ + z_power)²·σ²/Δ², σ the scatter of repeated runs
// of one configuration, Δ the difference to resolve, a two-sided 5 % test with the given power.
import type { AeroComparison } from './types.ts'

/** ΔCdA a tester asks about by default, m². */
export const DEFAULT_RESOLVE_CDA = 0.003
/** Power of the test: the chance of resolving a true ΔCdA of that size. */
export const DEFAULT_POWER = 0.8
/**
 * The run-to-run scatter of one configuration used before a session has repeats, m²: the middle
 * of the helmet tests' repeats within a file (0.011–0.026 m², docs/engine/aero.md).
 */
export const DEFAULT_RUN_SD = 0.015

const Z975 = 1.959964

/** Standard normal quantile (Acklam's rational approximation, |error| < 1.2e-9). */
export function normalQuantile(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ]
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972,
    -13.28068155288572,
  ]
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734,
    4.374664141464968, 2.938163982698783,
  ]
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416]
  const lo = 0.02425
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p))
    return (
      (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
      ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1)
    )
  }
  if (p > 1 - lo) return -normalQuantile(1 - p)
  const q = p - 0.5
  const r = q * q
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  )
}

/** Runs per configuration that resolve `delta` with `power` when repeats scatter by `sd`. */
export function runsNeeded(sd: number, delta = DEFAULT_RESOLVE_CDA, power = DEFAULT_POWER): number {
  const z = Z975 + normalQuantile(power)
  return Math.max(2, Math.ceil((2 * z * z * sd * sd) / (delta * delta)))
}

/**
 * The scatter of repeated runs of one configuration (pooled within configurations, m²), from
 * the runs' CdA (NaN: left out), or null with fewer than two repeats of any configuration.
 */
export function runScatter(runs: { configuration: string; cda: number }[]): number | null {
  const by = new Map<string, number[]>()
  for (const r of runs) {
    if (!Number.isFinite(r.cda)) continue
    by.set(r.configuration, [...(by.get(r.configuration) ?? []), r.cda])
  }
  let ss = 0
  let dof = 0
  for (const xs of by.values()) {
    if (xs.length < 2) continue
    const m = xs.reduce((a, b) => a + b, 0) / xs.length
    ss += xs.reduce((a, x) => a + (x - m) ** 2, 0)
    dof += xs.length - 1
  }
  return dof > 0 ? Math.sqrt(ss / dof) : null
}

export interface AeroPlanAnswer {
  configuration: string
  /** 'resolved': the interval excludes 0 or is within ±delta; 'more_runs': ride these. */
  status: 'resolved' | 'more_runs'
  baselineRuns: number
  configurationRuns: number
  /** More runs of the baseline and of the configuration (0 when resolved). */
  moreBaselineRuns: number
  moreConfigurationRuns: number
  text: string
}

export interface AeroPlan {
  /** ΔCdA to resolve, m², and the power. */
  delta: number
  power: number
  /** Run-to-run scatter used, m², and where it came from. */
  runSd: number
  /**
   * 'session_fit': implied by the session fit's ΔCdA intervals (the scatter a run would need to
   * give that precision: SE·/√(1/n_baseline + 1/n_configuration)); 'session': the scatter of
   * the runs' own CdA between repeats; 'default': DEFAULT_RUN_SD.
   */
  runSdSource: 'session_fit' | 'session' | 'default'
  /** Runs per configuration (baseline included) the question needs. */
  runsPerConfiguration: number
  answers: AeroPlanAnswer[]
}

const f3 = (x: number) => Math.abs(x).toFixed(3)

/**
 * The run-to-run scatter that the session fit's ΔCdA intervals imply (root mean square over the
 * configurations compared by the session fit): a ΔCdA of n_b and n_c runs with standard error SE
 * (the 95 % half-width / 1.96) is what runs scattering by SE/√(1/n_b + 1/n_c) would give. Null
 * when no configuration is compared by the session fit with an interval.
 */
function jointScatter(comparison: AeroComparison, count: (c: string) => number): number | null {
  const nb = count(comparison.baseline)
  let ss = 0
  let k = 0
  for (const c of comparison.configurations) {
    const [lo, hi] = c.deltaCdaCi95
    const nc = count(c.configuration)
    if (c.basis !== 'session_fit' || !(hi > lo) || nb < 1 || nc < 1) continue
    const se = (hi - lo) / 2 / Z975
    ss += (se * se) / (1 / nb + 1 / nc)
    k++
  }
  return k > 0 ? Math.sqrt(ss / k) : null
}

/**
 * The planner's answer after an analysis: per configuration against the baseline, resolved
 * ("B is 0.006 ± 0.002 m² faster") or how many more bracketed runs of both it needs.
 */
export function planAnswer(
  comparison: AeroComparison | null,
  runs: { configuration: string; cda: number }[],
  o: { delta?: number; power?: number } = {},
): AeroPlan {
  const delta = o.delta ?? DEFAULT_RESOLVE_CDA
  const power = o.power ?? DEFAULT_POWER
  const count = (c: string) =>
    runs.filter((r) => r.configuration === c && Number.isFinite(r.cda)).length
  const implied = comparison ? jointScatter(comparison, count) : null
  const scatter = implied ?? runScatter(runs)
  const runSd = scatter ?? DEFAULT_RUN_SD
  const need = runsNeeded(runSd, delta, power)
  const answers: AeroPlanAnswer[] = (comparison?.configurations ?? []).map((k) => {
    const nb = count(comparison!.baseline)
    const nc = count(k.configuration)
    const [lo, hi] = k.deltaCdaCi95
    const ci = Number.isFinite(lo) && Number.isFinite(hi)
    const half = ci ? (hi - lo) / 2 : NaN
    const moreB = Math.max(0, need - nb)
    const moreC = Math.max(0, need - nc)
    const name = k.configuration || 'unlabelled'
    const dayApart = k.withheld.find((w) => w.field === 'verdict')
    if (dayApart) {
      return {
        configuration: k.configuration,
        status: 'more_runs',
        baselineRuns: nb,
        configurationRuns: nc,
        moreBaselineRuns: need,
        moreConfigurationRuns: need,
        text:
          `not resolvable across days: ride ${need} runs each of ${comparison!.baseline || 'the baseline'} ` +
          `and of ${name}, alternated, on one day`,
      }
    }
    const resolved = (text: string) => ({
      configuration: k.configuration,
      status: 'resolved' as const,
      baselineRuns: nb,
      configurationRuns: nc,
      moreBaselineRuns: 0,
      moreConfigurationRuns: 0,
      text,
    })
    if (ci && (hi < 0 || lo > 0)) {
      return resolved(
        `resolved: ${name} is ${f3(k.deltaCda)} ± ${half.toFixed(3)} m² ${hi < 0 ? 'faster' : 'slower'}`,
      )
    }
    if (ci && half <= delta) {
      return resolved(
        `resolved: ${name} is within ${half.toFixed(3)} m² of the baseline (no difference of ${delta.toFixed(3)} m²)`,
      )
    }
    const more = Math.max(moreB, moreC, 1)
    return {
      configuration: k.configuration,
      status: 'more_runs',
      baselineRuns: nb,
      configurationRuns: nc,
      moreBaselineRuns: more,
      moreConfigurationRuns: more,
      text:
        `${more} more run${more === 1 ? '' : 's'} of ${comparison!.baseline || 'the baseline'} and of ${name}, ` +
        `alternated (${need} of each resolve ${delta.toFixed(3)} m² with ${Math.round(power * 100)} % power ` +
        `at a run-to-run scatter of ${runSd.toFixed(3)} m²${scatter === null ? ', assumed' : implied !== null ? ', as the session fit gives' : ''})`,
    }
  })
  return {
    delta,
    power,
    runSd,
    runSdSource: implied !== null ? 'session_fit' : scatter === null ? 'default' : 'session',
    runsPerConfiguration: need,
    answers,
  }
}
