// Critical power and W′ from maximal efforts (docs/engine/science.md §3.1): Monod & Scherrer (1965) found the
// work of exhausting efforts linear in their duration, W_lim = W′ + CP·t_lim, so CP is the slope
// and W′ the intercept of a least-squares line through (t, P·t). Two efforts define it exactly;
// more give a fit whose scatter is reported. The model holds for efforts of about 2 to 20 minutes
// (shorter ones are anaerobic-limited, longer ones fall below CP through fatigue).
import { EngineInputError, requireNumber } from './validate.ts'

export type MaximalEffort = { powerW: number; durationS: number }

export type CriticalPowerFit = {
  cpW: number
  wPrimeJ: number
  /** Largest gap between an effort's work and the fitted line (J); 0 for two efforts. */
  maxResidualJ: number
}

/** Efforts outside this range (s) are refused: the two-parameter model does not describe them. */
export const EFFORT_RANGE_S = { min: 60, max: 3600 } as const

export function criticalPowerFromEfforts(efforts: readonly MaximalEffort[]): CriticalPowerFit {
  if (!Array.isArray(efforts) || efforts.length < 2) {
    throw new EngineInputError(
      'efforts',
      `expected at least 2 maximal efforts of different durations, got ${Array.isArray(efforts) ? efforts.length : 'nothing'}`,
    )
  }
  const t: number[] = []
  const work: number[] = []
  efforts.forEach((e, i) => {
    const p = requireNumber(`efforts[${i}].power_w`, e?.powerW, 0, 3000, true)
    const d = requireNumber(
      `efforts[${i}].duration_s`,
      e?.durationS,
      EFFORT_RANGE_S.min,
      EFFORT_RANGE_S.max,
    )
    t.push(d)
    work.push(p * d)
  })
  const n = t.length
  const tMean = t.reduce((a, b) => a + b, 0) / n
  const wMean = work.reduce((a, b) => a + b, 0) / n
  let stt = 0
  let stw = 0
  for (let i = 0; i < n; i++) {
    stt += (t[i]! - tMean) ** 2
    stw += (t[i]! - tMean) * (work[i]! - wMean)
  }
  if (stt < 1) {
    throw new EngineInputError(
      'efforts',
      `expected efforts of different durations (e.g. 3 and 12 minutes), got ${t.map((d) => `${d} s`).join(', ')}`,
    )
  }
  const cpW = stw / stt
  const wPrimeJ = wMean - cpW * tMean
  if (!(cpW > 0) || !(wPrimeJ > 0)) {
    throw new EngineInputError(
      'efforts',
      `expected the shorter effort at the higher power (the work–time line must have a positive ` +
        `slope and intercept), got CP ${cpW.toFixed(0)} W and W′ ${wPrimeJ.toFixed(0)} J`,
    )
  }
  let maxResidualJ = 0
  for (let i = 0; i < n; i++) {
    maxResidualJ = Math.max(maxResidualJ, Math.abs(work[i]! - (wPrimeJ + cpW * t[i]!)))
  }
  return { cpW, wPrimeJ, maxResidualJ }
}
