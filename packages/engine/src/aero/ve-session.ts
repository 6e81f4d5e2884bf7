// The virtual-elevation fit of a field test's runs, in two stages. 1: one CdA per configuration
// (repeats share it), with the session's Crr and wind; 2: one CdA per run with that Crr and wind,
// each bootstrap replicate using the matching replicate of stage 1's Crr so the runs' intervals
// carry its uncertainty.
import type { AeroAnalysisInput, VeFitResult, VePiece, VeSeries } from './types.ts'
import type { ResolvedRun } from './analyze-runs.ts'
import { FALLBACK_CRR, fitVirtualElevation } from './ve.ts'

/** A fitted Crr whose 95 % half-width exceeds this is not believed (held at FALLBACK_CRR). */
const MAX_CRR_HALF_WIDTH = 0.002

/** Settings every fit of the analysis shares. */
export interface FitSettings {
  massKg: number
  drivetrainEfficiency: number
  /** The samples the fit uses (1) and leaves out (0). */
  mask: Uint8Array
  resamples: number
  seed: number
}

export interface SessionFit {
  /** Stage 1: per configuration, with the session's Crr and wind. */
  session: VeFitResult
  /** The configurations in stage 1's group order. */
  configs: string[]
  /** Stage 2: per run (group k = run k). */
  fit: VeFitResult
  /** Index of each run's first piece in stage 2's pieces. */
  firstPiece: number[]
  /** The runs' Crr: given, fitted, or FALLBACK_CRR. */
  crr: number
  /** Why the runs' Crr has no interval (null: fitted, with its interval). */
  crrHeld: string | null
}

/** The runs' pieces, each in the group `group(k)` of its run k. */
function piecesBy(
  runs: ResolvedRun[],
  group: (k: number) => number,
): { pieces: VePiece[]; first: number[] } {
  const pieces: VePiece[] = []
  const first: number[] = []
  runs.forEach((r, k) => {
    first.push(pieces.length)
    for (const [a, b] of r.pieces) pieces.push({ start: a, end: b, group: group(k) })
  })
  return { pieces, first }
}

export function fitSession(
  series: VeSeries,
  runs: ResolvedRun[],
  common: FitSettings,
  input: AeroAnalysisInput,
  warnings: string[],
): SessionFit {
  const configs = [...new Set(runs.map((r) => r.configuration))]
  const sessionPieces = piecesBy(runs, (k) => configs.indexOf(runs[k]!.configuration)).pieces
  const sessionFit = (crr: number | undefined) =>
    fitVirtualElevation(series, sessionPieces, {
      ...common,
      groups: configs.length,
      crr,
      fitWind: input.fitWind ?? true,
    })
  let session = sessionFit(input.crr)
  let crrHeld: string | null = input.crr !== undefined ? `Crr ${input.crr} given, not fitted` : null
  // A Crr the data barely determine (runs all at one speed) would only widen every run's
  // interval: it is held at the textbook value instead, with a warning.
  const crrHalf = 0.5 * (session.crrCi95[1] - session.crrCi95[0])
  if (!session.crrFixed && crrHalf > MAX_CRR_HALF_WIDTH) {
    warnings.push(
      `virtual elevation: Crr ${session.crr.toFixed(4)} ± ${crrHalf.toFixed(4)} is not determined by the runs ` +
        `(too little speed variation): held at ${FALLBACK_CRR}; give crr for absolute CdA`,
    )
    session = sessionFit(FALLBACK_CRR)
    crrHeld = `held at ${FALLBACK_CRR}: the runs do not determine it (too little speed variation)`
  }
  if (crrHeld === null && session.crrFixed)
    crrHeld = `held at ${FALLBACK_CRR}: the runs do not determine it`
  for (const w of session.warnings) warnings.push(`virtual elevation: ${w}`)
  const { pieces, first: firstPiece } = piecesBy(runs, (k) => k)
  const fit = fitVirtualElevation(series, pieces, {
    ...common,
    groups: runs.length,
    crr: Number.isFinite(session.crr) ? session.crr : FALLBACK_CRR,
    crrSe: session.crrFixed ? undefined : session.crrSe,
    sessionBlocks: session.blocks,
    fitWind: false,
    windE: session.windE,
    windN: session.windN,
  })
  const crr = input.crr ?? (Number.isFinite(session.crr) ? session.crr : FALLBACK_CRR)
  return { session, configs, fit, firstPiece, crr, crrHeld }
}
