// Physical ranges of what the aero analysis reports, and the rule that applies them: a quantity
// outside its range, or an interval that cannot be estimated (none, or of zero width), is withheld
// (NaN) with the reason, never reported (docs/engine/aero.md, "Sound results").
import type { AeroRun, AeroWithheld } from './types.ts'

/** A rider on a bike (docs/limits-input.md: a position's CdA 0.1…0.8 m²). */
export const CDA_RANGE: [number, number] = [0.1, 0.8]
/** The bounds of a run's 95 % CdA interval: wider than this, the run does not determine its CdA. */
export const CDA_INTERVAL_RANGE: [number, number] = [0, 1]
/** Rolling resistance of a bicycle tyre on a road or a track (docs/engine/science.md §9.2). */
export const CRR_RANGE: [number, number] = [0.0015, 0.02]
/** ΔCdA between two configurations of rider and bike: at most the span of CDA_RANGE. */
export const DELTA_CDA_MAX = CDA_RANGE[1] - CDA_RANGE[0]
/** Power saved at the reference speed, W, and time saved over 40 km, s: beyond these, not a change of kit. */
export const WATTS_SAVED_MAX = 1000
export const SECONDS_PER_40KM_MAX = 3600
/** An interval narrower than this claims a certainty no field test has. */
const ZERO_WIDTH = 1e-9

export const inRange = (x: number, [lo, hi]: [number, number]): boolean =>
  Number.isFinite(x) && x >= lo && x <= hi

const fmtRange = ([lo, hi]: [number, number], digits: number, unit: string) =>
  `${lo.toFixed(digits)}–${hi.toFixed(digits)}${unit}`

/**
 * Why an interval cannot be reported (null: it can): none, of zero width, or with a bound outside
 * `range`.
 */
export function intervalProblem(
  ci: [number, number],
  range: [number, number],
  what: string,
  digits: number,
  unit: string,
): string | null {
  if (!Number.isFinite(ci[0]) || !Number.isFinite(ci[1]))
    return `no 95 % interval of ${what}: too few independent stretches (≈ 120 s blocks) to estimate its scatter`
  if (ci[1] - ci[0] <= ZERO_WIDTH)
    return `no 95 % interval of ${what}: the data give no scatter to estimate it from (a zero-width interval would claim certainty)`
  if (ci[0] < range[0] || ci[1] > range[1])
    return `95 % interval of ${what} withheld: wider than its physical range ${fmtRange(range, digits, unit)}, so the data do not determine it`
  return null
}

/**
 * The run as reported: its CdA withheld outside CDA_RANGE (with its interval), an interval that
 * cannot be estimated withheld, a held Crr reported without an interval. Mutates and returns it.
 */
export function soundRun(run: AeroRun, crrHeld: string | null): AeroRun {
  const withheld: AeroWithheld[] = run.withheld
  if (!Number.isFinite(run.cda)) {
    withheld.push({
      field: 'cda',
      reason: `no CdA: the run has too few usable samples (${run.samplesUsed}) for a fit`,
    })
    run.cda = NaN
    run.cdaCi95 = [NaN, NaN]
  } else if (!inRange(run.cda, CDA_RANGE)) {
    withheld.push({
      field: 'cda',
      reason:
        `CdA withheld: outside the physical range ${fmtRange(CDA_RANGE, 1, ' m²')} of a rider on a bike ` +
        '(a recovery or a turnaround, coasting, a wrong mass or bad data)',
    })
    run.cda = NaN
    run.cdaCi95 = [NaN, NaN]
  } else {
    const problem = intervalProblem(run.cdaCi95, CDA_INTERVAL_RANGE, 'CdA', 0, ' m²')
    if (problem) {
      withheld.push({ field: 'cda_ci95', reason: problem })
      run.cdaCi95 = [NaN, NaN]
    }
  }
  if (!inRange(run.crr, CRR_RANGE)) {
    withheld.push({
      field: 'crr',
      reason: `Crr withheld: outside the physical range ${fmtRange(CRR_RANGE, 4, '')}`,
    })
    run.crr = NaN
    run.crrCi95 = [NaN, NaN]
  } else if (crrHeld !== null) {
    withheld.push({ field: 'crr_ci95', reason: `no 95 % interval of Crr: ${crrHeld}` })
    run.crrCi95 = [NaN, NaN]
  } else {
    const problem = intervalProblem(run.crrCi95, [0, 0.03], 'Crr', 2, '')
    if (problem) {
      withheld.push({ field: 'crr_ci95', reason: problem })
      run.crrCi95 = [NaN, NaN]
    }
  }
  return run
}
