// The virtual-elevation model (Chung 2012, docs/engine/science.md §6.1): the power balance rearranged to a
// slope and integrated to an elevation profile, per sample in energy form.
//
//
// Per sample i (energy form, Δt = t_i − t_{i−1}, v = ground speed, F = |Va|·(v + w∥) or the
// measured air speed squared, κ = (m + I/r²)/m):
//   ΔVE_i = η·P_i·Δt/(m·g) − κ·(v_i² − v_{i−1}²)/(2g) − P_WB(v_i)·Δt/(m·g)
//           − Crr·v_i·Δt − (CdA + Fw)·ρ_i·F_i·v_i·Δt/(2·m·g)
// With Fw = 0, no bearings and I = 0 this is Chung's / GoldenCheetah Aerolab's slope
// s = ηP/(v m g) − Crr − CdA·ρ·v²/(2 m g) − a/g, a = (v_i² − v_{i−1}²)/(2Δt·v_i), times v_i·Δt.
import { G0, MARTIN } from '../physics/constants.ts'
import type { VeModelOptions, VeParams, VeSeries, VeTrack } from './types.ts'

export interface ModelConstants {
  fw: number
  kappa: number
  bearings: boolean
}

export function modelConstants(o: VeModelOptions, massKg: number): ModelConstants {
  const inertia = o.wheelInertiaKgM2 ?? MARTIN.wheelInertiaKgM2
  return {
    fw: o.spokeDragAreaM2 ?? MARTIN.spokeDragAreaM2,
    kappa: 1 + inertia / (MARTIN.wheelRadiusM * MARTIN.wheelRadiusM) / massKg,
    bearings: o.bearings ?? true,
  }
}

/** Aero "F" of one sample: speed² of the air along the bike axis times |Va| (or airspeed²). */
function aeroF(s: VeSeries, i: number, wE: number, wN: number): number {
  if (s.airspeed) {
    const a = s.airspeed[i]!
    return a * a
  }
  const v = s.speed[i]!
  const h = s.heading[i]!
  if ((wE === 0 && wN === 0) || !Number.isFinite(h)) return v * v
  const sh = Math.sin(h)
  const ch = Math.cos(h)
  const ax = v - (wE * sh + wN * ch)
  const lat = wE * ch - wN * sh
  return Math.sqrt(ax * ax + lat * lat) * ax
}

/**
 * Velodrome: change of kinetic energy (centre of mass translating at comSpeed, wheels spinning
 * at v) plus potential energy of the centre of mass (it drops by h·(1 − cos φ) in a bend), per m·g.
 */
export function trackKinetic(
  track: VeTrack,
  i: number,
  v: number,
  v0: number,
  kappa: number,
): number {
  const c = track.comSpeed[i]!
  const c0 = track.comSpeed[i - 1]!
  return (
    (c * c - c0 * c0 + (kappa - 1) * (v * v - v0 * v0)) / (2 * G0) +
    track.comHeight[i]! -
    track.comHeight[i - 1]!
  )
}

/**
 * The VE trace of samples [start, end) for one set of parameters (the sliders): element k is
 * the virtual elevation at sample start + k, starting at `params.offsetM`. Unusable samples
 * (stopped, gaps, NaN) hold the trace flat. Writes into `out` when given (no allocation).
 */
export function virtualElevation(
  s: VeSeries,
  start: number,
  end: number,
  params: VeParams,
  out?: Float64Array,
): Float64Array {
  const len = Math.max(0, end - start)
  const ve = out && out.length >= len ? out : new Float64Array(len)
  const m = params.massKg
  const c = modelConstants(params, m)
  const mg = m * G0
  const eta = params.drivetrainEfficiency
  const cdaTot = params.cda + c.fw
  const crr = params.crr
  const wE = params.windE ?? 0
  const wN = params.windN ?? 0
  const { speed, power, dt, rho, valid } = s
  const track = s.track
  let h = params.offsetM ?? 0
  if (len > 0) ve[0] = h
  for (let i = start + 1; i < end; i++) {
    if (valid[i] === 1 && valid[i - 1] === 1) {
      const v = speed[i]!
      const v0 = speed[i - 1]!
      const d = dt[i]!
      const bear = c.bearings ? v * (MARTIN.bearingA + MARTIN.bearingB * v) : 0
      if (track) {
        h +=
          ((eta * power[i]! - bear) * d) / mg -
          trackKinetic(track, i, v, v0, c.kappa) -
          crr * track.normalFactor[i]! * v * d -
          (cdaTot * rho[i]! * track.comSpeed[i]! ** 3 * d) / (2 * mg)
      } else {
        h +=
          ((eta * power[i]! - bear) * d) / mg -
          (c.kappa * (v * v - v0 * v0)) / (2 * G0) -
          crr * v * d -
          (cdaTot * rho[i]! * aeroF(s, i, wE, wN) * v * d) / (2 * mg)
      }
    }
    ve[i - start] = h
  }
  return ve
}
