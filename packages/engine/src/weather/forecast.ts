// Gridded hourly forecasts at a handful of points along the course, and their interpolation in
// space (linear in distance along the course between the two points that bracket it) and time
// (linear between the two hours that bracket it). Wind is interpolated as a speed (scalar, so a
// veering wind keeps its strength) and a direction taken from the weighted mean of the unit
// vectors (so 350° and 10° meet at 0°, not 180°). Temperature and pressure are first carried
// from each grid cell's terrain height to the course's altitude (standard lapse rate and the
// barometric formula, as physics/air.ts), then interpolated.
import { LAPSE_RATE } from '../physics/air.ts'
import { EngineInputError, requireNumber } from '../sim/validate.ts'

/** One forecast point: hourly series at a place along the course (SI units, 10 m wind). */
export interface ForecastPoint {
  /** Distance along the course where this point lies (m). */
  distanceM: number
  /** Terrain height of the forecast's grid cell (m): where its surface pressure and 2 m temperature are. */
  elevationM: number
  /** Hours, unix seconds, strictly ascending. */
  timeS: ArrayLike<number>
  /** Wind at 10 m (m/s). */
  windSpeedMps: ArrayLike<number>
  /** Direction the wind comes FROM at 10 m, degrees clockwise from north. */
  windFromDeg: ArrayLike<number>
  /** Gusts at 10 m (m/s); absent when the source has none. */
  gustMps?: ArrayLike<number>
  temperatureC: ArrayLike<number>
  /** 0..1 */
  relativeHumidity: ArrayLike<number>
  /** Pressure at the grid cell's elevation (Pa). */
  surfacePressurePa: ArrayLike<number>
}

export interface Forecast {
  /** Sorted by distance along the course, strictly ascending. */
  points: ForecastPoint[]
  /** When the forecast was issued (unix seconds), if known. */
  issuedAtS?: number
  /** Where it came from, e.g. "open-meteo forecast". */
  source?: string
}

/** Conditions at one place and time; temperature and pressure at the asked altitude, wind at 10 m. */
export interface PointConditions {
  windSpeedMps: number
  windFromDeg: number
  /** NaN when the forecast has no gusts. */
  gustMps: number
  temperatureC: number
  pressurePa: number
  relativeHumidity: number
}

const KELVIN = 273.15
// g·M/(R·L) with the constants of physics/air.ts (docs/engine/science.md §2): 5.2559.
const BARO_EXPONENT = (9.80665 * 0.0289644) / (8.31432 * LAPSE_RATE)

/** Checks a forecast once; messages name the field ("forecast.points[2].timeS[5]: expected …"). */
export function validateForecast(f: Forecast): void {
  if (!f || !Array.isArray(f.points) || f.points.length === 0) {
    throw new EngineInputError('forecast.points', 'expected at least one point, got none')
  }
  let prev = -Infinity
  f.points.forEach((p, j) => {
    const at = `forecast.points[${j}]`
    const d = requireNumber(`${at}.distanceM`, p.distanceM, 0, 1e7)
    if (!(d > prev)) {
      throw new EngineInputError(
        `${at}.distanceM`,
        `expected more than the previous point's ${prev}, got ${d}`,
      )
    }
    prev = d
    requireNumber(`${at}.elevationM`, p.elevationM, -500, 9000)
    const n = p.timeS?.length ?? 0
    if (n < 1) throw new EngineInputError(`${at}.timeS`, 'expected at least one hour, got none')
    const series: [string, ArrayLike<number> | undefined, number, number][] = [
      ['windSpeedMps', p.windSpeedMps, 0, 100],
      ['windFromDeg', p.windFromDeg, 0, 360],
      ['gustMps', p.gustMps, 0, 150],
      ['temperatureC', p.temperatureC, -80, 60],
      ['relativeHumidity', p.relativeHumidity, 0, 1],
      ['surfacePressurePa', p.surfacePressurePa, 30000, 110000],
    ]
    for (const [name, arr, lo, hi] of series) {
      if (arr === undefined && name === 'gustMps') continue
      if (!arr || arr.length !== n) {
        throw new EngineInputError(
          `${at}.${name}`,
          `expected ${n} values (one per hour), got ${arr?.length ?? 0}`,
        )
      }
      for (let k = 0; k < n; k++) requireNumber(`${at}.${name}[${k}]`, arr[k], lo, hi)
    }
    for (let k = 0; k < n; k++) {
      requireNumber(`${at}.timeS[${k}]`, p.timeS[k], -1e10, 1e11)
      if (k > 0 && !(p.timeS[k]! > p.timeS[k - 1]!)) {
        throw new EngineInputError(
          `${at}.timeS[${k}]`,
          `expected after ${p.timeS[k - 1]}, got ${p.timeS[k]}`,
        )
      }
    }
  })
}

/** Index k and fraction f with x between xs[k] and xs[k+1] (clamped at the ends: f 0 or 1). */
function bracket(xs: ArrayLike<number>, x: number): [number, number] {
  const n = xs.length
  if (n === 1 || x <= xs[0]!) return [0, 0]
  if (x >= xs[n - 1]!) return [n - 2, 1]
  let lo = 0
  let hi = n - 1
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1
    if (xs[mid]! <= x) lo = mid
    else hi = mid
  }
  return [lo, (x - xs[lo]!) / (xs[hi]! - xs[lo]!)]
}

// Accumulator for one weighted blend of (point, hour) samples.
class Blend {
  w = 0
  speed = 0
  gust = 0
  east = 0
  north = 0
  temp = 0
  pres = 0
  rh = 0
  dirNearest = 0
  wNearest = -1
  reset(): void {
    this.w = this.speed = this.gust = this.east = this.north = this.temp = this.pres = this.rh = 0
    this.wNearest = -1
  }
  add(p: ForecastPoint, k: number, weight: number, altitudeM: number): void {
    if (weight <= 0) return
    const from = (p.windFromDeg[k]! * Math.PI) / 180
    this.w += weight
    this.speed += weight * p.windSpeedMps[k]!
    this.gust += weight * (p.gustMps ? p.gustMps[k]! : NaN)
    this.east += weight * Math.sin(from)
    this.north += weight * Math.cos(from)
    if (weight > this.wNearest) {
      this.wNearest = weight
      this.dirNearest = p.windFromDeg[k]!
    }
    // Carry the cell's 2 m temperature and surface pressure to the course altitude.
    const t0 = p.temperatureC[k]! + KELVIN
    const t = t0 - LAPSE_RATE * (altitudeM - p.elevationM)
    this.temp += weight * (t - KELVIN)
    this.pres += weight * p.surfacePressurePa[k]! * Math.pow(t / t0, BARO_EXPONENT)
    this.rh += weight * p.relativeHumidity[k]!
  }
}

const scratch = new Blend()

/**
 * Conditions at `distanceM` along the course, at unix time `timeS`, for a road at `altitudeM`.
 * Throws when the time is outside the forecast's hours (a ride the forecast does not cover is
 * not extrapolated).
 */
export function conditionsAt(
  f: Forecast,
  distanceM: number,
  timeS: number,
  altitudeM: number,
  out?: PointConditions,
): PointConditions {
  const pts = f.points
  let j = 0
  let fs = 0
  if (pts.length > 1 && distanceM > pts[0]!.distanceM) {
    if (distanceM >= pts[pts.length - 1]!.distanceM) {
      j = pts.length - 2
      fs = 1
    } else {
      while (pts[j + 1]!.distanceM <= distanceM) j++
      fs = (distanceM - pts[j]!.distanceM) / (pts[j + 1]!.distanceM - pts[j]!.distanceM)
    }
  }
  const b = scratch
  b.reset()
  for (const [p, wp] of [
    [pts[j]!, 1 - fs],
    [pts[Math.min(j + 1, pts.length - 1)]!, fs],
  ] as const) {
    if (wp <= 0) continue
    const ts = p.timeS
    if (timeS < ts[0]! || timeS > ts[ts.length - 1]!) {
      throw new EngineInputError(
        'forecast',
        `expected hours covering ${new Date(timeS * 1000).toISOString()} at ${Math.round(distanceM)} m, got ${new Date(ts[0]! * 1000).toISOString()} to ${new Date(ts[ts.length - 1]! * 1000).toISOString()}`,
      )
    }
    const [k, ft] = bracket(ts, timeS)
    b.add(p, k, wp * (1 - ft), altitudeM)
    if (ts.length > 1) b.add(p, k + 1, wp * ft, altitudeM)
  }
  const r = out ?? ({} as PointConditions)
  r.windSpeedMps = b.speed / b.w
  r.gustMps = b.gust / b.w
  const mag = Math.hypot(b.east, b.north)
  r.windFromDeg =
    mag < 1e-9 * b.w ? b.dirNearest : ((Math.atan2(b.east, b.north) * 180) / Math.PI + 360) % 360
  r.temperatureC = b.temp / b.w
  r.pressurePa = b.pres / b.w
  r.relativeHumidity = b.rh / b.w
  return r
}

/** The forecast with its 10 m wind changed: speed + `dSpeedMps` (not below 0), direction + `dDirDeg`. */
export function perturbForecast(f: Forecast, dSpeedMps: number, dDirDeg: number): Forecast {
  return {
    ...f,
    points: f.points.map((p) => ({
      ...p,
      windSpeedMps: Array.from(p.windSpeedMps, (w) => Math.max(0, w + dSpeedMps)),
      gustMps: p.gustMps && Array.from(p.gustMps, (w) => Math.max(0, w + dSpeedMps)),
      windFromDeg: Array.from(p.windFromDeg, (d) => (((d + dDirDeg) % 360) + 360) % 360),
    })),
  }
}
