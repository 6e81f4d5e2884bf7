// Durability from the rider's own rides: the fraction of maximal 5-min and 20-min power lost per
// 1,000 kJ of work already done (−10.1 ± 6.5 % of 20-min and −10.8 ± 7.8 % of 5-min power after
// 1,000 kJ in amateurs, Barsumyan et al. 2025; 2–5 % in well-trained riders). Each ride's hard
// efforts (efforts.ts) are pooled in one least-squares fit of
//
//     P_ij = a_i · (1 − d · W_ij / 1000 kJ)
//
// with a fresh power a_i per ride (a rider's form differs from day to day; a ride with a single
// hard effort says nothing of d) and one d for all: the relative decline of a ride's efforts
// against the work W_ij done when each began. The 95 % interval is the t-interval of d from the
// fit's residual scatter (n efforts − rides − 1 degrees of freedom).
import { tQuantile975 } from '../aero/ve-intervals.ts'
import { hardEfforts, rideSums, type HardEffort } from './efforts.ts'
import { validateRides, type DurabilityRide } from './validate.ts'

export type { DurabilityRide } from './validate.ts'

/** The durations fitted, s. */
export const DURABILITY_DURATIONS_S = [300, 1200] as const
/** Work after which an effort shows fatigue, kJ (the protocol of Barsumyan et al. 2025). */
export const LATE_KJ = 1000
/** The physical range of the combined value, per 1,000 kJ. */
export const DURABILITY_RANGE = [0, 0.3] as const

export interface DurabilityEffort extends HardEffort {
  /** Index of the ride in the input. */
  ride: number
  /** Power relative to the ride's fitted fresh power (NaN when the ride was not used). */
  relative: number
  /** Whether the fit used it (its ride has at least two hard efforts). */
  used: boolean
}

export interface DurationFit {
  durationS: number
  /** Fraction of fresh power lost per 1,000 kJ, or null when the rides cannot say. */
  value: number | null
  ci95: [number, number] | null
  /** Why the value is null, else null. */
  reason: string | null
  effortsUsed: number
  ridesUsed: number
  /** Residual scatter of the efforts about the fit, W (null without a fit). */
  residualW: number | null
  efforts: DurabilityEffort[]
}

export interface DurabilityFit {
  /** One per duration of DURABILITY_DURATIONS_S. */
  durations: DurationFit[]
  /** The durations' inverse-variance mean, clamped to DURABILITY_RANGE; null when none fits. */
  combined: { value: number; ci95: [number, number]; clamped: boolean } | null
  combinedReason: string | null
  /** Each ride's work and length, and its best 5-min and 20-min power (null without one). */
  rides: { workKj: number; durationS: number; bestW: (number | null)[] }[]
}

const label = (d: number): string => `${d / 60}-min`
const kj = (v: number): string => `${Math.round(v).toLocaleString('en-US')} kJ`

type Group = { x: number[]; p: number[] }

/** The fresh power of each ride for a given d (least squares, closed form). */
function freshPowers(groups: Group[], d: number): number[] {
  return groups.map(({ x, p }) => {
    let num = 0
    let den = 0
    x.forEach((xj, j) => {
      const g = 1 - d * xj
      num += p[j]! * g
      den += g * g
    })
    return num / den
  })
}

function rss(groups: Group[], d: number): number {
  const a = freshPowers(groups, d)
  let s = 0
  groups.forEach(({ x, p }, i) => x.forEach((xj, j) => (s += (p[j]! - a[i]! * (1 - d * xj)) ** 2)))
  return s
}

/** d minimising the residual sum of squares (golden section on a bracket wider than physics). */
function bestD(groups: Group[]): number {
  const xMax = Math.max(...groups.flatMap((g) => g.x))
  let lo = -1
  let hi = Math.min(1, 0.95 / xMax)
  const r = (Math.sqrt(5) - 1) / 2
  let c = hi - r * (hi - lo)
  let e = lo + r * (hi - lo)
  let fc = rss(groups, c)
  let fe = rss(groups, e)
  for (let k = 0; k < 100 && hi - lo > 1e-10; k++) {
    if (fc <= fe) {
      hi = e
      e = c
      fe = fc
      c = hi - r * (hi - lo)
      fc = rss(groups, c)
    } else {
      lo = c
      c = e
      fc = fe
      e = lo + r * (hi - lo)
      fe = rss(groups, e)
    }
  }
  return (lo + hi) / 2
}

/** Standard error of d from the Gauss–Newton normal equations (Schur complement of the a_i). */
function slopeSe(groups: Group[], d: number, s2: number): number {
  const a = freshPowers(groups, d)
  let info = 0
  groups.forEach(({ x }, i) => {
    let cross = 0
    let gg = 0
    x.forEach((xj) => {
      const g = 1 - d * xj
      info += (a[i]! * xj) ** 2
      cross += a[i]! * xj * g
      gg += g * g
    })
    info -= (cross * cross) / gg
  })
  return Math.sqrt(s2 / info)
}

function notDeterminable(durationS: number, efforts: DurabilityEffort[], reason: string) {
  return {
    durationS,
    value: null,
    ci95: null,
    reason,
    effortsUsed: 0,
    ridesUsed: 0,
    residualW: null,
    efforts,
  }
}

/** Why the pooled efforts cannot give d, or null when they can. */
function whyNot(
  durationS: number,
  longestKj: number,
  efforts: DurabilityEffort[],
  groups: Group[],
): string | null {
  const name = label(durationS)
  if (longestKj < LATE_KJ)
    return `rides shorter than ${kj(LATE_KJ)} (the longest has ${kj(longestKj)})`
  if (!efforts.some((e) => e.startKj >= LATE_KJ))
    return `no hard ${name} effort after ${kj(LATE_KJ)}`
  if (!efforts.some((e) => e.used && e.startKj >= LATE_KJ))
    return `no ride with a hard ${name} effort after ${kj(LATE_KJ)} and another hard one to compare it with`
  const n = groups.reduce((s, g) => s + g.x.length, 0)
  if (n - groups.length - 1 < 1)
    return `too few hard ${name} efforts for an interval (${n} in ${groups.length} ride${groups.length > 1 ? 's' : ''}; it needs ${groups.length + 2})`
  return null
}

function fitDuration(
  rides: Float64Array[],
  sums: ReturnType<typeof rideSums>[],
  durationS: number,
) {
  const perRide = rides.map((p, r) => hardEfforts(p, durationS, sums[r]))
  const efforts: DurabilityEffort[] = perRide.flatMap((re, ride) =>
    re.efforts.map((e) => ({ ...e, ride, relative: NaN, used: re.efforts.length >= 2 })),
  )
  const usedRides = [...new Set(efforts.filter((e) => e.used).map((e) => e.ride))]
  const groups: Group[] = usedRides.map((r) => {
    const mine = efforts.filter((e) => e.ride === r)
    return { x: mine.map((e) => e.startKj / 1000), p: mine.map((e) => e.powerW) }
  })
  const longestKj = Math.max(...perRide.map((r) => r.workKj))
  const reason = whyNot(durationS, longestKj, efforts, groups)
  const result = { perRide }
  if (reason) return { ...result, fit: notDeterminable(durationS, efforts, reason) as DurationFit }
  const d = bestD(groups)
  const n = efforts.filter((e) => e.used).length
  const dof = n - groups.length - 1
  const s2 = rss(groups, d) / dof
  const half = tQuantile975(dof) * slopeSe(groups, d, s2)
  if (2 * half > DURABILITY_RANGE[1] - DURABILITY_RANGE[0]) {
    const ci = `${(d - half).toFixed(2)} to ${(d + half).toFixed(2)}`
    const why = `hard ${label(durationS)} efforts too scattered to say (95 % interval ${ci} per 1,000 kJ, wider than the physical range ${DURABILITY_RANGE.join('–')})`
    return { ...result, fit: notDeterminable(durationS, efforts, why) as DurationFit }
  }
  const fresh = freshPowers(groups, d)
  for (const e of efforts) {
    const g = usedRides.indexOf(e.ride)
    if (g >= 0) e.relative = e.powerW / fresh[g]!
  }
  const fit: DurationFit = {
    durationS,
    value: d,
    ci95: [d - half, d + half],
    reason: null,
    effortsUsed: n,
    ridesUsed: groups.length,
    residualW: Math.sqrt(s2),
    efforts,
  }
  return { ...result, fit }
}

const clamp = (v: number): number => Math.min(DURABILITY_RANGE[1], Math.max(DURABILITY_RANGE[0], v))

/** The inverse-variance mean of the determined durations, clamped to the physical range. */
function combine(fits: DurationFit[]): Pick<DurabilityFit, 'combined' | 'combinedReason'> {
  const ok = fits.filter((f) => f.value !== null)
  if (ok.length === 0) {
    return {
      combined: null,
      combinedReason: fits.map((f) => `${label(f.durationS)}: ${f.reason}`).join('; '),
    }
  }
  // Weighted by inverse variance; the half-width is the weighted mean of the two, exact when
  // the two estimates move together (the same rides, the same days) and wider than needed when
  // they do not.
  let w = 0
  let wv = 0
  let wh = 0
  for (const f of ok) {
    const half = (f.ci95![1] - f.ci95![0]) / 2
    const wi = 1 / (half * half)
    w += wi
    wv += wi * f.value!
    wh += wi * half
  }
  const value = wv / w
  const half = wh / w
  return {
    combined: {
      value: clamp(value),
      ci95: [clamp(value - half), clamp(value + half)],
      clamped: clamp(value) !== value,
    },
    combinedReason: null,
  }
}

/**
 * Durability from rides given as per-second power (W; NaN, null or undefined for a gap): the
 * fraction of maximal 5-min and 20-min power lost per 1,000 kJ of work, each with its 95 %
 * interval and the efforts used, or the reason the rides cannot say; and both combined.
 * Throws EngineInputError for input that is not such rides.
 */
export function fitDurability(rides: readonly DurabilityRide[]): DurabilityFit {
  const series = validateRides(rides)
  const sums = series.map((p) => rideSums(p))
  const perDuration = DURABILITY_DURATIONS_S.map((d) => fitDuration(series, sums, d))
  const durations = perDuration.map((r) => r.fit)
  return {
    durations,
    ...combine(durations),
    rides: series.map((p, r) => ({
      workKj: perDuration[0]!.perRide[r]!.workKj,
      durationS: p.length,
      bestW: perDuration.map(({ perRide }) =>
        Number.isFinite(perRide[r]!.bestW) ? perRide[r]!.bestW : null,
      ),
    })),
  }
}
