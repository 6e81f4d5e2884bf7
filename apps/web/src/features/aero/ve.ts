// The virtual-elevation trace of one run, recomputed in the browser by the engine's own
// `virtualElevation` (the sliders of the session page): the run block holds the samples as the
// fit used them, the velodrome model's terms when the fit used it, and the stretches the fit
// used with their offsets, so at the fitted CdA and Crr the redraw is the fitted trace.
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
  /** The fit's stretches [first, end) with their offsets (m); absent in older blocks. */
  segments?: [number, number, number][]
  /** The fitted trace per sample, m (null outside the stretches); absent in older blocks. */
  fit?: (number | null)[]
  /** The velodrome model's geometry and per-sample terms (null or absent: the road model). */
  velodrome?: {
    lap_length_m: number
    bend_radius_m: number
    com_height_m: number
    com_speed: number[]
    com_height: number[]
    normal_factor: number[]
  } | null
}

/** The fit's parameters stored with the run (SI). */
export type RunParamsJson = {
  /** Null when the run's CdA (or Crr) was withheld: the sliders start from a typical value. */
  cda: number | null
  crr: number | null
  mass_kg: number
  drivetrain_efficiency: number | null
  wind_e: number
  wind_n: number
  offset_m: number
}

export function veSeriesOf(s: RunSeriesJson): VeSeries {
  const n = s.t.length
  const nan = (x: number | null) => (x == null ? NaN : x)
  const v = s.velodrome
  return {
    ...(v
      ? {
          track: {
            geometry: {
              lapLengthM: v.lap_length_m,
              bendRadiusM: v.bend_radius_m,
              comHeightM: v.com_height_m,
            },
            comSpeed: Float64Array.from(v.com_speed, nan),
            comHeight: Float64Array.from(v.com_height, nan),
            normalFactor: Float64Array.from(v.normal_factor, nan),
          },
        }
      : {}),
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
 * The VE trace for these CdA and Crr, into `out` when given (no allocation per slider step).
 * With the fit's stretches (`segments`): each stretch from its fitted offset, as the fit drew it,
 * NaN between them (stops, braking, freewheeling on a velodrome: not drawn). Older blocks
 * without them: the whole run in one piece, shifted by its mean distance to the measured
 * elevation over the usable samples (or from the stored offset without one).
 */
export function veTrace(
  series: VeSeries,
  params: VeParams,
  out?: Float64Array,
  segments?: [number, number, number][],
): Float64Array {
  if (segments && segments.length > 0) {
    const ve = out && out.length >= series.n ? out : new Float64Array(series.n)
    ve.fill(NaN)
    for (const [a, b, offsetM] of segments) {
      virtualElevation(series, a, b, { ...params, offsetM }, ve.subarray(a, b))
    }
    return ve
  }
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
