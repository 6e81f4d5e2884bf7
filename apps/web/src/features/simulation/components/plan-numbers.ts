// What a result's numbers may be before a page shows them: a stored result is read as it was
// written, so a value outside what a body and a bike can do (a negative CP, 900 g of
// carbohydrate an hour, a feed past the finish) is left out rather than shown.

/** The value when it is a finite number within [lo, hi], else null. */
export function within(v: unknown, lo: number, hi: number): number | null {
  return typeof v === 'number' && Number.isFinite(v) && v >= lo && v <= hi ? v : null
}

/** The physical ranges the result page and the race sheet hold a result's numbers to. */
export const RANGE = {
  /** a CP (W) */
  powerW: [1, 3000],
  /** carbohydrate eaten or burned per hour (g/h) */
  carbohydrateGPerH: [0, 200],
  /** carbohydrate in one ride (g) */
  carbohydrateG: [0, 5000],
  /** glycogen in muscle and liver (g) */
  glycogenG: [0, 2000],
  /** fluid per hour (ml/h) */
  fluidMlPerH: [0, 3000],
  /** fluid in one ride (ml) */
  fluidMl: [0, 50_000],
  /** sodium per hour (mg/h) */
  sodiumMgPerH: [0, 5000],
} as const satisfies Record<string, readonly [number, number]>

export const inRange = (v: unknown, range: readonly [number, number]) =>
  within(v, range[0], range[1])
