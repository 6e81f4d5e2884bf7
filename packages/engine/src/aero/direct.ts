// Direct method (docs/engine/science.md §6.3): with a measured air speed, the drag area of a window is the
// work left after propulsion minus kinetic, potential, rolling and bearing work, divided by the
// aero work per unit drag area:
//   CdA + Fw = Σ[η·P·Δt − m·g·Δh − ½(m + I/r²)·Δ(v²) − Crr·m·g·v·Δt − P_WB·Δt] / Σ ½·ρ·cal·a²·v·Δt
// with a the sensor's air speed and cal its calibration factor on the dynamic pressure
// (Aerosensor: cal = 1/(1 − Cp)). A run's CdA is Σ numerators / Σ denominators over its windows
// (not a mean of ratios); its interval comes from a delete-a-block jackknife over the windows
// (blocks of ≈ 120 s, at least 4), Student t.
import { G0, MARTIN } from '../physics/constants.ts'
import type { VeModelOptions, VeSeries } from './types.ts'
import { tQuantile975 } from './ve.ts'

export interface DirectOptions extends VeModelOptions {
  massKg: number
  drivetrainEfficiency: number
  crr: number
  /** Window length, s (default 30). */
  windowS?: number
  /** Jackknife block length, s (default 120); intervals = false: none. */
  blockS?: number
  intervals?: boolean
}

export interface DirectWindow {
  startIndex: number
  endIndex: number
  /** Numerator and denominator of the window (J and J per m² of drag area). */
  num: number
  den: number
  meanSpeedMps: number
  meanAirSpeedMps: number
  meanPowerW: number
}

export interface DirectRunResult {
  cda: number
  cdaCi95: [number, number]
  windows: DirectWindow[]
  /** Σ numerators and Σ denominators (for a calibration fit). */
  num: number
  den: number
  /** Standard error of the CdA and its degrees of freedom (jackknife). */
  se: number
  dof: number
  samplesUsed: number
}

/**
 * Direct-method CdA over the pieces [start, end) of one run. The series must carry the
 * calibrated air speed (`prepareVe(samples, {useAirspeed: true, calibrationFactor})`); the
 * elevation (smoothed over ±5 s) gives the potential-energy term, flat when absent.
 */
export function directCda(
  s: VeSeries,
  pieces: Array<[number, number]>,
  o: DirectOptions,
): DirectRunResult {
  const air = s.airspeed
  if (!air) throw new Error('directCda: the series has no air speed')
  const m = o.massKg
  const mg = m * G0
  const inertia = o.wheelInertiaKgM2 ?? MARTIN.wheelInertiaKgM2
  const mEff = m + inertia / (MARTIN.wheelRadiusM * MARTIN.wheelRadiusM)
  const fw = o.spokeDragAreaM2 ?? MARTIN.spokeDragAreaM2
  const bearings = o.bearings ?? true
  const win = o.windowS ?? 30
  const elev = s.elevation ? smoothed(s.elevation, s.t, 5) : null
  const windows: DirectWindow[] = []
  let used = 0
  for (const [a0, b0] of pieces) {
    let w: DirectWindow | null = null
    let tStart = 0
    let n = 0
    let sv = 0
    let sa = 0
    let sp = 0
    const close = (): void => {
      if (w && n >= 5 && w.den > 0) {
        w.meanSpeedMps = sv / n
        w.meanAirSpeedMps = sa / n
        w.meanPowerW = sp / n
        windows.push(w)
        used += n
      }
      w = null
    }
    for (let i = Math.max(1, a0); i < b0; i++) {
      if (
        s.valid[i] !== 1 ||
        s.valid[i - 1] !== 1 ||
        (elev && !Number.isFinite(elev[i]! - elev[i - 1]!))
      ) {
        close()
        continue
      }
      if (!w || s.t[i]! - tStart >= win) {
        close()
        w = {
          startIndex: i - 1,
          endIndex: i,
          num: 0,
          den: 0,
          meanSpeedMps: 0,
          meanAirSpeedMps: 0,
          meanPowerW: 0,
        }
        tStart = s.t[i - 1]!
        n = sv = sa = sp = 0
      }
      const v = s.speed[i]!
      const v0 = s.speed[i - 1]!
      const d = s.dt[i]!
      const a = air[i]!
      const bear = bearings ? v * (MARTIN.bearingA + MARTIN.bearingB * v) : 0
      const dh = elev ? elev[i]! - elev[i - 1]! : 0
      w.num +=
        (o.drivetrainEfficiency * s.power[i]! - bear) * d -
        mg * dh -
        0.5 * mEff * (v * v - v0 * v0) -
        o.crr * mg * v * d
      w.den += 0.5 * s.rho[i]! * a * a * v * d
      w.endIndex = i + 1
      n++
      sv += v
      sa += a
      sp += s.power[i]!
    }
    close()
  }
  let num = 0
  let den = 0
  for (const w of windows) {
    num += w.num
    den += w.den
  }
  const cda = den > 0 ? num / den - fw : NaN
  let se = NaN
  let dof = 0
  let ci: [number, number] = [NaN, NaN]
  if ((o.intervals ?? true) && windows.length >= 4 && den > 0) {
    const per = Math.max(1, Math.round((o.blockS ?? 120) / win))
    const G = Math.max(4, Math.min(20, Math.floor(windows.length / per)))
    const loo: number[] = []
    for (let k = 0; k < G; k++) {
      let bn = 0
      let bd = 0
      for (
        let j = Math.floor((k * windows.length) / G);
        j < Math.floor(((k + 1) * windows.length) / G);
        j++
      ) {
        bn += windows[j]!.num
        bd += windows[j]!.den
      }
      if (den - bd > 0) loo.push((num - bn) / (den - bd) - fw)
    }
    if (loo.length >= 2) {
      const mean = loo.reduce((a, b) => a + b, 0) / loo.length
      se = Math.sqrt(((loo.length - 1) / loo.length) * loo.reduce((a, b) => a + (b - mean) ** 2, 0))
      dof = loo.length - 1
      const hw = tQuantile975(dof) * se
      ci = [cda - hw, cda + hw]
    }
  }
  return { cda, cdaCi95: ci, windows, num, den, se, dof, samplesUsed: used }
}

/** Centred moving average over ±halfS seconds (NaN samples skipped). */
export function smoothed(x: Float64Array, t: Float64Array, halfS: number): Float64Array {
  const n = x.length
  const out = new Float64Array(n)
  let lo = 0
  let hi = 0
  let sum = 0
  let cnt = 0
  for (let i = 0; i < n; i++) {
    while (hi < n && t[hi]! <= t[i]! + halfS) {
      if (Number.isFinite(x[hi])) {
        sum += x[hi]!
        cnt++
      }
      hi++
    }
    while (t[lo]! < t[i]! - halfS) {
      if (Number.isFinite(x[lo])) {
        sum -= x[lo]!
        cnt--
      }
      lo++
    }
    out[i] = cnt > 0 && Number.isFinite(x[i]) ? sum / cnt : NaN
  }
  return out
}
