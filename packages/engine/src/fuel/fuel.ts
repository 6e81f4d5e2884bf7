// The fuel plan of a ride: carbohydrate burned from the intensity of every segment, the intake
// the guideline and the rider's gut allow, the glycogen left, fluid and sodium by temperature,
// and feeds on easy, straight stretches (docs/engine/science.md §12).
import { stretchCover } from '../course/stretches.ts'
import type { Course } from '../course/types.ts'
import type { Environment } from '../sim/model.ts'
import type { SimulationResult } from '../sim/simulate.ts'
import { FEED_INTERVAL_S, feedPowerLimit, feedSpots, placeFeeds } from './feeds.ts'
import type { PlacedFeed } from './feeds.ts'
import {
  choOxidationGPerMin,
  DEFAULT_GLYCOGEN_STORE_G,
  DEFAULT_TEMPERATURE_C,
  fluidBand,
  intakeGuideline,
  NO_FEEDS_UNDER_S,
  SINGLE_SUGAR_MAX_G_PER_H,
  SODIUM_MG_PER_L,
} from './figures.ts'
import type { FuelInput, FuelPlan, FuelRide } from './types.ts'
import { validateFuelInput } from './validate.ts'

export type { Feed, FuelInput, FuelOptions, FuelPlan, FuelRide } from './types.ts'

/** The fuel plan of a ride for a rider of critical power `cpW` (validated once here). */
export function fuelPlan(input: FuelInput): FuelPlan {
  validateFuelInput(input)
  const { ride, cpW } = input
  const o = input.options ?? {}
  const tolerance = o.gutToleranceGPerH ?? 90
  const storeG = o.glycogenStoreG ?? DEFAULT_GLYCOGEN_STORE_G
  const n = ride.count
  const startS = new Float64Array(n)
  const oxidation = new Float64Array(n)
  let durationS = 0
  let burnedG = 0
  for (let i = 0; i < n; i++) {
    startS[i] = durationS
    oxidation[i] = choOxidationGPerMin(ride.powerW[i]!, cpW) * 60
    burnedG += (oxidation[i]! * ride.durationS[i]!) / 3600
    durationS += ride.durationS[i]!
  }
  const distanceM = n > 0 ? ride.startM[n - 1]! + ride.lengthM[n - 1]! : 0
  const guideline = intakeGuideline(durationS)
  const targetGPerH = Math.min(guideline.gPerH, tolerance)
  const temperature = (i: number) => ride.temperatureC?.[i] ?? o.temperatureC
  const meanC =
    Math.round((timeWeighted(ride, 0, n, temperature) ?? DEFAULT_TEMPERATURE_C) * 10) / 10
  const warnings: string[] = []
  const feeds = durationS < NO_FEEDS_UNDER_S ? [] : schedule()
  const glycogen = glycogenBalance(ride, oxidation, startS, feeds, storeG)
  const { emptyAtS, emptyAtM } = glycogen.summary
  if (emptyAtS !== null && emptyAtM !== null) {
    warnings.push(
      `the plan empties the glycogen store (${storeG} g) at ${(emptyAtM / 1000).toFixed(1)} km ` +
        `(${clock(emptyAtS)}): eat more, if the gut allows, or ride easier`,
    )
  }
  const intakeG = feeds.reduce((s, f) => s + f.carbohydrateG, 0)
  const totalMl = feeds.reduce((s, f) => s + f.fluidMl, 0)
  const hours = durationS / 3600
  const mlPerH = hours > 0 && feeds.length > 0 ? totalMl / hours : fluidBand(meanC).mlPerH
  return {
    durationS,
    distanceM,
    carbohydrate: {
      burnedG,
      meanOxidationGPerH: hours > 0 ? burnedG / hours : 0,
      intakeG,
      targetGPerH,
      guidelineGPerH: guideline.gPerH,
      guideline: guideline.advice,
      gutToleranceGPerH: tolerance,
      sugars:
        targetGPerH <= 0
          ? 'none'
          : targetGPerH > SINGLE_SUGAR_MAX_G_PER_H
            ? 'glucose-fructose'
            : 'any',
    },
    glycogen: { storeG, ...glycogen.summary },
    fluid: {
      temperatureC: meanC,
      band: fluidBand(meanC).band,
      mlPerH,
      sodiumMgPerH: (mlPerH * SODIUM_MG_PER_L) / 1000,
      totalMl,
    },
    feeds: feeds.map(({ segment: _, ...f }) => f),
    segments: { oxidationGPerH: oxidation, glycogenG: glycogen.left },
    warnings,
  }

  /** Feeds every ~20 min; each window's fluid from its own air temperature. */
  function schedule(): PlacedFeed[] {
    const windows = Math.max(1, Math.round(durationS / FEED_INTERVAL_S))
    const w = durationS / windows
    const mlPerWindow = new Float64Array(windows)
    let i0 = 0
    for (let k = 0; k < windows; k++) {
      let i1 = i0
      while (i1 < n && (k === windows - 1 || startS[i1]! < (k + 1) * w)) i1++
      const c = timeWeighted(ride, i0, i1, temperature) ?? meanC
      mlPerWindow[k] = (fluidBand(c).mlPerH * w) / 3600
      i0 = i1
    }
    const spot = feedSpots(ride, feedPowerLimit(ride, cpW), startS)
    const placed = placeFeeds(ride, startS, spot, durationS, {
      windows,
      gramsPerWindow: (targetGPerH * w) / 3600,
      mlPerWindow,
    })
    if (placed.missed.length > 0) {
      const at = placed.missed.map((k) => `${clock(k * w)}–${clock((k + 1) * w)}`)
      warnings.push(
        `no easy, straight stretch to feed on in ${at.join(', ')}: ` +
          (placed.feeds.length > 0 ? 'its food and drink move to the next feed' : 'no feeds'),
      )
    }
    return placed.feeds
  }
}

/** Time-weighted mean of `value` over segments [i0, i1), or undefined when none is known. */
function timeWeighted(
  ride: FuelRide,
  i0: number,
  i1: number,
  value: (i: number) => number | undefined,
): number | undefined {
  let sum = 0
  let t = 0
  let last: number | undefined
  for (let i = i0; i < i1; i++) {
    const v = value(i)
    if (v === undefined) continue
    last = v
    sum += v * ride.durationS[i]!
    t += ride.durationS[i]!
  }
  return t > 0 ? sum / t : last
}

/** Burned minus eaten along the ride against the store; a feed counts from its segment on. */
function glycogenBalance(
  ride: FuelRide,
  oxidationGPerH: Float64Array,
  startS: Float64Array,
  feeds: readonly PlacedFeed[],
  storeG: number,
) {
  const left = new Float64Array(ride.count)
  let deficit = 0
  let maxDeficitG = 0
  let emptyAtS: number | null = null
  let emptyAtM: number | null = null
  let f = 0
  for (let i = 0; i < ride.count; i++) {
    while (f < feeds.length && feeds[f]!.segment === i) deficit -= feeds[f++]!.carbohydrateG
    const burn = (oxidationGPerH[i]! * ride.durationS[i]!) / 3600
    if (emptyAtS === null && deficit + burn >= storeG) {
      const share = burn > 0 ? (storeG - deficit) / burn : 0
      emptyAtS = startS[i]! + share * ride.durationS[i]!
      emptyAtM = ride.startM[i]! + share * ride.lengthM[i]!
    }
    deficit += burn
    if (deficit > maxDeficitG) maxDeficitG = deficit
    left[i] = storeG - deficit
  }
  return { left, summary: { maxDeficitG, finishG: storeG - deficit, emptyAtS, emptyAtM } }
}

/** h:mm of riding time. */
function clock(s: number): string {
  const m = Math.round(s / 60)
  return `${Math.floor(m / 60)}:${String(m % 60).padStart(2, '0')}`
}

/**
 * The ride a simulation rode, for `fuelPlan`: its segments' power and time on the course's grade,
 * bends and distance; the air temperature from the environment's air stretches (a forecast), else
 * its course-wide temperature, else none.
 */
export function fuelRideOf(
  course: Course,
  result: SimulationResult,
  environment: Environment = {},
): FuelRide {
  const n = result.segments.count
  let temperatureC: Float64Array | undefined
  if (environment.airSegments && environment.airSegments.length > 0) {
    temperatureC = new Float64Array(n).fill(environment.temperatureC ?? DEFAULT_TEMPERATURE_C)
    for (const { i, len, parts } of stretchCover(course, environment.airSegments)) {
      if (i >= n) break
      const covered = parts.reduce((s, [, m]) => s + m, 0)
      const inside = parts.reduce((s, [a, m]) => s + a.temperatureC * m, 0)
      temperatureC[i] = (inside + temperatureC[i]! * (len - covered)) / len
    }
  } else if (environment.temperatureC !== undefined) {
    temperatureC = new Float64Array(n).fill(environment.temperatureC)
  }
  return {
    count: n,
    startM: course.start,
    lengthM: course.length,
    durationS: result.segments.duration,
    powerW: result.segments.power,
    grade: course.grade,
    radiusM: course.radius,
    ...(temperatureC ? { temperatureC } : {}),
  }
}
