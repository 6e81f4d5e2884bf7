// The fuel plan's input (a ridden or simulated ride, segment by segment) and its output.
import type { FluidBand } from './figures.ts'

/** A ride segment by segment, as the simulation rode it (`fuelRideOf` builds one). */
export interface FuelRide {
  /** Segments ridden; every array holds at least `count` entries. */
  count: number
  /** Distance from the start at each segment's start (m). */
  startM: ArrayLike<number>
  /** Horizontal length (m), > 0. */
  lengthM: ArrayLike<number>
  /** Riding time (s), ≥ 0. */
  durationS: ArrayLike<number>
  /** Crank power (W), ≥ 0. */
  powerW: ArrayLike<number>
  /** Rise over run. */
  grade: ArrayLike<number>
  /** Bend radius (m), Infinity for straight; absent: from the heading's change when given. */
  radiusM?: ArrayLike<number>
  /** Direction of travel (radians clockwise from north), read only when `radiusM` is absent. */
  headingRad?: ArrayLike<number>
  /** Air temperature (°C) on each segment; absent: `options.temperatureC`. */
  temperatureC?: ArrayLike<number>
}

export interface FuelOptions {
  /** Carbohydrate the rider's gut takes (g/h): 60, 90 or 120 typically, any 30–150; default 90. */
  gutToleranceGPerH?: number
  /** Air temperature for the fluid (°C) where the ride gives none; default 20 (the mild band). */
  temperatureC?: number
  /** Carbohydrate stored as muscle and liver glycogen at the start (g); default 500. */
  glycogenStoreG?: number
}

export interface FuelInput {
  ride: FuelRide
  /** The rider's critical power (W), > 0. */
  cpW: number
  options?: FuelOptions
}

/** One feed: where, when and what. */
export interface Feed {
  distanceM: number
  /** Riding time from the start (s). */
  elapsedS: number
  carbohydrateG: number
  fluidMl: number
  /** E.g. "gel 30 g + 200 ml". */
  label: string
}

export interface FuelPlan {
  durationS: number
  distanceM: number
  carbohydrate: {
    /** Oxidised over the ride (g). */
    burnedG: number
    meanOxidationGPerH: number
    /** Σ feeds (g). */
    intakeG: number
    /** min(guideline, gut tolerance) (g/h). */
    targetGPerH: number
    guidelineGPerH: number
    guideline: string
    gutToleranceGPerH: number
    /** 'glucose-fructose' above 60 g/h, where one sugar alone is not absorbed. */
    sugars: 'none' | 'any' | 'glucose-fructose'
  }
  glycogen: {
    storeG: number
    /** Largest burned − eaten over the ride (g). */
    maxDeficitG: number
    /** Store left at the finish (g; negative: the plan empties it). */
    finishG: number
    /** Where burned − eaten first reaches the store, or null. */
    emptyAtS: number | null
    emptyAtM: number | null
  }
  fluid: {
    /** Time-weighted mean air temperature (°C) the fluid is set for. */
    temperatureC: number
    band: FluidBand
    mlPerH: number
    sodiumMgPerH: number
    /** Σ feeds (ml). */
    totalMl: number
  }
  feeds: Feed[]
  /** Per segment: carbohydrate oxidation (g/h) and the glycogen left at its end (g). */
  segments: { oxidationGPerH: Float64Array; glycogenG: Float64Array }
  /** Readable warnings: an emptied store, stretches of the ride with no place to feed. */
  warnings: string[]
}
