// The virtual-elevation trace of one run, recomputed in the browser by the engine's own
// `virtualElevation` (the sliders of the session page): the run block holds the samples as the
// fit used them, the velodrome model's terms when the fit used it, and the stretches the fit
// used with their offsets, so at the fitted CdA and Crr the redraw is the fitted trace.
import { VE_EXCLUDED, virtualElevation, type VeParams, type VeSeries } from '@veloptima/engine'

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
  /**
   * Why the fit left each point out (the engine's `VE_EXCLUDED`: 0 used, 1 stopped or in a gap,
   * 2 braking, 3 freewheeling off a velodrome's line); absent in older blocks (unknown).
   */
  excluded?: number[]
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

/** The reasons the fit leaves samples out, in the order the chart's line names them. */
export const LEFT_OUT_REASONS = [
  { code: VE_EXCLUDED.braking, key: 'braking', label: 'braking', colour: '#dc2626' },
  { code: VE_EXCLUDED.stop, key: 'stop', label: 'stopped or in a gap', colour: '#475569' },
  {
    code: VE_EXCLUDED.freewheel,
    key: 'freewheel',
    label: 'freewheeling off the line',
    colour: '#2563eb',
  },
] as const

export type LeftOutReason = (typeof LEFT_OUT_REASONS)[number]['key']

/** The samples of a run the fit left out, for the VE chart's bands and the line under it. */
export type LeftOut = {
  /**
   * Stretches of the run's time (s, as `t`) left out for one reason: a point stands for the time
   * since the one before it (its `dt`), so a band [from, to] runs from the point before the
   * stretch to its last point and covers a gap in the recording.
   */
  bands: { from: number; to: number; reason: LeftOutReason }[]
  /** Time left out per reason, s (the sum of the points' `dt`; a downsampled point counts whole). */
  seconds: Record<LeftOutReason, number>
}

/** The left-out samples of a run block by reason; null when the block does not say (older). */
export function leftOutOf(s: RunSeriesJson): LeftOut | null {
  const codes = s.excluded
  if (!codes || codes.length !== s.t.length) return null
  const keyOf = new Map<number, LeftOutReason>(LEFT_OUT_REASONS.map((r) => [r.code, r.key]))
  const out: LeftOut = { bands: [], seconds: { braking: 0, stop: 0, freewheel: 0 } }
  let j = 0
  while (j < codes.length) {
    const reason = keyOf.get(codes[j]!)
    let e = j + 1
    while (e < codes.length && codes[e] === codes[j]) e++
    if (reason) {
      for (let i = j; i < e; i++) {
        const dt = s.dt[i]!
        if (Number.isFinite(dt) && dt > 0) out.seconds[reason] += dt
      }
      out.bands.push({ from: s.t[Math.max(0, j - 1)]!, to: s.t[e - 1]!, reason })
    }
    j = e
  }
  return out
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
