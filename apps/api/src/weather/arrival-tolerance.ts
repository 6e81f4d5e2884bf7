// How settled a plan's arrival times are against the forecast (the tolerance of the rounds), and
// the steady power of the first-guess ride (docs/engine/weather.md).
import type { Forecast, PacingSettings } from '@veloptima/engine'

/** Arrival times that move by less than this between rounds are always final (s). */
export const ARRIVAL_TOLERANCE_S = 60

/**
 * The smallest change the forecast reports: Open-Meteo gives wind to 0.1 m/s (and direction to
 * 1°, 0.09 m/s of a 5 m/s wind), temperature to 0.1 °C, humidity to 1 % and pressure to 0.1 hPa
 * (open-meteo.ts reads them; stand-in.ts answers with the same precision).
 */
export const FORECAST_RESOLUTION = {
  windMps: 0.1,
  temperatureC: 0.1,
  relativeHumidity: 0.01,
  pressurePa: 10,
}

/**
 * How far an arrival time may move before the forecast read there changes by more than it
 * resolves (s): between two forecast hours each value is interpolated linearly, so a shift of
 * Δt changes it by at most its steepest hourly slope × Δt. The slopes are those of the hours in
 * [fromS, toS] at every forecast point; wind counts as a vector (speed and direction together).
 * At least ARRIVAL_TOLERANCE_S, at most one forecast step. A plan whose arrivals move less than
 * this was optimized with the conditions it meets, to the forecast's own precision: another round
 * would read values that differ from these by less than the forecast resolves.
 */
export function arrivalToleranceS(forecast: Forecast, fromS: number, toS: number): number {
  let tolerance = Infinity
  let step = Infinity
  const res = FORECAST_RESOLUTION
  const limit = (change: number, resolution: number, dt: number) => {
    if (Math.abs(change) > 0) tolerance = Math.min(tolerance, (resolution / Math.abs(change)) * dt)
  }
  for (const p of forecast.points) {
    const t = p.timeS
    for (let k = 0; k + 1 < t.length; k++) {
      const t0 = t[k]!
      const t1 = t[k + 1]!
      if (t1 < fromS || t0 > toS) continue
      const dt = t1 - t0
      step = Math.min(step, dt)
      const toRad = Math.PI / 180
      const east = (j: number) => p.windSpeedMps[j]! * Math.sin(p.windFromDeg[j]! * toRad)
      const north = (j: number) => p.windSpeedMps[j]! * Math.cos(p.windFromDeg[j]! * toRad)
      limit(Math.hypot(east(k + 1) - east(k), north(k + 1) - north(k)), res.windMps, dt)
      limit(p.temperatureC[k + 1]! - p.temperatureC[k]!, res.temperatureC, dt)
      limit(p.relativeHumidity[k + 1]! - p.relativeHumidity[k]!, res.relativeHumidity, dt)
      limit(p.surfacePressurePa[k + 1]! - p.surfacePressurePa[k]!, res.pressurePa, dt)
    }
  }
  if (!Number.isFinite(step)) return ARRIVAL_TOLERANCE_S
  return Math.round(Math.max(ARRIVAL_TOLERANCE_S, Math.min(step, tolerance)))
}

/**
 * The steady power that meets the run's constraint for a ride of `timeS` (the optimizer's
 * baseline): the average or normalized power asked for (a steady ride's NP is its power), the
 * work over the ride, or CP + W′ / time (a steady ride above CP spends W′ at P − CP, docs/engine/
 * science.md), within the plan's power bounds.
 */
export function steadyPowerFor(
  pacing: PacingSettings,
  rider: { cpW?: number; wPrimeJ?: number; maxPowerW?: number },
  timeS: number,
): number {
  const c = pacing.constraint
  const p =
    c.type === 'average_power' || c.type === 'normalized_power'
      ? c.powerW
      : c.type === 'work'
        ? c.workJ / timeS
        : (rider.cpW ?? 200) + (rider.wPrimeJ ?? 0) / timeS
  const hi = pacing.maxPowerW ?? rider.maxPowerW ?? Infinity
  return Math.round(Math.min(hi, Math.max(pacing.minPowerW ?? 0, p)))
}
