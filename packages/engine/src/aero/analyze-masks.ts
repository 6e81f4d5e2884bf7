// Samples the fit leaves out: braking (energy the model does not know) and, on a velodrome,
// freewheeling off the measurement line.
import { G0 } from '../physics/constants.ts'
import type { VeSeries } from './types.ts'
import { median } from './random.ts'

/**
 * Braking: a sample with little power (riders stop pedalling to brake) slowing down by more
 * than its power, drag, rolling and the road's slope explain, each taken at its most generous
 * (CdA 0.5 m², Crr 0.006: a rider sitting up on a rough road), by this margin (m/s²). Braking is
 * energy the model does not know. The seconds either side of a braking sample are left out too:
 * a head unit's second in which the rider starts or stops braking holds part of it. The power
 * condition keeps a climb whose slope the elevation channel misses (the helmet tests: 200 W
 * from 9 to 5 m/s where the altitude says flat) from counting as braking.
 */
const BRAKING_MARGIN_MPS2 = 0.25
const GENEROUS_CDA_M2 = 0.5
const GENEROUS_CRR = 0.006
/** "Little power": below this share of the file's median moving power, and at least below 50 W. */
const LOW_POWER_SHARE = 0.35
const LOW_POWER_MIN_W = 50
/**
 * On a velodrome: the shortest freewheeling (s) taken as leaving the line, and the seconds after
 * pedalling resumes before the rider counts as back on it.
 */
export const MIN_FREEWHEEL_S = 5
export const FREEWHEEL_SETTLE_S = 5

/** The road's slope at a sample: its elevation change over ± this many samples. */
const SLOPE_HALF_WINDOW = 5

/** The road's grade at sample i from the elevation over ± SLOPE_HALF_WINDOW samples (0: unknown). */
function gradeAt(s: VeSeries, i: number): number {
  const z = s.elevation
  if (!z) return 0
  const a = Math.max(0, i - SLOPE_HALF_WINDOW)
  const b = Math.min(s.n - 1, i + SLOPE_HALF_WINDOW)
  let run = 0
  for (let k = a + 1; k <= b; k++) run += s.speed[k]! * s.dt[k]!
  const rise = z[b]! - z[a]!
  return run > 1 && Number.isFinite(rise) ? rise / run : 0
}

function medianMovingPower(s: VeSeries): number {
  const p: number[] = []
  for (let i = 0; i < s.n; i++) if (s.valid[i] === 1 && s.power[i]! > 0) p.push(s.power[i]!)
  return p.length > 0 ? median(p) : 0
}

/**
 * The samples the fit keeps (1) and leaves out as braking (0), for a system of `massKg` with
 * drivetrain efficiency `eta`.
 */
export function brakingMask(s: VeSeries, massKg: number, eta: number): Uint8Array {
  const braking = new Uint8Array(s.n)
  const low = Math.max(LOW_POWER_MIN_W, LOW_POWER_SHARE * medianMovingPower(s))
  for (let i = 1; i < s.n; i++) {
    if (s.valid[i] !== 1 || s.valid[i - 1] !== 1 || !(s.power[i]! < low)) continue
    const v0 = s.speed[i - 1]!
    const v1 = s.speed[i]!
    const dt = s.dt[i]!
    const vm = Math.max(1, 0.5 * (v0 + v1))
    const drag = 0.5 * s.rho[i]! * GENEROUS_CDA_M2 * vm * vm
    const resist = (drag + GENEROUS_CRR * massKg * G0) / massKg + G0 * gradeAt(s, i)
    const least = (eta * s.power[i]!) / (massKg * vm) - resist
    if ((v1 - v0) / dt < least - BRAKING_MARGIN_MPS2) braking[i] = 1
  }
  const mask = new Uint8Array(s.n).fill(1)
  for (let i = 0; i < s.n; i++) {
    if (!braking[i]) continue
    mask[i] = 0
    if (i > 0) mask[i - 1] = 0
    if (i + 1 < s.n) mask[i + 1] = 0
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
