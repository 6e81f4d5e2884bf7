// Where to eat and drink: one feed per window of about 20 minutes of riding, each on an easy,
// straight stretch of the plan (docs/engine/science.md §12.4).
import type { Feed, FuelRide } from './types.ts'

/** The feeding rule: what makes a stretch easy and safe enough to eat and drink on. */
export const FEED_RULE = {
  /**
   * Power at most this fraction of CP, or at most the plan's median power where the plan rides
   * harder throughout (a time trial at CP feeds where it is easiest; never on its hard parts).
   */
  maxFractionCp: 0.85,
  /**
   * A power this close above the limit (W) meets it: targets are shown to the watt, and a plan
   * at CP may hold one stretch a thousandth of a watt above another (a rider cannot tell them apart).
   */
  powerToleranceW: 1,
  minGrade: -0.02,
  maxGrade: 0.04,
  /** Bends tighter than this radius (m) need both hands. */
  minRadiusM: 100,
  /** Faster than this (m/s, 50 km/h) is a fast descent. */
  maxSpeedMps: 50 / 3.6,
  /** The stretch lasts at least this long from the feed on (s): time to open, eat and drink. */
  minStretchS: 30,
} as const

/** Riding time between feeds (s): a gel of about 30 g every 20 min meets 90 g/h. */
export const FEED_INTERVAL_S = 20 * 60

/** Bend radius of segment i: the ride's own, else from the heading's change over the segment. */
function radiusAt(ride: FuelRide, i: number): number {
  if (ride.radiusM) return ride.radiusM[i]!
  if (!ride.headingRad || i === 0) return Infinity
  let turn = Math.abs(ride.headingRad[i]! - ride.headingRad[i - 1]!)
  if (turn > Math.PI) turn = 2 * Math.PI - turn
  return turn > 0 ? ride.lengthM[i]! / turn : Infinity
}

/**
 * The power a feed may be taken at: 85 % of CP, or the plan's time-weighted median power, each
 * with the rule's tolerance of a watt.
 */
export function feedPowerLimit(ride: FuelRide, cpW: number): number {
  const order = Array.from({ length: ride.count }, (_, i) => i).sort(
    (a, b) => ride.powerW[a]! - ride.powerW[b]!,
  )
  let total = 0
  for (let i = 0; i < ride.count; i++) total += ride.durationS[i]!
  let acc = 0
  let median = 0
  for (const i of order) {
    acc += ride.durationS[i]!
    median = ride.powerW[i]!
    if (acc >= total / 2) break
  }
  return Math.max(FEED_RULE.maxFractionCp * cpW, median) + FEED_RULE.powerToleranceW
}

/** Whether segment i meets the feeding rule (its stretch's length aside). */
export function easySegment(ride: FuelRide, i: number, powerLimitW: number): boolean {
  const g = ride.grade[i]!
  const t = ride.durationS[i]!
  const speed = t > 0 ? (ride.lengthM[i]! * Math.sqrt(1 + g * g)) / t : 0
  return (
    ride.powerW[i]! <= powerLimitW &&
    g >= FEED_RULE.minGrade &&
    g <= FEED_RULE.maxGrade &&
    radiusAt(ride, i) >= FEED_RULE.minRadiusM &&
    speed <= FEED_RULE.maxSpeedMps
  )
}

/**
 * Segments where a feed may start: easy, with at least `minStretchS` of easy riding from their
 * start on.
 */
export function feedSpots(ride: FuelRide, powerLimitW: number, startS: Float64Array): Uint8Array {
  const n = ride.count
  const spot = new Uint8Array(n)
  let runEndS = 0
  for (let i = n - 1; i >= 0; i--) {
    if (!easySegment(ride, i, powerLimitW)) continue
    const end = startS[i]! + ride.durationS[i]!
    runEndS = i + 1 < n && easySegment(ride, i + 1, powerLimitW) ? runEndS : end
    if (runEndS - startS[i]! >= FEED_RULE.minStretchS) spot[i] = 1
  }
  return spot
}

/** A feed with the segment it starts on (for the glycogen balance). */
export interface PlacedFeed extends Feed {
  segment: number
}

export interface FeedSchedule {
  /** Windows of riding time; each gets `gramsPerWindow` and `mlPerWindow[k]`. */
  windows: number
  gramsPerWindow: number
  mlPerWindow: ArrayLike<number>
}

/**
 * One feed per window, on the spot nearest the window's middle; a window without a spot passes its
 * food and drink on to the next feed (the last feed takes what is left). Returns the feeds and
 * the windows that had no spot.
 */
export function placeFeeds(
  ride: FuelRide,
  startS: Float64Array,
  spot: Uint8Array,
  durationS: number,
  schedule: FeedSchedule,
): { feeds: PlacedFeed[]; missed: number[] } {
  const { windows } = schedule
  const w = durationS / windows
  const best = new Int32Array(windows).fill(-1)
  for (let i = 0; i < ride.count; i++) {
    if (!spot[i]) continue
    const k = Math.min(windows - 1, Math.floor(startS[i]! / w))
    const mid = (k + 0.5) * w
    const b = best[k]!
    if (b < 0 || Math.abs(startS[i]! - mid) < Math.abs(startS[b]! - mid)) best[k] = i
  }
  const feeds: PlacedFeed[] = []
  const missed: number[] = []
  // Amounts due so far and given so far: each feed rounds what is due, so the sum of the feeds is
  // the whole amount rounded once.
  const due = { g: 0, ml: 0 }
  const given = { g: 0, ml: 0 }
  const give = (i: number) => {
    const g = Math.round(due.g) - given.g
    const ml = Math.round(due.ml / 10) * 10 - given.ml
    given.g += g
    given.ml += ml
    return feedAt(ride, startS, i, g, ml)
  }
  for (let k = 0; k < windows; k++) {
    due.g += schedule.gramsPerWindow
    due.ml += schedule.mlPerWindow[k]!
    const i = best[k]!
    if (i < 0) missed.push(k)
    else feeds.push(give(i))
  }
  const last = feeds.pop()
  if (last) {
    given.g -= last.carbohydrateG
    given.ml -= last.fluidMl
    feeds.push(give(last.segment))
  }
  return { feeds, missed }
}

function feedAt(
  ride: FuelRide,
  startS: Float64Array,
  i: number,
  carbohydrateG: number,
  fluidMl: number,
): PlacedFeed {
  return {
    segment: i,
    distanceM: ride.startM[i]!,
    elapsedS: startS[i]!,
    carbohydrateG,
    fluidMl,
    label: feedLabel(carbohydrateG, fluidMl),
  }
}

/** "gel 30 g + 200 ml" from 20 g on; less comes as a drink ("drink 10 g + 200 ml"). */
export function feedLabel(grams: number, ml: number): string {
  if (grams <= 0) return `drink ${ml} ml`
  return `${grams >= 20 ? 'gel' : 'drink'} ${grams} g + ${ml} ml`
}
