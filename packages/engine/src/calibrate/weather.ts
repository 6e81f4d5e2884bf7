// Calibrating with the weather the ride was ridden in (docs/engine/calibration.md): historical hourly wind, temperature,
// pressure and humidity at a few places along the ride (the same `Forecast` shape the optimizer
// takes), read at each sample's place and time. The air density of each sample follows from its
// temperature, pressure and humidity; the known wind (reduced from 10 m to rider height) enters the
// energy balance as the simulator applies it — the drag force ½·ρ·CdA·va·(v + w∥) with
// va = √((v + w∥)² + w⊥²) — folded into an effective density ρ·va·(v + w∥)/v² so that the fit
// stays linear in CdA and no constant wind is fitted in its place.
import type { ActivitySamples, VeSeries } from '../aero/types.ts'
import type { Course } from '../course/types.ts'
import { airDensity } from '../physics/air.ts'
import type { Environment } from '../sim/model.ts'
import { EngineInputError } from '../sim/validate.ts'
import { conditionsAlongCourse, forecastEnvironment } from '../weather/conditions.ts'
import { conditionsAt, validateForecast } from '../weather/forecast.ts'
import type { Forecast, PointConditions } from '../weather/forecast.ts'
import { windHeightFactor } from '../weather/profile.ts'
import type { WindProfile } from '../weather/profile.ts'

/** Historical weather along a recorded ride. */
export interface RideWeather {
  /** Hourly conditions at points along the ride; their `distanceM` in the frame of the samples'
   * distance (the course built from the file). */
  forecast: Forecast
  /** Unix time (s) of the samples' t = 0 (default `ActivitySamples.startEpochS`). */
  startEpochS?: number
  /** 10 m → rider height (default: 1.5 m, rural terrain). */
  profile?: WindProfile
  /** What the weather is, for the report (e.g. "Open-Meteo archive, 31.25° N 121.42° E, …"). */
  label?: string
}

/** The weather the calibration used, averaged over the samples it fitted. */
export interface WeatherUsed {
  label: string
  /** Mean wind at rider height (m/s), its mean direction (from, degrees) and the 10 m factor. */
  windSpeedMps: number
  windFromDeg: number
  heightFactor: number
  temperatureC: number
  pressurePa: number
  relativeHumidity: number
}

/** Checks the weather input; messages name the field. */
export function validateRideWeather(w: RideWeather, samples: ActivitySamples): void {
  if (!w || typeof w !== 'object') throw new EngineInputError('weather', 'expected an object')
  if (w.startEpochS !== undefined && !Number.isFinite(w.startEpochS))
    throw new EngineInputError('weather.startEpochS', `expected unix seconds, got ${w.startEpochS}`)
  validateForecast(w.forecast)
  if (!samples.distance)
    throw new EngineInputError(
      'weather',
      'expected samples with a distance along the ride to place them in the weather',
    )
}

/**
 * Folds the weather into the prepared series: ρ per sample from the air there and then, times the
 * known wind's share of the drag (see the file's header). Returns the weather used, averaged over
 * the samples with a finite result.
 */
export function applyRideWeather(
  ve: VeSeries,
  samples: ActivitySamples,
  w: RideWeather,
): WeatherUsed {
  const factor = windHeightFactor(w.profile ?? {})
  const d = samples.distance!
  const alt = samples.altitude
  const pc = {} as PointConditions
  const t0 = w.startEpochS ?? samples.startEpochS
  let n = 0
  let sumT = 0
  let sumP = 0
  let sumRh = 0
  let sumW = 0
  let east = 0
  let north = 0
  for (let i = 0; i < ve.n; i++) {
    const a = alt && Number.isFinite(alt[i]) ? alt[i]! : 0
    conditionsAt(w.forecast, d[i]!, t0 + samples.t[i]!, a, pc)
    const rho = airDensity(pc.temperatureC, pc.pressurePa, pc.relativeHumidity)
    const speed = pc.windSpeedMps * factor
    const rel = (pc.windFromDeg * Math.PI) / 180 - ve.heading[i]!
    const par = speed * Math.cos(rel)
    const perp = speed * Math.sin(rel)
    const v = ve.speed[i]!
    if (v > 0) {
      const along = v + par
      ve.rho[i] = (rho * Math.sqrt(along * along + perp * perp) * along) / (v * v)
    } else ve.rho[i] = rho
    n++
    sumT += pc.temperatureC
    sumP += pc.pressurePa
    sumRh += pc.relativeHumidity
    sumW += speed
    east += speed * Math.sin((pc.windFromDeg * Math.PI) / 180)
    north += speed * Math.cos((pc.windFromDeg * Math.PI) / 180)
  }
  return {
    label: w.label ?? w.forecast.source ?? 'historical weather',
    windSpeedMps: sumW / n,
    windFromDeg: ((Math.atan2(east, north) * 180) / Math.PI + 360) % 360,
    heightFactor: factor,
    temperatureC: sumT / n,
    pressurePa: sumP / n,
    relativeHumidity: sumRh / n,
  }
}

/**
 * The environment of a replay of the ride in its weather: per-segment wind (rider height) and air
 * at the time the recording passed each segment's middle (`timeS`/`distanceM`: the recorded
 * points, time in unix seconds).
 */
export function rideWeatherEnvironment(
  course: Course,
  points: { timeS: ArrayLike<number>; distanceM: ArrayLike<number> },
  w: RideWeather,
  base: Environment = {},
): Environment {
  const n = course.n
  const times = new Float64Array(n)
  // Recorded (distance, time) pairs in ride order; each segment's middle reached first.
  const m = Math.min(points.timeS.length, points.distanceM.length)
  let j = 0
  let lastT = NaN
  let lastD = NaN
  for (let i = 0; i < n; i++) {
    const mid = 0.5 * (course.start[i]! + course.start[i + 1]!)
    while (j < m) {
      const t = points.timeS[j]!
      const dd = points.distanceM[j]!
      if (!Number.isFinite(t) || !Number.isFinite(dd)) {
        j++
        continue
      }
      if (dd >= mid) {
        times[i] =
          Number.isFinite(lastD) && dd > lastD
            ? lastT + ((mid - lastD) / (dd - lastD)) * (t - lastT)
            : t
        break
      }
      lastT = t
      lastD = dd
      j++
    }
    if (j >= m) times[i] = Number.isFinite(lastT) ? lastT : (w.startEpochS ?? 0)
  }
  return forecastEnvironment(
    course,
    conditionsAlongCourse(course, w.forecast, times, w.profile),
    base,
  )
}
