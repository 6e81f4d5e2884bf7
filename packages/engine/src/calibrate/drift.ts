// The ride's elevation as its energy balance sees it: the virtual elevation of the fit chained
// over the whole ride. Within a stretch the fit used, each step climbs what the calibrated energy
// balance says (the fitted virtual elevation's own steps); across stops, excluded stretches and
// the joins of the fit's pieces (each piece has its own elevation offset) the recorded elevation's
// step is kept. The difference from the recorded elevation is the slow error the energy fit
// attributes to the recording: barometric drift above all (a fake climb on a flat ride), which
// the fit's per-piece offsets absorb but a replay on the recorded elevation would ride.
import type { VePiece } from '../aero/types.ts'
import type { Course } from '../course/types.ts'
import type { BinnedSeries } from './bins.ts'

export interface EnergyProfile {
  /** Distance along the course (m) of each bin's last sample, never decreasing. */
  distanceM: Float64Array
  /** Recorded elevation − the chained virtual elevation (m), per bin. */
  driftM: Float64Array
}

/**
 * Chains the fit's virtual elevation (`residuals` = recorded − virtual, NaN where unused) into
 * one profile over the bins and returns its departure from the recorded elevation by distance.
 * `distance` is each sample's distance along the course.
 */
export function energyProfile(
  bins: BinnedSeries,
  pieces: readonly VePiece[],
  residuals: Float64Array,
  distance: ArrayLike<number>,
): EnergyProfile | null {
  const h = bins.series.elevation
  const n = bins.series.n
  if (!h || n === 0) return null
  const pieceOf = new Int32Array(n).fill(-1)
  pieces.forEach((p, j) => {
    for (let k = p.start; k < p.end; k++) pieceOf[k] = j
  })
  const distanceM = new Float64Array(n)
  const driftM = new Float64Array(n)
  let drift = 0
  let lastD = -Infinity
  for (let k = 0; k < n; k++) {
    const used = Number.isFinite(residuals[k])
    const prevUsed = k > 0 && Number.isFinite(residuals[k - 1])
    // Step of the virtual elevation (h − r) where both bins are in the same used piece; the
    // recorded step elsewhere. drift = h − chained: it changes by the step of r only.
    if (used && prevUsed && pieceOf[k] === pieceOf[k - 1]) {
      drift += residuals[k]! - residuals[k - 1]!
    }
    driftM[k] = drift
    lastD = Math.max(lastD, distance[bins.last[k]!]!)
    distanceM[k] = lastD
  }
  return { distanceM, driftM }
}

/**
 * The course with the energy profile's drift taken out of its elevation: each boundary's altitude
 * less the drift at its distance (linear between bins, held beyond the first and last), grades
 * from the new altitudes. Lengths, headings and everything else are the course's own.
 */
export function driftFreeCourse(course: Course, profile: EnergyProfile): Course {
  const { distanceM, driftM } = profile
  const m = distanceM.length
  const altitude = new Float64Array(course.n + 1)
  let j = 0
  for (let i = 0; i <= course.n; i++) {
    const x = course.start[i]!
    while (j < m - 1 && distanceM[j + 1]! <= x) j++
    let drift: number
    if (x <= distanceM[0]!) drift = driftM[0]!
    else if (j >= m - 1) drift = driftM[m - 1]!
    else {
      const span = distanceM[j + 1]! - distanceM[j]!
      const f = span > 0 ? (x - distanceM[j]!) / span : 1
      drift = driftM[j]! + f * (driftM[j + 1]! - driftM[j]!)
    }
    altitude[i] = course.altitude[i]! - drift
  }
  const grade = new Float64Array(course.n)
  for (let i = 0; i < course.n; i++)
    grade[i] = (altitude[i + 1]! - altitude[i]!) / course.length[i]!
  return { ...course, altitude, grade }
}
