// What the aero analysis stores on each run (`aero_runs.results` and the run block): the task's
// run with the comparison of its configuration, every withheld quantity (NaN in the engine) as
// null with its reason beside it. Pure: the session-property test builds the page from it.
import type { AeroRunResults } from '@veloptima/contracts'
import type { AeroTaskOutput, AeroTaskRun } from './aero-task.ts'

export type StoredComparison = {
  baseline: string
  correctedCda: number[]
  configurations: {
    configuration: string
    deltaCda: number
    deltaCdaCi95: [number, number]
    wattsSaved: number
    secondsPer40km: number
    verdict: 'faster' | 'slower' | 'no_difference' | 'withheld'
    withheld?: { field: string; reason: string }[]
  }[]
}

export const comparisonOf = (output: AeroTaskOutput) => output.comparison as StoredComparison | null

const fin = (x: number | null | undefined) =>
  typeof x === 'number' && Number.isFinite(x) ? x : null
const pair = (p: [number, number] | null | undefined): [number, number] | null =>
  p && Number.isFinite(p[0]) && Number.isFinite(p[1]) ? p : null

/** The stored results of run `i` of an analysis version. */
export function runResults(
  run: AeroTaskRun,
  i: number,
  comparison: StoredComparison | null,
  version: number,
): AeroRunResults {
  const c = comparison?.configurations.find((k) => k.configuration === run.configuration)
  const isBaseline = comparison != null && run.configuration === comparison.baseline
  return {
    version,
    detected: run.key == null,
    source: run.source,
    method: run.method,
    cda: fin(run.cda),
    cda_ci95: pair(run.cdaCi95),
    crr: fin(run.crr),
    crr_ci95: pair(run.crrCi95),
    ve_rmse_m: run.veRmseM,
    corrected_cda: fin(comparison?.correctedCda[i]),
    delta_cda: c ? fin(c.deltaCda) : isBaseline && fin(run.cda) != null ? 0 : null,
    delta_cda_ci95: c ? pair(c.deltaCdaCi95) : null,
    watts_saved: c ? fin(c.wattsSaved) : null,
    seconds_per_40km: c ? fin(c.secondsPer40km) : null,
    verdict: c ? c.verdict : null,
    mean_speed_mps: run.meanSpeedMps,
    mean_power_w: run.meanPowerW,
    air_density: run.airDensity,
    calibration_factor: run.calibrationFactor,
    flags: run.flags,
    samples_used: run.samplesUsed,
    excluded_samples: run.excludedSamples,
    withheld: [...run.withheld, ...(c?.withheld ?? [])],
    clock: run.clock,
    file_id: run.fileId,
  }
}
