// Samples the fit leaves out: braking (energy the model does not know) and, on a velodrome,
// freewheeling off the measurement line.
import type { VeSeries } from './types.ts'

/** Zero-power deceleration above this (m/s²) counts as braking: energy the model does not know. */
const BRAKING_DECEL_MPS2 = 0.6
/**
 * On a velodrome: the shortest freewheeling (s) taken as leaving the line, and the seconds after
 * pedalling resumes before the rider counts as back on it.
 */
export const MIN_FREEWHEEL_S = 5
export const FREEWHEEL_SETTLE_S = 5

export function brakingMask(s: VeSeries): Uint8Array {
  const mask = new Uint8Array(s.n).fill(1)
  for (let i = 1; i < s.n; i++) {
    if (s.valid[i] !== 1 || s.valid[i - 1] !== 1) continue
    const decel = (s.speed[i - 1]! - s.speed[i]!) / s.dt[i]!
    if (s.power[i]! < 20 && decel > BRAKING_DECEL_MPS2) mask[i] = 0
  }
  return mask
}

/**
 * Velodrome (no altitude channel): the model holds the rider on the measurement line, where the
 * track model knows the height of the centre of mass. A rider who freewheels for a while leaves
 * the line (swings up the banking to slow down, drops back to rejoin: metres of height the file
 * does not record), so on a track every stretch of at least `MIN_FREEWHEEL_S` seconds without
 * power, and the `FREEWHEEL_SETTLE_S` seconds after pedalling resumes, is left out of the fit;
 * the trace is cut there and each part gets its own offset. A shorter pause in the pedalling is
 * kept. Returns the mask (1 = used) and the number of samples left out.
 */
export function freewheelMask(
  s: VeSeries,
  base: Uint8Array,
): { mask: Uint8Array; dropped: number } {
  const mask = Uint8Array.from(base)
  let dropped = 0
  const drop = (i: number) => {
    if (mask[i] === 1) dropped++
    mask[i] = 0
  }
  let i = 0
  while (i < s.n) {
    if (s.valid[i] !== 1 || s.power[i]! > 0) {
      i++
      continue
    }
    let j = i
    while (j + 1 < s.n && s.valid[j + 1] === 1 && !(s.power[j + 1]! > 0)) j++
    if (s.t[j]! - s.t[i]! + 1 >= MIN_FREEWHEEL_S) {
      let k = i
      for (; k < s.n && s.t[k]! - s.t[j]! <= FREEWHEEL_SETTLE_S; k++) drop(k)
      i = k
    } else i = j + 1
  }
  return { mask, dropped }
}
