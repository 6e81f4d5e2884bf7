// A run's samples for the page's VE chart and sliders (downsampled), its GPS track, and the index
// range of a time range.
import type { ActivitySamples, VeSegment, VeSeries } from '@veloptima/engine'

/**
 * Samples of a run for the page's VE chart and sliders (downsampled to at most MAX_POINTS), as
 * the VE fit used them: with them the browser's `virtualElevation` redraws the fitted trace.
 */
export type RunSeries = {
  t: number[]
  dt: number[]
  speed: number[]
  power: number[]
  rho: number[]
  /** The elevation the fit matched (averaged by position when it was), null on a flat track. */
  elevation: number[] | null
  heading: number[]
  valid: number[]
  /**
   * The stretches the fit used, [first, end) in this series' indices, with their fitted offset
   * (m): the trace restarts at each; samples outside every stretch are not drawn.
   */
  segments: [number, number, number][]
  /** The fitted virtual elevation per sample (NaN outside the stretches), m. */
  fit: number[]
  /**
   * Why the fit left each point out (`VE_EXCLUDED`: 0 used, 1 stopped or in a gap, 2 braking,
   * 3 freewheeling off a velodrome's line); a bucket takes the reason most of its left-out
   * samples have, 0 only when the fit used all of them.
   */
  excluded: number[]
  /** The velodrome model's geometry and per-sample terms (null: the road model). */
  velodrome: {
    lap_length_m: number
    bend_radius_m: number
    com_height_m: number
    com_speed: number[]
    com_height: number[]
    normal_factor: number[]
  } | null
}

const MAX_POINTS = 4000
const MAX_TRACK = 600

const round = (x: number, digits: number) => {
  if (!Number.isFinite(x)) return NaN
  const f = 10 ** digits
  return Math.round(x * f) / f
}

/**
 * A run's samples [i0, i1) for the sliders, the fit's stretches and fitted trace in them; above
 * MAX_POINTS buckets of k samples averaged (and rounded: the redraw then only approximates the
 * fit), else every sample at full precision (the redraw equals the fit's trace).
 */
export function seriesOf(
  ve: VeSeries,
  residuals: Float64Array,
  excluded: Uint8Array,
  segments: VeSegment[],
  i0: number,
  i1: number,
): { series: RunSeries; k: number } {
  const n = i1 - i0
  const k = Math.max(1, Math.ceil(n / MAX_POINTS))
  const r = k === 1 ? (x: number) => (Number.isFinite(x) ? x : NaN) : round
  const track = ve.track
  const out: RunSeries = {
    t: [],
    dt: [],
    speed: [],
    power: [],
    rho: [],
    elevation: ve.elevation ? [] : null,
    heading: [],
    valid: [],
    segments: [],
    fit: [],
    excluded: [],
    velodrome: track
      ? {
          lap_length_m: track.geometry.lapLengthM,
          bend_radius_m: track.geometry.bendRadiusM,
          com_height_m: track.geometry.comHeightM,
          com_speed: [],
          com_height: [],
          normal_factor: [],
        }
      : null,
  }
  const mean = (a: Float64Array, b: number, e: number) => {
    let x = 0
    for (let i = b; i < e; i++) x += a[i]!
    return x / (e - b)
  }
  for (let b = i0; b < i1; b += k) {
    const e = Math.min(i1, b + k)
    let dt = 0
    let valid = 1
    let fit = 0
    for (let i = b; i < e; i++) {
      dt += i === i0 ? 0 : ve.dt[i]!
      if (!ve.valid[i]) valid = 0
      fit += (ve.elevation ? ve.elevation[i]! : 0) - residuals[i]!
    }
    const sv = mean(ve.speed, b, e)
    const pv = mean(ve.power, b, e)
    out.t.push(r(ve.t[b]! - ve.t[i0]!, 2))
    out.dt.push(r(dt, 3))
    out.speed.push(r(sv, 3))
    out.power.push(r(pv, 1))
    out.rho.push(r(mean(ve.rho, b, e), 4))
    if (ve.elevation) out.elevation!.push(r(mean(ve.elevation, b, e), 2))
    out.heading.push(r(ve.heading[b]!, 4))
    out.valid.push(valid && Number.isFinite(sv) && Number.isFinite(pv) ? 1 : 0)
    out.fit.push(r(fit / (e - b), 3))
    out.excluded.push(reasonOf(excluded, b, e))
    if (track && out.velodrome) {
      out.velodrome.com_speed.push(r(mean(track.comSpeed, b, e), 3))
      out.velodrome.com_height.push(r(mean(track.comHeight, b, e), 4))
      out.velodrome.normal_factor.push(r(mean(track.normalFactor, b, e), 5))
    }
  }
  for (const g of segments) {
    const a = Math.max(0, Math.ceil((g.start - i0) / k))
    const z = Math.min(out.t.length, Math.ceil((g.end - i0) / k))
    if (z - a >= 2) out.segments.push([a, z, g.offsetM])
  }
  return { series: out, k }
}

/** The reason most of the left-out samples in [b, e) have (the lower code on a tie); 0: none. */
function reasonOf(excluded: Uint8Array, b: number, e: number): number {
  const counts = [0, 0, 0, 0]
  for (let i = b; i < e; i++) {
    const c = excluded[i]!
    if (c > 0 && c < counts.length) counts[c]!++
  }
  let best = 0
  for (let c = 1; c < counts.length; c++) {
    if (counts[c]! > (best === 0 ? 0 : counts[best]!)) best = c
  }
  return best
}

export function trackOf(s: ActivitySamples, i0: number, i1: number): [number, number][] | null {
  if (!s.lat || !s.lon) return null
  const k = Math.max(1, Math.ceil((i1 - i0) / MAX_TRACK))
  const out: [number, number][] = []
  for (let i = i0; i < i1; i += k) {
    const la = s.lat[i]!
    const lo = s.lon[i]!
    if (Number.isFinite(la) && Number.isFinite(lo)) out.push([round(la, 6), round(lo, 6)])
  }
  return out.length > 1 ? out : null
}

/** First index with t ≥ a and one past the last with t ≤ b (binary search). */
export function indexRange(t: Float64Array, a: number, b: number): [number, number] {
  const lower = (x: number, strict: boolean) => {
    let lo = 0
    let hi = t.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if (strict ? t[mid]! <= x : t[mid]! < x) lo = mid + 1
      else hi = mid
    }
    return lo
  }
  return [lower(a, false), lower(b, true)]
}
