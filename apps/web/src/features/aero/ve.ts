// The virtual-elevation trace of one run, recomputed in the browser by the engine's own
// `virtualElevation` (the sliders of the session page): the run block holds the samples.
import { virtualElevation, type VeParams, type VeSeries } from '@veloptima/engine'

/** A run block's samples (see apps/api jobs/aero-task.ts RunSeries). */
export type RunSeriesJson = {
  t: number[]
  dt: number[]
  speed: number[]
  power: number[]
  rho: number[]
  elevation: number[] | null
  heading: number[]
  valid: number[]
}

/** The fit's parameters stored with the run (SI). */
export type RunParamsJson = {
  cda: number
  crr: number
  mass_kg: number
  drivetrain_efficiency: number | null
  wind_e: number
  wind_n: number
  offset_m: number
}

export function veSeriesOf(s: RunSeriesJson): VeSeries {
  const n = s.t.length
  const nan = (x: number | null) => (x == null ? NaN : x)
  return {
    n,
    t: Float64Array.from(s.t),
    dt: Float64Array.from(s.dt),
    speed: Float64Array.from(s.speed, nan),
    power: Float64Array.from(s.power, nan),
    rho: Float64Array.from(s.rho, nan),
    elevation: s.elevation ? Float64Array.from(s.elevation, nan) : null,
    heading: Float64Array.from(s.heading, nan),
    airspeed: null,
    valid: Uint8Array.from(s.valid),
  }
}

export function veParamsOf(p: RunParamsJson, cda: number, crr: number): VeParams {
  return {
    cda,
    crr,
    massKg: p.mass_kg,
    drivetrainEfficiency: p.drivetrain_efficiency ?? 0.976,
    windE: p.wind_e,
    windN: p.wind_n,
    offsetM: p.offset_m,
  }
}

/**
 * The VE trace for these CdA and Crr, into `out` when given (no allocation per slider step),
 * placed on the measured elevation: the fit gives each run (each out-and-back leg) its own
 * offset, so the trace is shifted by its mean distance to the measured elevation over the
 * usable samples; without a measured elevation it starts at the stored offset.
 */
export function veTrace(series: VeSeries, params: VeParams, out?: Float64Array): Float64Array {
  const ve = virtualElevation(series, 0, series.n, { ...params, offsetM: 0 }, out)
  const elevation = series.elevation
  let shift = params.offsetM ?? 0
  if (elevation) {
    let sum = 0
    let n = 0
    for (let i = 0; i < series.n; i++) {
      const d = elevation[i]! - ve[i]!
      if (series.valid[i] && Number.isFinite(d)) {
        sum += d
        n++
      }
    }
    if (n > 0) shift = sum / n
  }
  for (let i = 0; i < series.n; i++) ve[i]! += shift
  return ve
}
