// How much the predicted time moves for the forecast's plausible spread: the 10 m wind's speed
// ± 2 m/s and direction ± 30° (each combination of −, 0, + for both, arrival times iterated
// again for each), so the rider sees a range, not one number.
import { requireNumber } from '../sim/validate.ts'
import { iterateArrival } from './arrival.ts'
import type { ArrivalInput } from './arrival.ts'
import { perturbForecast } from './forecast.ts'

export interface SensitivityCase {
  windDeltaMps: number
  directionDeltaDeg: number
  /** Finish time (s); Infinity when the rider does not finish. */
  timeS: number
}

export interface ForecastSensitivity {
  /** Time with the forecast as issued (s). */
  baseS: number
  /** Fastest and slowest of all cases, the base included (s). */
  minS: number
  maxS: number
  windDeltaMps: number
  directionDeltaDeg: number
  cases: SensitivityCase[]
}

export function forecastSensitivity<R>(
  input: ArrivalInput<R>,
  spread: { windMps?: number; directionDeg?: number } = {},
): ForecastSensitivity {
  const dw = requireNumber('spread.windMps', spread.windMps ?? 2, 0, 20)
  const dd = requireNumber('spread.directionDeg', spread.directionDeg ?? 30, 0, 180)
  const cases: SensitivityCase[] = []
  let baseS = NaN
  for (const sw of [-1, 0, 1]) {
    for (const sd of [-1, 0, 1]) {
      const forecast =
        sw === 0 && sd === 0 ? input.forecast : perturbForecast(input.forecast, sw * dw, sd * dd)
      const timeS = iterateArrival({ ...input, forecast }).timeS
      if (sw === 0 && sd === 0) baseS = timeS
      cases.push({ windDeltaMps: sw * dw, directionDeltaDeg: sd * dd, timeS })
    }
  }
  const times = cases.map((c) => c.timeS)
  return {
    baseS,
    minS: Math.min(...times),
    maxS: Math.max(...times),
    windDeltaMps: dw,
    directionDeltaDeg: dd,
    cases,
  }
}
