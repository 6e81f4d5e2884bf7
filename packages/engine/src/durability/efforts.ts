// The hard efforts of one ride, by the work already done when each began: the field method of
// van Erp et al. (2021) and Leo et al. (2021), who read a rider's best power for a duration in
// bins of accumulated work. A bin's best counts only when the rider clearly made an effort of
// that length there; otherwise the bin says nothing of what the rider could do.

/** Width of a work bin, kJ. Half of the 1,000 kJ at which durability is tested (Barsumyan et
 * al. 2025): a 20-min effort at 300 W is 360 kJ, so one effort fits in a bin, and a ride with
 * an effort every hour gives one in each; wider bins would give a 4,000 kJ ride only 4 places. */
export const BIN_KJ = 500
/** A window counts when at least this share of its seconds have a reading. */
export const MIN_COVERAGE = 0.9
/** Every quarter of an effort is at least this many times the power of the riding on each side
 * of it (half its length before, half after): an effort of that length, not a piece of a longer
 * one (the start of a 20-min effort is no 5-min effort) nor a longer window around a shorter one
 * (a 20-min window holding a 5-min effort is no 20-min effort). Riding between two stops
 * passes this; the floor below keeps it out. */
export const MIN_OVER_FLANKS = 1.15
/** …and at least this share of the ride's best for the duration: the 90 % a laboratory protocol
 * would ask would cut off the decline being measured (−10 % after 1,000 kJ in amateurs,
 * Barsumyan et al. 2025), so the floor sits below the fatigued maximal efforts. */
export const MIN_OF_BEST = 0.65

export interface HardEffort {
  /** Second of the ride at which the effort began. */
  startS: number
  /** Work done before it began, kJ. */
  startKj: number
  /** Mean power over the effort's seconds with a reading, W. */
  powerW: number
}

export interface RideEfforts {
  /** Work over the whole ride, kJ (gaps count as no work). */
  workKj: number
  /** The ride's best mean power for the duration, W (NaN without a full window). */
  bestW: number
  /** Hard efforts, one per work bin at most, in the order ridden, never overlapping. */
  efforts: HardEffort[]
}

/** Prefix sums of power (gaps as 0) and of the seconds with a reading; cumulative work in J. */
export interface RideSums {
  sum: Float64Array
  count: Float64Array
}

export function rideSums(p: Float64Array): RideSums {
  const sum = new Float64Array(p.length + 1)
  const count = new Float64Array(p.length + 1)
  for (let i = 0; i < p.length; i++) {
    const ok = Number.isFinite(p[i]!)
    sum[i + 1] = sum[i]! + (ok ? p[i]! : 0)
    count[i + 1] = count[i]! + (ok ? 1 : 0)
  }
  return { sum, count }
}

/** Mean power over seconds [a, b) with a reading, NaN when fewer than MIN_COVERAGE have one. */
function windowMean(s: RideSums, a: number, b: number): number {
  const lo = Math.max(0, a)
  const hi = Math.min(s.sum.length - 1, b)
  const n = s.count[hi]! - s.count[lo]!
  if (hi <= lo || n < MIN_COVERAGE * (b - a)) return NaN
  return (s.sum[hi]! - s.sum[lo]!) / n
}

/** The higher of the mean powers half a window before and half after it (a side without
 * readings, such as before the ride's start, is left out); NaN when neither side has any. */
function flankPower(s: RideSums, start: number, d: number): number {
  const half = Math.round(d / 2)
  const before = windowMean(s, start - half, start)
  const after = windowMean(s, start + d, start + d + half)
  if (Number.isNaN(before)) return after
  return Number.isNaN(after) ? before : Math.max(before, after)
}

/** The lowest mean of the window's four quarters, NaN when one has too few readings. */
function lowestQuarter(s: RideSums, start: number, d: number): number {
  let low = Infinity
  for (let q = 0; q < 4; q++) {
    low = Math.min(
      low,
      windowMean(s, start + Math.round((q * d) / 4), start + Math.round(((q + 1) * d) / 4)),
    )
  }
  return low
}

/** The hard efforts of `durationS` seconds in one ride (see the constants for what counts). */
export function hardEfforts(p: Float64Array, durationS: number, s = rideSums(p)): RideEfforts {
  const n = p.length
  const workKj = s.sum[n]! / 1000
  const bins = new Map<number, HardEffort>()
  let bestW = NaN
  for (let a = 0; a + durationS <= n; a++) {
    const m = windowMean(s, a, a + durationS)
    if (!Number.isFinite(m)) continue
    if (!(m <= bestW)) bestW = m
    if (!(lowestQuarter(s, a, durationS) >= MIN_OVER_FLANKS * flankPower(s, a, durationS))) continue
    const startKj = s.sum[a]! / 1000
    const bin = Math.floor(startKj / BIN_KJ)
    const held = bins.get(bin)
    if (!held || m > held.powerW) bins.set(bin, { startS: a, startKj, powerW: m })
  }
  const hard = [...bins.values()].filter((e) => e.powerW >= MIN_OF_BEST * bestW)
  // Efforts of neighbouring bins may share seconds: the stronger one stays.
  hard.sort((x, y) => y.powerW - x.powerW)
  const kept: HardEffort[] = []
  for (const e of hard) {
    if (kept.every((k) => e.startS >= k.startS + durationS || k.startS >= e.startS + durationS))
      kept.push(e)
  }
  kept.sort((x, y) => x.startS - y.startS)
  return { workKj, bestW, efforts: kept }
}
