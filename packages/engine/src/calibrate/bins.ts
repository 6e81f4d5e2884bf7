// Consecutive usable samples merged into bins of a few seconds before the fit, so a 6 h ride at
// 1 Hz becomes a few thousand points and the fit, its outlier rejection and its intervals stay
// well under a second. The virtual-elevation increments of a bin equal the sum of its samples'
// (aero/ve.ts uses one speed per point for the kinetic, rolling and aero terms): the bin carries
//   speed = its last sample's speed            (kinetic energy telescopes exactly),
//   dt    = its distance / that speed           (rolling: v·dt = the distance exactly),
//   power = its work / dt                       (propulsion: P·dt = the work exactly),
//   rho   = Σρv³Δt / (speed³·dt)                (aero without wind exactly; with wind nearly),
// and the elevation and time of its last sample. Bearing losses (≈1 % of the total) are nearly
// exact. Excluded samples stay single (masked) so a bin never spans a stop, a brake or the edge
// of a piece.
import type { VeSeries } from '../aero/types.ts'

export interface BinnedSeries {
  series: VeSeries
  /** First and last sample (inclusive) of each bin. */
  first: Int32Array
  last: Int32Array
  /** Exclusion code of each bin (0 = used; a single excluded sample keeps its code). */
  marks: Uint8Array
}

/**
 * Merges runs of samples with `marks` 0 into bins of at most `binS` seconds that never cross a
 * boundary in `breaks` (sample indices where a new piece starts).
 */
export function binSeries(
  ve: VeSeries,
  marks: Uint8Array,
  binS: number,
  breaks: Set<number>,
): BinnedSeries {
  const n = ve.n
  const first: number[] = []
  const last: number[] = []
  let i = 0
  while (i < n) {
    let j = i
    if (marks[i] === 0) {
      while (
        j + 1 < n &&
        marks[j + 1] === 0 &&
        !breaks.has(j + 1) &&
        ve.t[j + 1]! - ve.t[i]! < binS
      )
        j++
    }
    first.push(i)
    last.push(j)
    i = j + 1
  }
  const m = first.length
  const t = new Float64Array(m)
  const dt = new Float64Array(m)
  const speed = new Float64Array(m)
  const power = new Float64Array(m)
  const rho = new Float64Array(m)
  const heading = new Float64Array(m)
  const valid = new Uint8Array(m)
  const binMarks = new Uint8Array(m)
  const elevation = ve.elevation ? new Float64Array(m) : null
  for (let k = 0; k < m; k++) {
    const a = first[k]!
    const b = last[k]!
    t[k] = ve.t[b]!
    const vEnd = ve.speed[b]!
    if (a === b) {
      dt[k] = ve.dt[a]!
      speed[k] = vEnd
      power[k] = ve.power[a]!
      rho[k] = ve.rho[a]!
    } else {
      // The bin spans from its first sample's step to its last sample.
      let dist = 0
      let work = 0
      let aero = 0
      for (let x = a; x <= b; x++) {
        const d = x === 0 ? 0 : ve.dt[x]!
        const v = ve.speed[x]!
        dist += v * d
        work += ve.power[x]! * d
        aero += ve.rho[x]! * v * v * v * d
      }
      const d = dist / vEnd
      dt[k] = d
      speed[k] = vEnd
      power[k] = work / d
      rho[k] = aero / (vEnd * vEnd * vEnd * d)
    }
    heading[k] = ve.heading[(a + b) >> 1]!
    valid[k] = a === b ? ve.valid[a]! : 1
    binMarks[k] = marks[a]!
    if (elevation) elevation[k] = ve.elevation![b]!
  }
  return {
    series: {
      n: m,
      t,
      dt,
      speed,
      power,
      rho,
      elevation,
      heading,
      airspeed: null,
      valid,
    },
    first: Int32Array.from(first),
    last: Int32Array.from(last),
    marks: binMarks,
  }
}
